import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sessionResponseSchema } from '../../shared/wire/record.ts';
import { nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';
import { startWriter } from '../../tools/writer/writerClient.ts';
import { countScanThreads } from '../record/scanPool.ts';
import { beginRecordScan } from '../record/scanStart.ts';
import { eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';

// The command begins the record's first scan before the rest of it loads: the folders are
// watched and scan threads read them while the HTTP server and the schemas load. Whatever is
// written meanwhile is the reader's once it takes the scan over: read by the threads, or told
// by the watches, which keep what they tell until then.

const FOLDERS = 200;
const ENTRIES = 20;
// Reconciles would find the writes too; put off, only the scan and the watches can.
const NO_RECONCILE = 600_000;

describe('the first scan begun before the reader is made', () => {
  it('reads on every core from its start: as many scan threads as the machine has cores (up to the pool\'s limit), every session folder watched, before the rest of the command loads', async () => {
    const record = makeTempRecord();
    try {
      for (let i = 0; i < FOLDERS; i++) {
        mkdirSync(join(record.dir, `s${i}`));
        writeFileSync(join(record.dir, `s${i}`, nameAt(0, 1)), JSON.stringify({ ...startEntry(0), sessionId: `s${i}` }));
      }
      const headStart = beginRecordScan(record.dir, (message) => assert.fail(message));
      try {
        assert.equal(headStart?.pool?.started, countScanThreads());
        // Watched before any is read, however long the line: a write into a folder the scan has
        // not reached yet is told by its watch at once, not when the scan comes to it (at 1M, 20 s on).
        for (let i = 0; i < FOLDERS; i++) assert.ok(headStart!.folders.isWatched(`s${i}`), `s${i} is watched when the head start returns`);
      } finally {
        await headStart?.pool?.terminate();
        await headStart?.folders.close();
      }
    } finally {
      record.remove();
    }
  });

  it('writes made after the scan began and before the reader took it over, into folders already read and into new ones, are all the reader\'s', { timeout: 120_000 }, async () => {
    const record = makeTempRecord();
    const sessionIds: string[] = [];
    for (let i = 0; i < FOLDERS; i++) {
      const sessionId = `s${String(i).padStart(3, '0')}`;
      sessionIds.push(sessionId);
      mkdirSync(join(record.dir, sessionId));
      writeFileSync(join(record.dir, sessionId, nameAt(0, 1)), JSON.stringify({ ...startEntry(0), sessionId }));
      for (let seq = 2; seq <= ENTRIES; seq++) writeFileSync(join(record.dir, sessionId, nameAt(seq, seq)), JSON.stringify({ ...sentEntry(seq, `entry ${seq}`), sessionId }));
    }
    const writer = await startWriter(record.dir);
    const headStart = beginRecordScan(record.dir, (message) => assert.fail(message));
    assert.ok(headStart?.pool, 'scan threads began');
    // Written once the threads have read every folder: only the watches can tell of it.
    const written = sessionIds.filter((_, at) => at % 10 === 0);
    await eventually(() => (headStart.pool!.finished ? true : undefined), 'the folders read', 60_000);
    for (const sessionId of written) await writer.send({ op: 'write', sessionId, seq: ENTRIES + 1, entry: { ...sentEntry(59, 'written before the reader took over'), sessionId } });
    await writer.send({ op: 'write', sessionId: 'fresh', seq: 1, entry: { ...startEntry(1), sessionId: 'fresh' } });
    const dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: NO_RECONCILE, headStart });
    try {
      await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan', 60_000);
      for (const [sessionId, total] of [...written.map((id) => [id, ENTRIES + 1] as const), ['fresh', 1] as const]) {
        const page = await eventually(async () => {
          const got = await getJson(dashboard, `/api/sessions/${sessionId}?limit=1`, sessionResponseSchema);
          return got.page.total === total ? got : undefined;
        }, `${total} entries in ${sessionId}`);
        assert.deepEqual(page.session.degraded, [], sessionId);
      }
      const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
      assert.equal(list.projects.flatMap((project) => project.sessions).length, FOLDERS + 1);
    } finally {
      await writer.kill();
      await dashboard.close();
      record.remove();
    }
  });
});
