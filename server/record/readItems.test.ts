import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { eventually } from '../test/harness.ts';
import { createReaderThreads } from './readerThreads.ts';
import { READ_ASIDE_BYTES, readItems } from './readItems.ts';
import type { ReaderThreads } from './readerThreads.ts';
import { createFileReadLane } from '../watch/readAhead.ts';
import { createRecordReader } from './recordReader.ts';

// A page's files, read while its client may go away: a large one on a reader thread, the small
// ones a step at a time on the event loop, and half of many small ones on a thread that is free.

const dir = mkdtempSync(join(tmpdir(), 'rec-read-items-'));
const session = join(dir, 'session');
mkdirSync(session);
/** A session of more small files than a page shares with a thread, some of them not entries as written. */
const many = join(dir, 'many');
mkdirSync(many);
const MANY = 40;
const DAMAGED = nameAt(25, 25);
const INVALID = nameAt(30, 30);
const CHANGED = nameAt(35, 35);
const reader = createRecordReader({ recordDir: dir, reconcileIntervalMs: 60_000 });
const threads = createReaderThreads();

before(async () => {
  const entry = (seq: number, text: string) => JSON.stringify({ ...sentEntry(seq, text), sessionId: 'session', cwd: '/tmp' });
  writeFileSync(join(session, nameAt(0, 0)), JSON.stringify({ ...startEntry(0), sessionId: 'session', cwd: '/tmp' }));
  writeFileSync(join(session, nameAt(1, 1)), entry(1, 'x'.repeat(READ_ASIDE_BYTES * 3)));
  for (let seq = 2; seq < 10; seq++) writeFileSync(join(session, nameAt(seq, seq)), entry(seq, `small ${seq}`));
  writeFileSync(join(many, nameAt(0, 0)), JSON.stringify({ ...startEntry(0), sessionId: 'many', cwd: '/tmp' }));
  for (let seq = 1; seq < MANY; seq++) writeFileSync(join(many, nameAt(seq, seq)), JSON.stringify({ ...sentEntry(seq, `to a peer ${seq} — ünïcödé`), sessionId: 'many', cwd: '/tmp' }));
  // Cut short long ago (damaged, not pending), and an entry of a known kind without its fields.
  writeFileSync(join(many, DAMAGED), JSON.stringify({ ...sentEntry(25, 'cut'), sessionId: 'many' }).slice(0, 40));
  utimesSync(join(many, DAMAGED), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
  writeFileSync(join(many, INVALID), JSON.stringify({ kind: 'message', sessionId: 'many', at: '2026-11-20T09:00:30.000Z' }));
  await reader.start();
  await eventually(() => (reader.status().indexing.state === 'ready' ? true : undefined), 'the first scan');
});

after(async () => {
  await threads.close();
  await reader.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a page's files", () => {
  it('whose client goes away while a large one is read on a thread: the read stops, and its failure is not left an unhandled rejection that ends the process', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const abort = new AbortController();
      // The client goes away at the step after the large file was sent to its thread.
      let steps = 0;
      const step = async () => {
        if (++steps === 2) abort.abort(new Error('the client went away'));
      };
      await assert.rejects(readItems(reader, threads, 'session', reader.fold('session')!.items, 1024, abort.signal, step), /the client went away/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('of many small ones, half are read on a reader thread that is free, and each is concluded as the loop concludes it', async () => {
    // A thread started and parked, as after a page before: one that is not is never waited for.
    await threads.files.use(undefined, async () => {});
    let shared = 0;
    const counting: ReaderThreads = {
      ...threads,
      files: {
        ...threads.files,
        useIdle: (signal, work) => {
          const reading = threads.files.useIdle(signal, work);
          if (reading !== null) shared++;
          return reading;
        },
      },
    };
    // Changed after the first scan read it, in the half a thread reads.
    writeFileSync(join(many, CHANGED), JSON.stringify({ ...sentEntry(35, 'other words'), sessionId: 'many', cwd: '/tmp' }));
    const items = reader.fold('many')!.items;
    assert.equal(items.length, MANY);
    const reads = await readItems(reader, counting, 'many', items, 1024, new AbortController().signal, async () => {});
    assert.equal(shared, 1, 'the second half went to the thread');
    // Every file but the damaged one, which a page never reads again.
    assert.deepEqual([...reads.keys()].sort(), items.flatMap((item) => (item.type === 'file' && item.file.name !== DAMAGED ? [item.file.name] : [])).sort());
    for (const [name, read] of reads) assert.deepEqual(read, reader.readNow('many', name), name);
    const evidence = (name: string) => reads.get(name)?.state?.evidence;
    assert.deepEqual([evidence(INVALID), evidence(CHANGED), evidence(nameAt(39, 39))], ['invalid', 'changed', 'parsed']);
  });

  it('with no thread free, a page reads all its files on the loop, and starts a thread for the next only when pages come in a row', async () => {
    // Longer than pages in a row are apart: the page before this test's first is not in a row with it.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const lane = createFileReadLane(1);
    let warmed = 0;
    const counting: ReaderThreads = { ...threads, files: { ...lane, warm: () => void (warmed++, lane.warm()) } };
    try {
      const items = reader.fold('many')!.items;
      const first = await readItems(reader, counting, 'many', items, 1024, new AbortController().signal, async () => {});
      assert.equal(first.size, MANY - 1, 'every file but the damaged one, read on the loop');
      assert.equal(warmed, 0, 'a page alone starts no thread');
      await readItems(reader, counting, 'many', items, 1024, new AbortController().signal, async () => {});
      assert.equal(warmed, 1, 'the second page in a row starts one for the next');
    } finally {
      await lane.close();
    }
  });
});
