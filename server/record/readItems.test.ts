import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { eventually } from '../test/harness.ts';
import { createReaderThreads } from './readerThreads.ts';
import { READ_ASIDE_BYTES, readItems } from './readItems.ts';
import { createRecordReader } from './recordReader.ts';

// A page's files, read while its client may go away: a large one on a reader thread, the small
// ones a step at a time on the event loop.

const dir = mkdtempSync(join(tmpdir(), 'rec-read-items-'));
const session = join(dir, 'session');
mkdirSync(session);
const reader = createRecordReader({ recordDir: dir, reconcileIntervalMs: 60_000 });
const threads = createReaderThreads();

before(async () => {
  const entry = (seq: number, text: string) => JSON.stringify({ ...sentEntry(seq, text), sessionId: 'session', cwd: '/tmp' });
  writeFileSync(join(session, nameAt(0, 0)), JSON.stringify({ ...startEntry(0), sessionId: 'session', cwd: '/tmp' }));
  writeFileSync(join(session, nameAt(1, 1)), entry(1, 'x'.repeat(READ_ASIDE_BYTES * 3)));
  for (let seq = 2; seq < 10; seq++) writeFileSync(join(session, nameAt(seq, seq)), entry(seq, `small ${seq}`));
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
});
