import assert from 'node:assert/strict';
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';
import { startWriter } from '../../tools/writer/writerClient.ts';
import type { ScanPool, ScannedFolder } from '../record/scanPool.ts';
import { createFolderWatch, type FolderWatch } from '../record/folderWatch.ts';
import type { FolderEntry } from '../watch/listFolder.ts';
import { beginRecordScan, startScanThreads } from '../record/scanStart.ts';
import { createEarlyItems } from '../record/earlyItems.ts';
import { connectEventStream } from './eventStream.ts';
import { eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';

// A write into a session folder the first scan has not read yet is asked of a scan thread, which
// reads the folder whole; a scan thread yields the CPU to everything else, and at 1M it answered
// a write's ask 50–70 ms late. The write's item is told at once from a look on the main thread;
// its session, when the thread hands the folder over, so its summary is the whole folder's.

/**
 * Few enough that the record is written quickly; the first test assumes the scan threads are still
 * reading when its write is asked (its failure says whether they had ended). At 300 folders, a
 * thread's look of the folder taken while the write was under way, handed over after the write
 * was told parsed, once told it pending and then parsed again: the last test here makes that race
 * every time, and holds its fix.
 */
const FOLDERS = 120;
const ENTRIES = 20;
const NO_RECONCILE = 600_000;

/**
 * The scan threads' pool, its hand-over held back until `release`: the threads read as they do,
 * but nothing they read reaches the reader, as when a busy machine leaves them no CPU.
 */
function holdHandOver(pool: ScanPool): { pool: ScanPool; release(): void } {
  let held = true;
  const heldPool: ScanPool = {
    take: (): ScannedFolder | undefined => (held ? undefined : pool.take()),
    get wake() {
      return pool.wake;
    },
    set wake(wake) {
      pool.wake = wake;
    },
    get finished() {
      return !held && pool.finished;
    },
    get started() {
      return pool.started;
    },
    inLine: (sessionId) => pool.inLine(sessionId),
    grow: (threads) => pool.grow(threads),
    done: pool.done,
    askSoon: (sessionId) => pool.askSoon(sessionId),
    asksWaiting: (sessionId) => pool.asksWaiting(sessionId),
    // A thread that ended with an ask unanswered leaves the folder to the reader, which reads it
    // whole at once: held too, or a test whose threads ended early saw the session listed.
    takeUnanswered: () => (held ? [] : pool.takeUnanswered()),
    terminate: () => pool.terminate(),
  };
  return {
    pool: heldPool,
    release() {
      held = false;
      pool.wake?.();
    },
  };
}

/** A dashboard over the record, its first scan the one begun, held; a writer; its event stream. `close` ends them all. */
async function startOver(record: { dir: string; remove(): void }, folders: FolderWatch, hold: { pool: ScanPool; release(): void }) {
  const writer = await startWriter(record.dir);
  const dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: NO_RECONCILE, headStart: { folders, pool: hold.pool } });
  const events = await connectEventStream(dashboard.url);
  return {
    writer,
    dashboard,
    events,
    async close() {
      hold.release();
      events.close();
      await writer.kill();
      await dashboard.close();
      record.remove();
    },
  };
}

/** A record of FOLDERS sessions of ENTRIES entries each, a start first. */
function writeRecord(): { dir: string; remove(): void } {
  const record = makeTempRecord();
  for (let i = 0; i < FOLDERS; i++) {
    const sessionId = `s${String(i).padStart(3, '0')}`;
    mkdirSync(join(record.dir, sessionId));
    writeFileSync(join(record.dir, sessionId, nameAt(0, 1)), JSON.stringify({ ...startEntry(0), sessionId }));
    for (let seq = 2; seq <= ENTRIES; seq++) writeFileSync(join(record.dir, sessionId, nameAt(seq, seq)), JSON.stringify({ ...sentEntry(seq, `entry ${seq}`), sessionId }));
  }
  return record;
}

describe('an item told early, from a look on the main thread', () => {
  it('is told once for each thing its file becomes: a write that stirs its file again and again is told as being written once and as its entry once', { timeout: 30_000 }, async () => {
    const record = makeTempRecord();
    const writer = await startWriter(record.dir);
    try {
      const sessionId = 's001';
      mkdirSync(join(record.dir, sessionId));
      const early = createEarlyItems('record-test', record.dir);
      const name = nameAt(59, 2);
      const writing = writer.send({ op: 'write', sessionId, seq: 2, entry: { ...sentEntry(59, 'written slowly'), sessionId }, chunkBytes: 48, chunkDelayMs: 300 });
      writing.catch(() => {}); // awaited below; a failure before then ends the writer under it
      await eventually(() => (early.look(sessionId, name)?.evidence === 'pending' ? true : undefined), 'the write under way, told as being written');
      // Stirred again while still being written (each piece written is a change): nothing new to tell.
      assert.equal(early.look(sessionId, name), null);
      await writing;
      const entry = early.look(sessionId, name);
      assert.equal(entry?.evidence, 'parsed');
      assert.equal(entry?.firstLine, 'written slowly');
      // The add and the change chokidar tells of one write, each looked at once it is whole.
      assert.equal(early.look(sessionId, name), null);
      assert.equal(early.look(sessionId, name), null);
      // The index, given the folder, tells the same item: not told again; nor is a look after it.
      assert.equal(early.toldAlready(sessionId, entry!), true);
      assert.equal(early.look(sessionId, name), null);
      // What the index tells that differs is told, and a look after it tells only what is new.
      assert.equal(early.toldAlready(sessionId, { ...entry!, degraded: true }), false);
      assert.deepEqual(early.look(sessionId, name), entry);
    } finally {
      await writer.kill();
      record.remove();
    }
  });
});

describe('a write while the first scan has not read its folder', () => {
  it('is listed at once, its session told whole once the scan hands the folder over, and its item never told twice', { timeout: 60_000 }, async () => {
    const record = writeRecord();
    const headStart = beginRecordScan(record.dir, (message) => assert.fail(message));
    assert.ok(headStart?.pool, 'scan threads began');
    const hold = holdHandOver(headStart.pool);
    const { writer, dashboard, events, close } = await startOver(record, headStart.folders, hold);
    try {
      await events.next(({ event }) => event.type === 'hello', undefined, 'the hello');
      const sessionId = 's042';
      const name = nameAt(59, ENTRIES + 1);
      await writer.send({ op: 'write', sessionId, seq: ENTRIES + 1, entry: { ...sentEntry(59, 'written while the scan is held'), sessionId } });
      const told = await events.next(({ event }) => event.type === 'items' && event.sessionId === sessionId && event.items.some((item) => item.key === name && item.evidence === 'parsed'), 20_000, 'the write made while the scan is held, as its entry');
      assert.equal(told.event.type === 'items' && told.event.items.find((item) => item.key === name)?.firstLine, 'written while the scan is held');
      assert.equal(dashboard.sources[0]!.status().indexing.state, 'scanning');
      // The one file read is not the session: the list has none of it until the folder is read whole.
      const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
      assert.ok(!list.projects.flatMap((project) => project.sessions).some((session) => session.sessionId === sessionId), `the session is not listed from one file (the scan threads ${headStart.pool.finished ? 'had ended' : 'were still reading'})`);
      assert.ok(!events.notices.some(({ event }) => event.type === 'session-changed' && event.session.id === sessionId), 'no summary of one file is told');

      const from = events.notices.length;
      hold.release();
      await events.next(({ event }) => event.type === 'session-changed' && event.session.id === sessionId && event.session.counts.sent === ENTRIES, 20_000, 'the session whole, once the scan hands its folder over');
      // Every summary told is the whole folder. The scan may have read the newest file while it
      // was being written (a busy machine), and its summary then counts it pending.
      const summaries = events.notices.slice(from).flatMap(({ event }) => (event.type === 'session-changed' && event.session.id === sessionId ? [event.session.counts] : []));
      for (const counts of summaries) assert.equal(counts.sent + counts.pending, ENTRIES, `the session told is the whole folder: ${JSON.stringify(counts)}`);
      await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan', 30_000);
      await writer.send({ op: 'write', sessionId, seq: ENTRIES + 2, entry: { ...sentEntry(59, 'after the scan'), sessionId } });
      await events.next(({ event }) => event.type === 'items' && event.items.some((item) => item.key === nameAt(59, ENTRIES + 2)), undefined, 'the write after the scan');
      // Told while being written and then as its entry is one row that turns into its entry.
      const toldOfIt = events.notices.flatMap(({ event }) => (event.type === 'items' && event.sessionId === sessionId ? event.items.filter((item) => item.key === name) : []));
      assert.deepEqual(toldOfIt.filter((item) => item.evidence !== 'pending').map((item) => item.evidence), ['parsed'], `the write is one row of the live view: ${JSON.stringify(toldOfIt)}`);
    } finally {
      await close();
    }
  });
});

/**
 * Scan threads begun only when `start` is called, on the record's listing with the folders named
 * in `first` first: the dashboard is up by then, so that a write is asked of a thread still reading
 * its line. The hand-over is held back: `handOver(1)` lets one more folder through, `release` all.
 */
function lateHeldThreads(recordDir: string, listing: FolderEntry[], first: string[]) {
  let pool: ScanPool | null = null;
  let threads = 1;
  let allowed = 0;
  const late: ScanPool = {
    take() {
      if (allowed === 0) return undefined;
      const folder = pool?.take();
      if (folder !== undefined) allowed--;
      return folder;
    },
    wake: null,
    get finished() {
      return allowed === Infinity && pool !== null && pool.finished;
    },
    get started() {
      return pool?.started ?? 0;
    },
    inLine: (sessionId) => listing.some((dirent) => dirent.name === sessionId),
    grow(count) {
      threads = count;
      pool?.grow(count);
    },
    get done() {
      return pool!.done;
    },
    askSoon: (sessionId) => pool?.askSoon(sessionId),
    asksWaiting: (sessionId) => pool?.asksWaiting(sessionId) ?? 0,
    takeUnanswered: () => pool?.takeUnanswered() ?? [],
    terminate: async () => pool?.terminate(),
  };
  const handOver = (folders: number) => {
    allowed += folders;
    late.wake?.();
  };
  return {
    pool: late,
    start() {
      const ordered = [...listing.filter((dirent) => first.includes(dirent.name)), ...listing.filter((dirent) => !first.includes(dirent.name))];
      pool = startScanThreads(recordDir, ordered, (message) => assert.fail(message), threads);
      assert.ok(pool, 'scan threads began');
      pool.wake = () => late.wake?.();
    },
    handOver,
    release: () => handOver(Infinity),
  };
}

describe('two writes in a folder the first scan has not read, each asked of a scan thread', () => {
  it('the session is told with both, though the look taken after the first write is concluded while the second one’s look is still to come', { timeout: 60_000 }, async () => {
    const record = writeRecord();
    const sessionId = 's042';
    // Folders that take a scan thread a while: one that keeps it reading its line, and the asked
    // one, so that its second look is still being read when its first is concluded. One entry's
    // file, linked under many names (a link is made far faster than a file is written).
    const linkMany = (folder: string, from: string, count: number) => {
      for (let seq = 1_000; seq < 1_000 + count; seq++) linkSync(join(folder, from), join(folder, nameAt(seq % 60, seq)));
    };
    for (const name of ['large', 'larger']) {
      mkdirSync(join(record.dir, name));
      writeFileSync(join(record.dir, name, nameAt(0, 1)), JSON.stringify({ ...startEntry(0), sessionId: name }));
      linkMany(join(record.dir, name), nameAt(0, 1), 50_000);
    }
    linkMany(join(record.dir, sessionId), nameAt(2, 2), 5_000);
    const folders = createFolderWatch(record.dir);
    const threads = lateHeldThreads(record.dir, folders.begin() ?? [], ['large', 'larger']);
    const { writer, dashboard, events, close } = await startOver(record, folders, threads);
    try {
      await events.next(({ event }) => event.type === 'hello', undefined, 'the hello');
      threads.start();
      const write = async (seq: number, text: string) => {
        await writer.send({ op: 'write', sessionId, seq, entry: { ...sentEntry(59, text), sessionId } });
        await events.next(({ event }) => event.type === 'items' && event.sessionId === sessionId && event.items.some((item) => item.key === nameAt(59, seq) && item.evidence === 'parsed'), 20_000, `the write ${text}, as its entry`);
      };
      await write(ENTRIES + 1, 'the first write');
      // Time for the thread to read the folder after the first write.
      await new Promise((resolve) => setTimeout(resolve, 400));
      await write(ENTRIES + 2, 'the second write');
      // The first look concluded at once, the second still being read; then the rest.
      const from = events.notices.length;
      threads.handOver(1);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      threads.release();
      await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan', 30_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
      const listed = list.projects.flatMap((project) => project.sessions).find((session) => session.sessionId === sessionId);
      assert.ok(listed, 'the session is listed');
      const told = events.notices.slice(from).flatMap(({ event }) => (event.type === 'session-changed' && event.session.id === sessionId ? [event.session.counts] : []));
      assert.ok(told.length > 0, 'the session is told');
      assert.deepEqual(told.at(-1), listed.counts, 'the last summary told is the session as the list has it, with both writes');
      assert.equal(told.at(-1)!.sent, listed.counts.sent);
    } finally {
      await close();
    }
  });
});

describe('a write under way when a scan thread looks at its folder', () => {
  it('once told as its entry is never told again as being written: the thread’s older look of it is not told over the newer one', { timeout: 60_000 }, async () => {
    const record = writeRecord();
    const sessionId = 's042';
    const name = nameAt(59, ENTRIES + 1);
    const folders = createFolderWatch(record.dir);
    const threads = lateHeldThreads(record.dir, folders.begin() ?? [], [sessionId]);
    const { writer, dashboard, events, close } = await startOver(record, folders, threads);
    try {
      await events.next(({ event }) => event.type === 'hello', undefined, 'the hello');
      const toldOfIt = () => events.notices.flatMap(({ event }) => (event.type === 'items' && event.sessionId === sessionId ? event.items.filter((item) => item.key === name) : []));
      // Written in small pieces for about two seconds: a thread begun now looks at the folder while it is under way.
      const writing = writer.send({ op: 'write', sessionId, seq: ENTRIES + 1, entry: { ...sentEntry(59, 'written slowly'), sessionId }, chunkBytes: 48, chunkDelayMs: 350 });
      await events.next(({ event }) => event.type === 'items' && event.sessionId === sessionId && event.items.some((item) => item.key === name && item.evidence === 'pending'), 20_000, 'the write under way, told as being written');
      threads.start();
      await writing;
      await events.next(({ event }) => event.type === 'items' && event.sessionId === sessionId && event.items.some((item) => item.key === name && item.evidence === 'parsed'), 20_000, 'the write done, told as its entry');
      const toldBefore = toldOfIt().length;
      // The thread's look taken while the write was under way is handed over first, alone; then the rest.
      threads.handOver(1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      threads.release();
      await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan', 30_000);
      await events.next(({ event }) => event.type === 'session-changed' && event.session.id === sessionId && event.session.counts.sent === ENTRIES, 20_000, 'the session whole');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(
        toldOfIt()
          .slice(toldBefore)
          .map((item) => item.evidence),
        [],
        `nothing more is told of the write once it was told as its entry: ${JSON.stringify(toldOfIt().map((item) => item.evidence))}`,
      );
    } finally {
      await close();
    }
  });
});
