import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sessionResponseSchema } from '../../shared/wire/record.ts';
import { nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { entryFileName } from '../demo/entryFile.ts';
import { eventually, makeTempRecord, startTestDashboard } from './harness.ts';

// The reconcile is the safety net for events the watcher lost. It is spaced by what it costs
// the reader, not by how long it took while other work (a burst of searches) held the event
// loop between its slices: that put the next one off for minutes.

const FOLDERS = 2_000; // enough folders that one reconcile reads in more than one slice
const BURST = 12_000; // two events a file: beyond the kernel's queue
const MIN_RECONCILE_MS = 300;

/** Holds the event loop in turns of `chains` × `turnMs` until `forMs` has passed. */
async function holdEventLoop(forMs: number, chains: number, turnMs: number): Promise<void> {
  const until = performance.now() + forMs;
  await Promise.all(
    Array.from({ length: chains }, async () => {
      while (performance.now() < until) {
        const end = performance.now() + turnMs;
        while (performance.now() < end) {
          // Busy, as a synchronous search over many files is.
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
}

describe('the periodic reconcile', () => {
  it('after other work held the event loop through reconciles, a folder the watcher missed is still shown within seconds', { timeout: 120_000 }, async () => {
    const queue = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'));
    assert.ok(BURST * 2 > queue, `a burst of ${BURST} files must exceed the kernel queue of ${queue} events`);
    const record = makeTempRecord();
    for (let i = 0; i < FOLDERS; i++) {
      const sessionId = `s${String(i).padStart(4, '0')}`;
      mkdirSync(join(record.dir, sessionId));
      writeFileSync(join(record.dir, sessionId, nameAt(0, 1)), JSON.stringify({ ...startEntry(0), sessionId }));
      writeFileSync(join(record.dir, sessionId, nameAt(1, 2)), JSON.stringify({ ...sentEntry(1, 'hello'), sessionId }));
    }
    mkdirSync(join(record.dir, 'noise'));
    writeFileSync(join(record.dir, 'noise', nameAt(0, 1)), JSON.stringify({ ...startEntry(0), sessionId: 'noise' }));
    const dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: MIN_RECONCILE_MS });
    try {
      await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan', 60_000);
      // The burst below must meet a watcher that is set up, or it would not fill the queue.
      writeFileSync(join(record.dir, 'noise', nameAt(1, 2)), JSON.stringify({ ...sentEntry(1, 'probe'), sessionId: 'noise' }));
      await eventually(async () => {
        const response = await fetch(new URL('/api/sessions/noise?limit=1', dashboard.url));
        return response.ok && sessionResponseSchema.parse(await response.json()).page.total === 2 ? true : undefined;
      }, 'the watcher', 60_000);
      // Reconciles fall in this window (they come every few seconds at most); each waits about
      // a second between its slices.
      await holdEventLoop(8_000, 20, 50);
      // The dashboard runs in this process: while this loop writes, it reads no events. The
      // burst fills the kernel's queue, so that nothing is told of the folder made after it:
      // neither the watcher nor chokidar's own listing of a stirred folder will find it.
      const at = Date.parse('2026-11-20T09:01:00.000Z');
      for (let seq = 3; seq <= BURST + 2; seq++) {
        const entry = { kind: 'message', sessionId: 'noise', at: new Date(at + seq).toISOString(), side: 'sent', peer: { as: 'api-service' }, text: `burst ${seq}`, isQueued: true, cwd: '/home/dev/projects/noise' };
        writeFileSync(join(record.dir, 'noise', entryFileName(entry.at, seq)), JSON.stringify(entry));
      }
      mkdirSync(join(record.dir, 'missed'));
      writeFileSync(join(record.dir, 'missed', nameAt(2, 1)), JSON.stringify({ ...startEntry(2), sessionId: 'missed' }));
      // Spaced by its own cost, a reconcile of this record comes within a few seconds; spaced
      // by 50× the wall time the held loop gave it, not for a minute or more.
      const page = await eventually(async () => {
        const response = await fetch(new URL('/api/sessions/missed?limit=1', dashboard.url));
        return response.ok ? sessionResponseSchema.parse(await response.json()) : undefined;
      }, 'the folder the watcher missed', 30_000);
      assert.equal(page.page.total, 1);
      assert.equal(page.session.hasStart, true);
    } finally {
      await dashboard.close();
      record.remove();
    }
  });
});
