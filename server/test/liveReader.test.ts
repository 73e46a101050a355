import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync, appendFileSync, utimesSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sessionResponseSchema, type FileItem } from '../../shared/wire/record.ts';
import { isoAt, nameAt, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import type { Dashboard } from '../dashboard.ts';
import { buildApp } from '../http/app.ts';
import type { Source } from '../sources/source.ts';
import { startWriter, type Writer } from '../../tools/writer/writerClient.ts';
import { connectEventStream } from './eventStream.ts';
import { TEST_PENDING_WINDOW_MS, eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';

// The live reader against a real writer process: files arrive half-written, in bursts, cut
// short; folders come and go. Each test uses its own session folder in one shared record.

const record = makeTempRecord();
let dashboard: Dashboard;
let writer: Writer;

before(async () => {
  writer = await startWriter(record.dir);
  dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: 500, pendingWindowMs: TEST_PENDING_WINDOW_MS });
  await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'first scan');
});

after(async () => {
  await writer.kill();
  await dashboard.close();
  record.remove();
});

async function sessionItems(sessionId: string): Promise<FileItem[]> {
  const page = await getJson(dashboard, `/api/sessions/${sessionId}?limit=5000`, sessionResponseSchema);
  return page.items.filter((item): item is FileItem => item.type === 'file');
}

async function itemOf(sessionId: string, file: string): Promise<FileItem | undefined> {
  return (await sessionItems(sessionId)).find((item) => item.file === file);
}

function entry<T extends Record<string, unknown>>(sessionId: string, value: T): T {
  return { ...value, sessionId };
}

describe('the live reader', () => {
  it('a half-written file is pending, and turns into its entry when the writer finishes', async () => {
    const sessionId = 'half-written';
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    const slow = writer.send({ op: 'write', sessionId, seq: 2, entry: entry(sessionId, sentEntry(1, 'x'.repeat(400))), chunkBytes: 100, chunkDelayMs: 300 });
    const file = nameAt(1, 2);
    await eventually(async () => ((await itemOf(sessionId, file))?.evidence === 'pending' ? true : undefined), 'the pending file');
    await slow;
    const done = await eventually(async () => {
      const item = await itemOf(sessionId, file);
      return item?.evidence === 'parsed' ? item : undefined;
    }, 'the finished entry');
    assert.equal(done.entry?.['text'], 'x'.repeat(400));
  });

  it('a write killed halfway is pending at first, then damaged: unknown evidence with its name and size', async () => {
    const sessionId = 'killed-halfway';
    const victim = await startWriter(record.dir);
    await victim.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    const stalled = await victim.send({ op: 'write', sessionId, seq: 2, entry: entry(sessionId, sentEntry(1, 'never finished')), stallAfterBytes: 60 });
    assert.equal(stalled.stalled, true);
    await victim.kill('SIGKILL');
    const file = nameAt(1, 2);
    assert.equal((await eventually(() => itemOf(sessionId, file), 'the cut-short file')).evidence, 'pending');
    const damaged = await eventually(async () => {
      const item = await itemOf(sessionId, file);
      return item?.evidence === 'damaged' ? item : undefined;
    }, 'the damaged file', TEST_PENDING_WINDOW_MS + 5_000);
    assert.equal(damaged.size, 60);
    const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
    const summary = list.projects.flatMap((project) => project.sessions).find((session) => session.sessionId === sessionId);
    assert.deepEqual(summary?.degraded.map((reason) => reason.code), ['damaged-file']);
  });

  it('2,000 files written in one burst are all shown', async () => {
    const sessionId = 'burst';
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    await writer.send({ op: 'burst', sessionId, count: 2_000, startSeq: 2, cwd: '/home/dev/projects/burst' });
    const page = await eventually(async () => {
      const got = await getJson(dashboard, `/api/sessions/${sessionId}?limit=5000`, sessionResponseSchema);
      return got.page.total === 2_001 && got.items.every((item) => item.type === 'file' && item.evidence === 'parsed') ? got : undefined;
    }, 'all 2,001 entries', 10_000);
    assert.equal(page.session.counts.sent + page.session.counts.received, 2_000);
    assert.deepEqual(page.session.degraded, []);
  });

  it('a new entry reaches a connected client as a session-changed event carrying the session as it now is', async () => {
    const sessionId = 'live-event';
    const events = await connectEventStream(dashboard.url);
    try {
      await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
      await writer.send({ op: 'write', sessionId, seq: 2, entry: entry(sessionId, sentEntry(1, 'hello')) });
      const { event } = await events.next(({ event }) => event.type === 'session-changed' && event.sessionId === sessionId && event.session.counts.sent === 1);
      assert.equal(event.type, 'session-changed');
      if (event.type !== 'session-changed') return;
      // The same summary the list gives, so a client can put it in its list as it is.
      const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
      const listed = list.projects.flatMap((project) => project.sessions).find((session) => session.sessionId === sessionId);
      assert.deepStrictEqual(event.session, listed);
      assert.equal(event.session.hasStart, true);
    } finally {
      events.close();
    }
  });

  it('a file changed after it parsed is shown as changed; a trailing newline added later is not a change', async () => {
    const sessionId = 'tampered';
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    const sent = await writer.send({ op: 'write', sessionId, seq: 2, entry: entry(sessionId, sentEntry(1, 'original')) });
    const file = nameAt(1, 2);
    await eventually(async () => ((await itemOf(sessionId, file))?.evidence === 'parsed' ? true : undefined), 'the entry');
    appendFileSync(sent.file!, '\n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await itemOf(sessionId, file))?.evidence, 'parsed');
    writeFileSync(sent.file!, JSON.stringify(entry(sessionId, sentEntry(1, 'rewritten'))));
    const changed = await eventually(async () => {
      const item = await itemOf(sessionId, file);
      return item?.evidence === 'changed' ? item : undefined;
    }, 'the changed file');
    assert.equal(changed.why, 'changed after it was read');
  });

  it('a file removed after it parsed stays in its place, shown as removed', async () => {
    const sessionId = 'removed';
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    const sent = await writer.send({ op: 'write', sessionId, seq: 2, entry: entry(sessionId, receivedEntry(1, 'gone soon')) });
    await eventually(async () => ((await itemOf(sessionId, nameAt(1, 2)))?.evidence === 'parsed' ? true : undefined), 'the entry');
    unlinkSync(sent.file!);
    const removed = await eventually(async () => {
      const item = await itemOf(sessionId, nameAt(1, 2));
      return item?.evidence === 'removed' ? item : undefined;
    }, 'the removed file');
    assert.equal(removed.side, 'received', 'the side it had is kept, so it keeps its column');
  });

  it('a session folder removed and recreated is picked up again', async () => {
    const sessionId = 'recreated';
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    await eventually(async () => ((await itemOf(sessionId, nameAt(0, 1)))?.evidence === 'parsed' ? true : undefined), 'the start entry');
    rmSync(join(record.dir, sessionId), { recursive: true });
    await eventually(async () => ((await itemOf(sessionId, nameAt(0, 1)))?.evidence === 'removed' ? true : undefined), 'the removal');
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(5)), at: isoAt(5) });
    await eventually(async () => ((await itemOf(sessionId, nameAt(5, 1)))?.evidence === 'parsed' ? true : undefined), 'the new start entry');
  });

  it("a symlink under an entry's name to a file outside the record is unreadable in that entry's place, never followed, its bytes never served, and no entry is said missing", async () => {
    const sessionId = 'with-link';
    const outside = makeTempRecord('rec-outside-');
    try {
      const secret = join(outside.dir, 'secret.json');
      writeFileSync(secret, JSON.stringify(entry(sessionId, sentEntry(1, 'SECRET OUTSIDE THE RECORD'))));
      await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
      symlinkSync(secret, join(record.dir, sessionId, nameAt(1, 2)));
      await writer.send({ op: 'write', sessionId, seq: 3, entry: entry(sessionId, sentEntry(2, 'after the link')), at: isoAt(2) });
      const page = await eventually(async () => {
        const got = await getJson(dashboard, `/api/sessions/${sessionId}`, sessionResponseSchema);
        return got.items.length === 3 && got.items[2]?.type === 'file' && got.items[2].evidence === 'parsed' ? got : undefined;
      }, 'the link and the entry after it');
      assert.deepEqual(
        page.items.map((item) => (item.type === 'file' ? `${item.file} ${item.evidence}` : item.type)),
        [`${nameAt(0, 1)} parsed`, `${nameAt(1, 2)} unreadable`, `${nameAt(2, 3)} parsed`],
        'the link keeps its place: no gap, no stray',
      );
      const link = page.items[1]!;
      assert.equal(link.type === 'file' && link.why, 'not read, so what this entry said is unknown: a symbolic link, not followed');
      assert.deepEqual(page.session.degraded.map((reason) => [reason.code, reason.files]), [['unreadable', [nameAt(1, 2)]]]);
      assert.doesNotMatch(JSON.stringify(page), /SECRET OUTSIDE/);
      const direct = await fetch(new URL(`/api/sessions/${sessionId}/files/${nameAt(1, 2)}`, dashboard.url));
      assert.doesNotMatch(await direct.text(), /SECRET OUTSIDE/);
      const search = await fetch(new URL('/api/search?q=SECRET', dashboard.url));
      assert.doesNotMatch(await search.text(), /SECRET OUTSIDE/);
    } finally {
      outside.remove();
    }
  });

  it('a session folder that is a symlink is not followed', async () => {
    const outside = makeTempRecord('rec-outside-');
    try {
      mkdirSync(join(outside.dir, 'x'));
      writeFileSync(join(outside.dir, 'x', nameAt(0, 1)), JSON.stringify(entry('linked-folder', startEntry(0, { cwd: '/SECRET-CWD' }))));
      symlinkSync(join(outside.dir, 'x'), join(record.dir, 'linked-folder'));
      await eventually(async () => {
        const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
        return list.sources[0]!.strays.includes('linked-folder') ? list : undefined;
      }, 'the link listed as a stray', 3_000);
      const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
      assert.doesNotMatch(JSON.stringify(list), /SECRET-CWD/);
    } finally {
      outside.remove();
    }
  });
});

describe('the session list', () => {
  it('is answered again only when something changed, and follows every change, a stray beside the sessions included', async () => {
    // A list put together again has the same bytes as a kept one, so what is counted is how
    // often it is put together: each time, it walks the source's sessions.
    let assembled = 0;
    const recordSource = dashboard.sources[0]!;
    const counted: Source = { ...recordSource, conversations: () => (assembled++, recordSource.conversations()) };
    const app = await buildApp({ sources: [counted], webRoot: null, token: null });
    const list = async () => {
      const response = await app.inject('/api/sessions');
      assert.equal(response.statusCode, 200);
      return { body: response.body, strays: recordSessionsResponseSchema.parse(response.json()).sources[0]!.strays };
    };
    const stray = 'stray-beside-sessions.txt';
    const sessionId = 'listed';
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    await eventually(async () => ((await itemOf(sessionId, nameAt(0, 1)))?.evidence === 'parsed' ? true : undefined), 'the entry');
    try {
      const first = await list();
      assert.equal(assembled, 1);
      // A page reads its files again, and reconciles run meanwhile: neither is a change.
      await itemOf(sessionId, nameAt(0, 1));
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      assert.equal((await list()).body, first.body);
      assert.equal(assembled, 1, 'nothing changed, so the list kept is answered');

      writeFileSync(join(record.dir, stray), 'x');
      await eventually(async () => ((await list()).strays.includes(stray) ? true : undefined), 'the stray in the list');
      const withStray = assembled;
      assert.ok(withStray > 1);
      await list();
      assert.equal(assembled, withStray, 'the list with the stray is kept in turn');

      unlinkSync(join(record.dir, stray));
      await eventually(async () => ((await list()).strays.includes(stray) ? undefined : true), 'the stray gone');
    } finally {
      await app.close();
    }
  });
});

/** A session folder holding its start entry, at `second`. */
function writeSession(recordDir: string, sessionId: string, second: number): void {
  mkdirSync(join(recordDir, sessionId), { recursive: true });
  writeFileSync(join(recordDir, sessionId, nameAt(second, 1)), JSON.stringify(entry(sessionId, startEntry(second))));
}

/** A record directory `record` holding session s1, in a folder of its own, read by a dashboard of its own while `run` runs. */
async function withRecordInParent(run: (at: { recordDir: string; parentDir: string; later: Dashboard }) => Promise<void>): Promise<void> {
  const parent = makeTempRecord('rec-parent-');
  const recordDir = join(parent.dir, 'record');
  writeSession(recordDir, 's1', 0);
  const later = await startTestDashboard(recordDir);
  try {
    await run({ recordDir, parentDir: parent.dir, later });
  } finally {
    await later.close();
    parent.remove();
  }
}

type ListedSource = ReturnType<typeof recordSessionsResponseSchema.parse>['sources'][number];

/** Waits until the record, as /api/sessions tells it, is as `test` asks. */
async function sourceIs(later: Dashboard, test: (source: ListedSource) => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  await eventually(async () => (test((await getJson(later, '/api/sessions', recordSessionsResponseSchema)).sources[0]!) ? true : undefined), what, timeoutMs);
}

/** Waits until /api/sessions lists a session. */
async function sessionListed(later: Dashboard, sessionId: string, what: string): Promise<void> {
  await eventually(async () => ((await getJson(later, '/api/sessions', recordSessionsResponseSchema)).projects.some((project) => project.sessions.some((session) => session.sessionId === sessionId)) ? true : undefined), what);
}

describe('the record directory itself', () => {
  it('a file that comes or goes directly in the record directory is told to clients as a record notice, so they fetch the list again', async () => {
    const events = await connectEventStream(dashboard.url);
    try {
      const name = 'stray-for-a-notice.txt';
      // The first notices of a connection say how the record is; those after them are news.
      await events.next(({ event }) => event.type === 'source');
      const since = performance.now();
      writeFileSync(join(record.dir, name), 'x');
      await events.next(({ at, event }) => event.type === 'source' && at >= since);
      assert.ok((await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema)).sources[0]!.strays.includes(name));
      unlinkSync(join(record.dir, name));
    } finally {
      events.close();
    }
  });


  it('a record directory that does not exist yet is waited for, and read once it appears', async () => {
    const parent = makeTempRecord('rec-parent-');
    const recordDir = join(parent.dir, 'record');
    const later = await startTestDashboard(recordDir);
    try {
      const waiting = await getJson(later, '/api/sessions', recordSessionsResponseSchema);
      assert.equal(waiting.sources[0]!.state, 'missing');
      assert.equal(waiting.sources[0]!.indexing.state, 'waiting');
      const staging = join(parent.dir, 'staging');
      mkdirSync(join(staging, 's1'), { recursive: true });
      writeFileSync(join(staging, 's1', nameAt(0, 1)), JSON.stringify(entry('s1', startEntry(0))));
      renameSync(staging, recordDir);
      const list = await eventually(async () => {
        const got = await getJson(later, '/api/sessions', recordSessionsResponseSchema);
        return got.projects.length === 1 ? got : undefined;
      }, 'the record to be read');
      assert.equal(list.sources[0]!.state, 'present');
    } finally {
      await later.close();
      parent.remove();
    }
  });

  it('a record directory removed and recreated is picked up again; what was read before shows as removed', async () => {
    await withRecordInParent(async ({ recordDir, later }) => {
      await sourceIs(later, (source) => source.indexing.state === 'ready', 'the first read');
      rmSync(recordDir, { recursive: true });
      await sourceIs(later, (source) => source.state === 'missing', 'the removal');
      writeSession(recordDir, 's2', 3);
      await sessionListed(later, 's2', 'the new record');
      const s1 = await getJson(later, '/api/sessions/s1', sessionResponseSchema);
      assert.equal(s1.items[0]?.type === 'file' && s1.items[0].evidence, 'removed');
      await sourceIs(later, (source) => source.state === 'present', 'the record present');
    });
  });

  it('a record directory removed the moment its first read ends, before its watch is set up, is seen as missing within seconds', async () => {
    await withRecordInParent(async ({ recordDir, later }) => {
      const deadline = Date.now() + 5_000;
      while (later.sources[0]!.status().indexing.state !== 'ready') {
        assert.ok(Date.now() < deadline, 'the first read ends within 5 s');
        await new Promise((resolve) => setImmediate(resolve));
      }
      rmSync(recordDir, { recursive: true });
      await sourceIs(later, (source) => source.state === 'missing', 'the removal');
    });
  });

  it('a record directory moved away is seen as missing within seconds; another put in its place is read, and what was read before shows as removed', async () => {
    await withRecordInParent(async ({ recordDir, parentDir, later }) => {
      await sourceIs(later, (source) => source.indexing.state === 'ready', 'the first read');
      renameSync(recordDir, join(parentDir, 'moved'));
      await sourceIs(later, (source) => source.state === 'missing', 'the move');
      writeSession(join(parentDir, 'other'), 's2', 3);
      renameSync(join(parentDir, 'other'), recordDir);
      await sessionListed(later, 's2', 'the record put back');
      await sourceIs(later, (source) => source.state === 'present', 'the record present');
      const s1 = await getJson(later, '/api/sessions/s1', sessionResponseSchema);
      assert.equal(s1.items[0]?.type === 'file' && s1.items[0].evidence, 'removed');
    });
  });

  it('a record directory moved away and the same folder moved back is watched afresh: a file then written directly in it is listed within seconds', async () => {
    await withRecordInParent(async ({ recordDir, parentDir, later }) => {
      await sourceIs(later, (source) => source.indexing.state === 'ready', 'the first read');
      // Every watch set up (chokidar's last, after the first scan) before the folder is moved.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      renameSync(recordDir, join(parentDir, 'moved'));
      await sourceIs(later, (source) => source.state === 'missing', 'the move');
      // The same folder, the same identity: the watches made before it moved are dead all the same.
      renameSync(join(parentDir, 'moved'), recordDir);
      await sourceIs(later, (source) => source.state === 'present', 'the move back');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      writeFileSync(join(recordDir, 'stray-after-the-move-back.txt'), 'x');
      await sourceIs(later, (source) => source.strays.includes('stray-after-the-move-back.txt'), 'the stray', 3_000);
    });
  });

  it('another folder put in the record directory’s place at once (the record moved away, another moved in) is watched: a write into it is told', async () => {
    await withRecordInParent(async ({ recordDir, parentDir, later }) => {
      const other = join(parentDir, 'other');
      writeSession(other, 's1', 0);
      await sourceIs(later, (source) => source.indexing.state === 'ready', 'the first read');
      // Every watch set up (chokidar's last, after the first scan) before the folders are swapped.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      renameSync(recordDir, join(parentDir, 'moved'));
      renameSync(other, recordDir);
      // Past the next look at the record directory, and any reconcile a watch's event began.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      writeFileSync(join(recordDir, 's1', nameAt(1, 2)), JSON.stringify(entry('s1', sentEntry(1, 'into the folder put in its place'))));
      const page = await eventually(async () => {
        const got = await getJson(later, '/api/sessions/s1', sessionResponseSchema);
        return got.items.some((item) => item.type === 'file' && item.file === nameAt(1, 2)) ? got : undefined;
      }, 'the write into the record put in its place', 3_000);
      assert.equal(page.items.length, 2);
    });
  });

  it('a file already older than the pending window when first seen is damaged at once', async () => {
    const parent = makeTempRecord();
    mkdirSync(join(parent.dir, 's1'));
    const path = join(parent.dir, 's1', nameAt(0, 1));
    writeFileSync(path, '{"kind":"start","sessio');
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    const later = await startTestDashboard(parent.dir);
    try {
      const page = await eventually(async () => {
        const got = await getJson(later, '/api/sessions/s1', sessionResponseSchema);
        return got.items.length > 0 ? got : undefined;
      }, 'the session');
      assert.equal(page.items[0]?.type === 'file' && page.items[0].evidence, 'damaged');
    } finally {
      await later.close();
      parent.remove();
    }
  });
});
