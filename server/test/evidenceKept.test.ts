import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sessionResponseSchema, type FileItem, type SessionSummary } from '../../shared/wire/record.ts';
import { nameAt, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import type { Dashboard } from '../dashboard.ts';
import { startWriter, type Writer } from '../../tools/writer/writerClient.ts';
import { TEST_PENDING_WINDOW_MS, eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';
import { recordSessionsResponseSchema, recordSearchResponseSchema } from '../../shared/test/recordWire.ts';

// No evidence slips away: whatever happens to a file after the reader read it (its name taken by
// a link, a pipe or a folder; its bytes cut and written again; the file removed and put back), what
// it said is kept, the session says it was touched, and the page and the summary agree.
//
// The reconcile interval is far longer than any test here, and the sessions whose entries are
// replaced are written before the dashboard starts (a folder that appears later is listed again a
// few times while its watch is set up): what is found is found by the watcher.

const record = makeTempRecord();
const outside = makeTempRecord('rec-outside-');
let dashboard: Dashboard;
let writer: Writer;

const replacements = [
  { what: 'a symbolic link', says: /symbolic link/, make: (path: string) => symlinkSync(join(outside.dir, 'elsewhere.json'), path) },
  { what: 'a named pipe', says: /named pipe/, make: (path: string) => execFileSync('mkfifo', [path]) },
  { what: 'a folder', says: /folder/, make: (path: string) => mkdirSync(path) },
];
const places = ['last', 'middle'] as const;
const replacedSession = (what: string, place: string) => `replaced-by-${what.split(' ').at(-1)}-${place}`;

before(async () => {
  writer = await startWriter(record.dir);
  writeFileSync(join(outside.dir, 'elsewhere.json'), JSON.stringify(entry('x', sentEntry(1, 'SECRET OUTSIDE THE RECORD'))));
  for (const replacement of replacements) for (const place of places) await writeSession(replacedSession(replacement.what, place), place === 'middle');
  await writer.send({ op: 'write', sessionId: 'watch-probe', seq: 1, entry: entry('watch-probe', startEntry(0)) });
  dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: 600_000, pendingWindowMs: TEST_PENDING_WINDOW_MS });
  await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'first scan');
  // A file written now is seen only once the folders are watched; the listings that follow the
  // watch's start are done a moment later.
  await writer.send({ op: 'write', sessionId: 'watch-probe', seq: 2, entry: entry('watch-probe', sentEntry(1, 'the watch is on')) });
  await eventually(async () => ((await itemOf('watch-probe', nameAt(1, 2)))?.evidence === 'parsed' ? true : undefined), 'the folders to be watched');
  await new Promise((resolve) => setTimeout(resolve, 500));
});

after(async () => {
  await writer.kill();
  await dashboard.close();
  record.remove();
  outside.remove();
});

function entry<T extends Record<string, unknown>>(sessionId: string, value: T): T {
  return { ...value, sessionId };
}

async function summaryOf(sessionId: string): Promise<SessionSummary | undefined> {
  const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
  return list.projects.flatMap((project) => project.sessions).find((session) => session.sessionId === sessionId);
}

async function pageOf(sessionId: string) {
  return getJson(dashboard, `/api/sessions/${sessionId}?limit=5000`, sessionResponseSchema);
}

async function itemOf(sessionId: string, file: string): Promise<FileItem | undefined> {
  return (await pageOf(sessionId)).items.find((item): item is FileItem => item.type === 'file' && item.file === file);
}

/** Writes a start entry, a sent entry and, when `middle`, a received entry after it. */
async function writeSession(sessionId: string, middle: boolean): Promise<string> {
  await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
  const sent = await writer.send({ op: 'write', sessionId, seq: 2, entry: entry(sessionId, sentEntry(1, `words of ${sessionId}`)) });
  if (middle) await writer.send({ op: 'write', sessionId, seq: 3, entry: entry(sessionId, receivedEntry(2, 'after it')) });
  return sent.file!;
}

/** writeSession, once the dashboard runs: waits until every entry parsed. */
async function writeSessionRead(sessionId: string, middle: boolean): Promise<string> {
  const sent = await writeSession(sessionId, middle);
  const files = middle ? 3 : 2;
  await eventually(async () => {
    const page = await pageOf(sessionId);
    return page.items.length === files && page.items.every((item) => item.type === 'file' && item.evidence === 'parsed') ? true : undefined;
  }, `the ${files} entries of ${sessionId}`);
  return sent;
}

describe('an entry whose name is taken by something that is not a file', () => {
  for (const replacement of replacements) {
    for (const place of places) {
      it(`a parsed entry replaced by ${replacement.what}, as the ${place} entry, is changed after it was read: what it said is kept, the session is degraded, the page agrees with the summary`, async () => {
        const sessionId = replacedSession(replacement.what, place);
        const file = nameAt(1, 2);
        const path = join(record.dir, sessionId, file);
        assert.deepEqual((await summaryOf(sessionId))?.degraded, [], 'read whole before it is replaced');
        unlinkSync(path);
        replacement.make(path);
        const summary = await eventually(async () => {
          const got = await summaryOf(sessionId);
          return got?.degraded.length === 1 && got.degraded[0]!.code === 'changed-after-read' ? got : undefined;
        }, `${replacement.what} to be noticed`, 10_000);
        assert.deepEqual(summary.degraded[0]!.files, [file]);
        assert.equal(summary.counts.sent, 1, 'the entry still counts as what it said when read');
        assert.equal(summary.counts.received, place === 'middle' ? 1 : 0);
        assert.equal(summary.counts.stray, 0);
        assert.equal(summary.counts.missing, 0);

        const page = await pageOf(sessionId);
        assert.deepStrictEqual(page.session, await summaryOf(sessionId), 'the page carries the summary the list gives');
        assert.ok(page.items.every((item) => item.type === 'file'), 'no stray, no gap');
        const item = page.items[1] as FileItem;
        assert.equal(item.file, file);
        assert.equal(item.evidence, 'changed');
        assert.equal(item.side, 'sent', 'it keeps its column');
        assert.equal(item.kind, 'message');
        assert.equal(item.entry, null, 'nothing on disk is an entry now');
        assert.match(item.why ?? '', replacement.says);
        assert.doesNotMatch(JSON.stringify(page), /SECRET OUTSIDE/);

        const search = await getJson(dashboard, `/api/search?side=sent&limit=1000`, recordSearchResponseSchema);
        const hit = search.hits.find((candidate) => candidate.sessionId === sessionId);
        assert.equal(hit?.file, file, 'a search still finds it by what it said');
        assert.equal(hit.snippet, null);
      });
    }
  }
});

describe('a file that is not finished in time', () => {
  it('a cut-short file whose mtime is in the future is pending only for the window, timed from when the reader first saw it', async () => {
    const sessionId = 'future-mtime';
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    const file = nameAt(1, 2);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    await writer.send({ op: 'raw', path: `${sessionId}/${file}`, bytes: Buffer.from('{"kind":"message","te').toString('base64'), mtime: future });
    assert.equal((await eventually(() => itemOf(sessionId, file), 'the cut-short file')).evidence, 'pending');
    const damaged = await eventually(async () => {
      const item = await itemOf(sessionId, file);
      return item?.evidence === 'damaged' ? item : undefined;
    }, 'the file to be damaged, though its mtime is an hour ahead', TEST_PENDING_WINDOW_MS + 5_000);
    assert.equal(damaged.size, 21);
    assert.deepEqual((await summaryOf(sessionId))?.degraded.map((reason) => reason.code), ['damaged-file']);
  });
});

describe('a file touched after it was read, then put back as it was', () => {
  it('a file cut and written again with the same bytes is parsed, and keeps the episode: changed after it was read, then restored', async () => {
    const sessionId = 'rewritten-same';
    const path = await writeSessionRead(sessionId, false);
    const file = nameAt(1, 2);
    const bytes = readFileSync(path);
    truncateSync(path, 0);
    await eventually(async () => ((await itemOf(sessionId, file))?.evidence === 'changed' ? true : undefined), 'the cut file');
    writeFileSync(path, bytes);
    const restored = await eventually(async () => {
      const item = await itemOf(sessionId, file);
      return item?.evidence === 'parsed' ? item : undefined;
    }, 'the file parsed again');
    assert.equal(restored.episode, 'changed-then-restored');
    assert.equal(restored.entry?.['text'], `words of ${sessionId}`);
    const summary = await summaryOf(sessionId);
    assert.deepEqual(summary?.degraded.map((reason) => [reason.code, reason.files]), [['changed-after-read', [file]]]);
    assert.equal(summary?.counts.sent, 1);
  });

  it('a file removed and put back is parsed, and keeps the episode: removed after it was read, then restored', async () => {
    const sessionId = 'removed-restored';
    const path = await writeSessionRead(sessionId, true);
    const file = nameAt(1, 2);
    const bytes = readFileSync(path);
    unlinkSync(path);
    await eventually(async () => ((await itemOf(sessionId, file))?.evidence === 'removed' ? true : undefined), 'the removal');
    writeFileSync(path, bytes);
    const restored = await eventually(async () => {
      const item = await itemOf(sessionId, file);
      return item?.evidence === 'parsed' ? item : undefined;
    }, 'the file parsed again');
    assert.equal(restored.episode, 'removed-then-restored');
    const page = await pageOf(sessionId);
    assert.deepEqual(page.session.degraded.map((reason) => [reason.code, reason.files]), [['removed-after-read', [file]]]);
    assert.deepStrictEqual(page.session, await summaryOf(sessionId));
  });
});

describe('small things the summary must get right', () => {
  it('an entry grown past 64 MiB shows its size now, not the size it had when read', async () => {
    const sessionId = 'grown-large';
    const path = await writeSessionRead(sessionId, false);
    const file = nameAt(1, 2);
    const large = 64 * 1024 * 1024 + 1;
    truncateSync(path, large); // sparse: no 64 MiB written to the disk
    const item = await eventually(async () => {
      const got = await itemOf(sessionId, file);
      return got?.evidence === 'unreadable' ? got : undefined;
    }, 'the file too large to read');
    assert.equal(item.size, large);
  });

  it('a sequence that jumps by a quadrillion is a jump, not a quadrillion missing entries', async () => {
    const sessionId = 'jump';
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    await writer.send({ op: 'write', sessionId, seq: 2, entry: entry(sessionId, sentEntry(1, 'before')) });
    await writer.send({ op: 'write', sessionId, seq: 999_999_999_999_999, entry: entry(sessionId, sentEntry(2, 'after')) });
    const summary = await eventually(async () => {
      const got = await summaryOf(sessionId);
      return got?.counts.sent === 2 ? got : undefined;
    }, 'both entries');
    assert.equal(summary.counts.missing, 0, 'no count of missing entries is claimed for a jump');
    assert.deepEqual(summary.degraded.map((reason) => reason.code), ['sequence-gap'], 'but the jump is a reason the record may be incomplete');
    const gap = (await pageOf(sessionId)).items.find((item) => item.type === 'gap');
    assert.deepEqual(gap && { from: gap.from, to: gap.to }, { from: 3, to: 999_999_999_999_998 });
  });

  it('a dashboard started on an empty record counts the files that arrive later', async () => {
    const empty = makeTempRecord('rec-empty-');
    const later = await startTestDashboard(empty.dir, { reconcileIntervalMs: 600_000 });
    const other = await startWriter(empty.dir);
    try {
      await eventually(() => (later.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'first scan');
      await other.send({ op: 'write', sessionId: 's1', seq: 1, entry: entry('s1', startEntry(0)) });
      await other.send({ op: 'write', sessionId: 's1', seq: 2, entry: entry('s1', sentEntry(1, 'one')) });
      await other.send({ op: 'write', sessionId: 's1', seq: 3, entry: entry('s1', sentEntry(2, 'two')) });
      await eventually(async () => ((await getJson(later, '/api/sessions', recordSessionsResponseSchema)).projects.length === 1 ? true : undefined), 'the session');
      const list = await eventually(async () => {
        const got = await getJson(later, '/api/sessions', recordSessionsResponseSchema);
        return got.projects[0]?.sessions[0]?.counts.sent === 2 ? got : undefined;
      }, 'both entries');
      assert.deepEqual(list.sources[0]!.indexing, { state: 'ready', files: 3 });
    } finally {
      await other.kill();
      await later.close();
      empty.remove();
    }
  });

  it('a limit or an offset that is not a plain decimal number is a 400', async () => {
    const sessionId = 'limits';
    await writeSessionRead(sessionId, false);
    for (const query of ['limit=0x10', 'limit=1e2', 'limit=%2010', 'limit=', 'offset=0x10', 'offset=1e1', 'offset=']) {
      assert.equal((await fetch(new URL(`/api/sessions/${sessionId}?${query}`, dashboard.url))).status, 400, query);
    }
    for (const query of ['limit=0x10', 'limit=1e2', 'limit=']) {
      assert.equal((await fetch(new URL(`/api/search?${query}`, dashboard.url))).status, 400, `search ${query}`);
    }
    assert.equal((await getJson(dashboard, `/api/sessions/${sessionId}?limit=010`, sessionResponseSchema)).page.limit, 10);
    assert.equal((await getJson(dashboard, '/api/search?limit=16', recordSearchResponseSchema)).schema, 'rec.search/4');
  });
});
