import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { readEntry } from '../../shared/record/entry.ts';
import { concludeObservation } from '../../shared/record/observation.ts';
import { makeTempRecord } from '../test/harness.ts';
import { readThreadNiceness } from '../test/processes.ts';
import { lookAtFile } from './lookAtFile.ts';
import { fingerprintEntry } from './entryFingerprint.ts';
import { startScanPool, type ScannedFolder, type ScanPool } from './scanPool.ts';

// Scan threads share one line of folders: each folder is read by one of them, once, in its turn;
// one asked for (something stirred in it) is read next by the thread that has it, and its look
// comes after any look that thread took before.

const FOLDERS = 300;
const ENTRIES = 20;

function writeRecord(dir: string): string[] {
  const sessionIds: string[] = [];
  for (let i = 0; i < FOLDERS; i++) {
    const sessionId = `s${String(i).padStart(3, '0')}`;
    sessionIds.push(sessionId);
    mkdirSync(join(dir, sessionId));
    writeFileSync(join(dir, sessionId, nameAt(0, 1)), JSON.stringify({ ...startEntry(0), sessionId }));
    for (let seq = 2; seq <= ENTRIES; seq++) writeFileSync(join(dir, sessionId, nameAt(seq, seq)), JSON.stringify({ ...sentEntry(seq, `entry ${seq}`), sessionId }));
  }
  return sessionIds;
}

/** A session folder of `entries` entries. */
function writeFolder(dir: string, sessionId: string, entries: number): void {
  mkdirSync(join(dir, sessionId));
  writeFileSync(join(dir, sessionId, nameAt(0, 1)), JSON.stringify({ ...startEntry(0), sessionId }));
  for (let seq = 2; seq <= entries; seq++) writeFileSync(join(dir, sessionId, nameAt(seq, seq)), JSON.stringify({ ...sentEntry(seq, `entry ${seq}`), sessionId }));
}

/**
 * The looks of one thread reading these folders in line, in the order they arrive here (each
 * message as it comes), as `session:soon` or `session:in line`; `onArrive` is told of each.
 */
function arrivals(recordDir: string, sessionIds: string[], onArrive: (pool: ScanPool, look: string) => void): Promise<string[]> {
  const pool = startScanPool({ recordDir, sessionIds, threads: 1 }, (message) => assert.fail(message));
  const order: string[] = [];
  return new Promise((resolve) => {
    pool.wake = () => {
      for (let folder = pool.take(); folder !== undefined; folder = pool.take()) {
        const look = `${folder.sessionId}:${folder.soon ? 'soon' : 'in line'}`;
        order.push(look);
        onArrive(pool, look);
      }
      if (pool.finished) resolve(order);
    };
  });
}

/** The folders a thread hands over together hold this many files: a folder of as many goes alone. */
const HANDED_OVER_TOGETHER = 1_000;

/** Every folder the pool hands over, until its last thread ends. */
async function takeAll(pool: ScanPool): Promise<ScannedFolder[]> {
  const taken: ScannedFolder[] = [];
  for (;;) {
    for (let folder = pool.take(); folder !== undefined; folder = pool.take()) taken.push(folder);
    if (pool.finished) return taken;
    await new Promise<void>((resolve) => (pool.wake = resolve));
  }
}

describe('scan threads sharing the first scan', () => {
  it('each scan thread is a system thread named rec-scan, so its CPU is told apart from the main thread\'s', async () => {
    const record = makeTempRecord();
    try {
      const sessionIds = writeRecord(record.dir);
      const pool = startScanPool({ recordDir: record.dir, sessionIds, threads: 2 }, (message) => assert.fail(message));
      const named = () => readdirSync('/proc/self/task').filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'rec-scan').length;
      let most = named();
      // Each thread names itself as it starts: looked at whenever the pool hands something over.
      while (most < 2 && !pool.finished) {
        for (let folder = pool.take(); folder !== undefined; folder = pool.take());
        await new Promise<void>((resolve) => (pool.wake = resolve));
        most = Math.max(most, named());
      }
      await takeAll(pool);
      assert.equal(most, 2, 'both scan threads seen by their name');
    } finally {
      record.remove();
    }
  });

  it("the first scan thread starts at the main thread's priority and lowers its own once loaded; the second is in the background from its first instruction", async () => {
    const record = makeTempRecord();
    try {
      const sessionIds = writeRecord(record.dir);
      const niceness = readThreadNiceness;
      const main = niceness(readlinkSync('/proc/thread-self').split('/').at(-1)!);
      const before = new Set(readdirSync('/proc/self/task'));
      const pool = startScanPool({ recordDir: record.dir, sessionIds, threads: 2 }, (message) => assert.fail(message));
      // Read as the pool is made, before either thread has loaded a module: each is the one task a Worker added.
      const started = readdirSync('/proc/self/task').filter((threadId) => !before.has(threadId));
      const [first, second] = started.map(niceness);
      assert.equal(started.length, 2, 'the pool started two threads');
      assert.equal(first, main, "the first thread started at the main thread's priority");
      assert.ok(second! > main!, `the second thread started in the background (${second}, the main thread ${main})`);
      let lowered = false;
      while (!lowered && !pool.finished) {
        for (let folder = pool.take(); folder !== undefined; folder = pool.take());
        lowered = niceness(started[0]!)! > main!;
        if (!lowered) await new Promise<void>((resolve) => (pool.wake = resolve));
      }
      await takeAll(pool);
      assert.equal(lowered, true, 'the first thread lowered its own priority once it had loaded, before its first folder was handed over');
    } finally {
      record.remove();
    }
  });

  it('every folder in line is read by one thread, once, with every file of it', async () => {
    const record = makeTempRecord();
    try {
      const sessionIds = writeRecord(record.dir);
      const pool = startScanPool({ recordDir: record.dir, sessionIds, threads: 3 }, (message) => assert.fail(message));
      const folders = await takeAll(pool);
      assert.deepEqual(await pool.done, [], 'no folder left unread');
      assert.deepEqual(folders.map((folder) => folder.sessionId).sort(), sessionIds);
      for (const folder of folders) {
        assert.equal(folder.files, ENTRIES, folder.sessionId);
        const first = folder.looks.look(folder.first);
        assert.equal(first.seen?.type === 'entry' && first.seen.facts.sessionId, folder.sessionId);
      }
    } finally {
      record.remove();
    }
  });

  it('a folder asked for again before the look its last ask asked for has begun is read once for them all: that look begins after every ask', async () => {
    const record = makeTempRecord();
    try {
      const sessionIds = writeRecord(record.dir);
      const pool = startScanPool({ recordDir: record.dir, sessionIds, threads: 2 }, (message) => assert.fail(message));
      // Asked together, as a write stirs its folder twice (the file made, then written), before
      // any thread could begin a look: each folder's one asked look begins after all its asks.
      const asked = [sessionIds.at(-1)!, sessionIds.at(-2)!];
      for (let ask = 0; ask < 3; ask++) for (const sessionId of asked) pool.askSoon(sessionId);
      const folders = await takeAll(pool);
      for (const sessionId of asked) {
        assert.deepEqual(
          folders.filter((folder) => folder.sessionId === sessionId).map((folder) => folder.soon),
          [true],
          sessionId,
        );
      }
    } finally {
      record.remove();
    }
  });

  it('a folder asked of a scan thread that fails is told to the caller to read at once, not when the other threads end; asked again, at once again', async () => {
    const record = makeTempRecord();
    try {
      const sessionIds = writeRecord(record.dir);
      // The line outlasts the failing thread's start: the other reads on for a while after it.
      writeFolder(record.dir, 'large', 2_000);
      const errors: string[] = [];
      const script = new URL('../test/failingScanWorker.ts', import.meta.url);
      const pool = startScanPool({ recordDir: record.dir, sessionIds: [...sessionIds, 'large'], threads: 2, script }, (message) => errors.push(message));
      // Asked before either thread began: the asks take turns, so some go to the one that fails.
      const asked = sessionIds.slice(-6);
      for (const sessionId of asked) pool.askSoon(sessionId);
      const answered = new Set<string>();
      const lostBeforeTheEnd = new Set<string>();
      let askedAgain: string[] | null = null;
      for (;;) {
        for (let folder = pool.take(); folder !== undefined; folder = pool.take()) if (folder.soon) answered.add(folder.sessionId);
        const lost = pool.takeUnanswered();
        if (!pool.finished) for (const sessionId of lost) lostBeforeTheEnd.add(sessionId);
        if (lost.length > 0 && askedAgain === null) {
          // Its thread has ended: an ask for it again is the caller's at once, not posted to no one.
          for (const sessionId of lost) pool.askSoon(sessionId);
          askedAgain = pool.takeUnanswered();
          assert.deepEqual(askedAgain.sort(), [...lost].sort());
          for (const sessionId of lost) assert.equal(pool.asksWaiting(sessionId), 0, `${sessionId}: no look of it is waited for`);
        }
        if (pool.finished) break;
        await new Promise<void>((resolve) => (pool.wake = resolve));
      }
      assert.match(errors.join('\n'), /^scan thread: a scan thread failing as it starts/);
      assert.ok(lostBeforeTheEnd.size > 0, 'the failed thread had asks');
      assert.deepEqual([...answered, ...lostBeforeTheEnd].sort(), [...asked].sort(), 'each ask answered by a look, or told lost before the scan ended');
    } finally {
      record.remove();
    }
  });

  it('a folder asked for is read out of turn by the thread that has it: its asked look is its last, and a new folder is read too', async () => {
    const record = makeTempRecord();
    try {
      const sessionIds = writeRecord(record.dir);
      const pool = startScanPool({ recordDir: record.dir, sessionIds, threads: 2 }, (message) => assert.fail(message));
      // Asked at once and again, some surely before their turn and some perhaps after it.
      const asked = sessionIds.filter((_, at) => at % 7 === 3);
      mkdirSync(join(record.dir, 'fresh'));
      writeFileSync(join(record.dir, 'fresh', nameAt(0, 1)), JSON.stringify({ ...startEntry(0), sessionId: 'fresh' }));
      for (const sessionId of [...asked, 'fresh', ...asked.slice(0, 5), 'fresh']) pool.askSoon(sessionId);
      const folders = await takeAll(pool);
      assert.deepEqual(await pool.done, []);
      for (const sessionId of [...asked, 'fresh']) {
        const looks = folders.filter((folder) => folder.sessionId === sessionId);
        assert.ok(looks.length >= 1, `${sessionId} was read`);
        assert.equal(looks.at(-1)!.soon, true, `${sessionId}: the asked look comes last`);
        assert.ok(looks.filter((look) => !look.soon).length <= 1, `${sessionId}: read in its turn at most once`);
      }
      for (const sessionId of sessionIds.filter((id) => !asked.includes(id))) {
        assert.deepEqual(
          folders.filter((folder) => folder.sessionId === sessionId).map((folder) => folder.soon),
          [false],
          sessionId,
        );
      }
    } finally {
      record.remove();
    }
  });

  it('a folder asked for while a thread reads a large folder in line is handed over before that folder ends', async () => {
    const record = makeTempRecord();
    try {
      writeFolder(record.dir, 'first', HANDED_OVER_TOGETHER);
      writeFolder(record.dir, 'large', 5_000);
      writeFolder(record.dir, 'asked', 20);
      writeFolder(record.dir, 'probe', 1);
      // A folder out of line asked for once the first one is handed over: its look comes once the
      // thread has gone on (before the large folder or within it). Then another is asked for.
      const order = await arrivals(record.dir, ['first', 'large', 'asked'], (pool, look) => {
        if (look === 'first:in line') pool.askSoon('probe');
        if (look === 'probe:soon') pool.askSoon('asked');
      });
      assert.deepEqual(
        order.filter((look) => look !== 'probe:soon'),
        ['first:in line', 'asked:soon', 'large:in line'],
      );
    } finally {
      record.remove();
    }
  });

  it('a folder asked for while its thread reads it in line, or holds its look in line, is looked at again after that look', async () => {
    const record = makeTempRecord();
    try {
      writeFolder(record.dir, 'first', HANDED_OVER_TOGETHER);
      writeFolder(record.dir, 'small', 300);
      writeFolder(record.dir, 'large', 5_000);
      writeFolder(record.dir, 'probe', 1);
      writeFolder(record.dir, 'probe again', 1);
      // Folders out of line asked for one after the other once the first one is handed over: the
      // second one's look comes once the thread has gone on, into the small folder or the large
      // one (holding the small one's look, not handed over yet). Then both are asked for.
      const order = await arrivals(record.dir, ['first', 'small', 'large'], (pool, look) => {
        if (look === 'first:in line') pool.askSoon('probe');
        if (look === 'probe:soon') pool.askSoon('probe again');
        if (look !== 'probe again:soon') return;
        pool.askSoon('small');
        pool.askSoon('large');
      });
      for (const sessionId of ['small', 'large']) {
        const looks = order.filter((look) => look.startsWith(`${sessionId}:`));
        // Read in line before it was asked for, or asked for before its turn.
        const inLine = looks.length === 2 ? [`${sessionId}:in line`] : [];
        assert.deepEqual(looks, [...inLine, `${sessionId}:soon`], sessionId);
      }
    } finally {
      record.remove();
    }
  });

  it("a file's fingerprint from a scan thread is the one this thread takes of its bytes; rewritten with the same length and a different text after it parsed, it is told as changed", async () => {
    const record = makeTempRecord();
    try {
      const sessionIds = writeRecord(record.dir);
      const pool = startScanPool({ recordDir: record.dir, sessionIds, threads: 2 }, (message) => assert.fail(message));
      const folders = await takeAll(pool);
      const folder = folders.find((candidate) => candidate.sessionId === sessionIds[0])!;
      const file = folder.looks.look(folder.first + 1);
      assert.equal(file.seen?.type, 'entry');
      const path = join(record.dir, folder.sessionId, file.name);
      const bytes = readFileSync(path);
      assert.equal(file.seen.type === 'entry' && file.seen.fingerprint, fingerprintEntry(bytes), 'one fingerprint on either thread');
      const parsed = concludeObservation(null, { name: file.name, entryName: file.entryName, mtimeMs: file.mtimeMs! }, file.seen, Date.now());
      assert.equal(parsed?.evidence, 'parsed');

      const rewritten = Buffer.from(bytes.toString().replace('"entry ', '"Entry '));
      assert.equal(rewritten.length, bytes.length);
      assert.notDeepEqual(rewritten, bytes);
      writeFileSync(path, rewritten);
      const again = lookAtFile(path, file.entryName, readEntry);
      assert.equal(again.seen.type, 'entry');
      const changed = concludeObservation(parsed, { name: file.name, entryName: file.entryName, mtimeMs: statSync(path).mtimeMs }, again.seen, Date.now());
      assert.equal(changed?.evidence, 'changed');
      assert.equal(changed.why, 'changed after it was read');
    } finally {
      record.remove();
    }
  });
});
