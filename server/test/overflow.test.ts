import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sessionResponseSchema } from '../../shared/wire/record.ts';
import { startEntry } from '../../shared/test/recordFixtures.ts';
import { entryFileName } from '../demo/entryFile.ts';
import { startWriter } from '../../tools/writer/writerClient.ts';
import { eventually, fingerprintTree, getJson, makeTempRecord, startTestDashboard } from './harness.ts';

const BURST = 20_000;

describe('events lost beyond the kernel queue', () => {
  it('a burst that overflows the watcher is still shown whole, through reconcile', { timeout: 90_000 }, async () => {
    const queue = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'));
    assert.ok(BURST * 2 > queue, `a burst of ${BURST} files must exceed the kernel queue of ${queue} events`);
    const record = makeTempRecord();
    const writer = await startWriter(record.dir);
    const dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: 500 });
    try {
      await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan');
      await writer.send({ op: 'write', sessionId: 'flood', seq: 1, entry: { ...startEntry(0), sessionId: 'flood' } });
      // The folder is watched before the burst; a new folder would be listed whole when it appears.
      await eventually(async () => ((await getJson(dashboard, '/api/sessions/flood', sessionResponseSchema)).page.total === 1 ? true : undefined), 'the folder');
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The dashboard runs in this process, so while this loop writes, it reads no events: the
      // kernel's queue fills and overflows, as it does when a busy reader meets a burst.
      const at = Date.parse('2026-11-20T09:01:00.000Z');
      for (let seq = 2; seq <= BURST + 1; seq++) {
        const entry = { kind: 'message', sessionId: 'flood', at: new Date(at + seq).toISOString(), side: 'sent', peer: { as: 'api-service' }, text: `burst ${seq}`, isQueued: true, cwd: '/home/dev/projects/flood' };
        writeFileSync(join(record.dir, 'flood', entryFileName(entry.at, seq)), JSON.stringify(entry));
      }
      const before = fingerprintTree(record.dir);
      const page = await eventually(async () => {
        const got = await getJson(dashboard, '/api/sessions/flood?limit=1', sessionResponseSchema);
        return got.page.total === BURST + 1 ? got : undefined;
      }, `all ${BURST + 1} entries`, 30_000);
      assert.equal(page.session.counts.sent, BURST);
      assert.deepEqual(page.session.degraded, []);
      assert.deepEqual(fingerprintTree(record.dir), before);
    } finally {
      await writer.kill();
      await dashboard.close();
      record.remove();
    }
  });
});
