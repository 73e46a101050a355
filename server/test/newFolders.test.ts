import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sessionResponseSchema } from '../../shared/wire/record.ts';
import { startEntry, sentEntry } from '../../shared/test/recordFixtures.ts';
import { startWriter } from '../../tools/writer/writerClient.ts';
import { eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';

// A session's first entries go into a folder that did not exist a moment before. They must be
// shown from the watcher's events, not at the next reconcile, which these dashboards put off for
// ten minutes. How soon is a figure the bench measures (`npm run bench -- --only early,burst`:
// writes into new session folders, timed to their notices), not a bound for a test on a shared machine.
const NO_RECONCILE = 600_000;
// Far short of that reconcile: a bound that only stops a hang, whatever the load on the machine.
const HANG_MS = 30_000;

async function total(dashboard: Parameters<typeof getJson>[0], sessionId: string): Promise<number> {
  const response = await fetch(new URL(`/api/sessions/${sessionId}?limit=1`, dashboard.url));
  return response.ok ? sessionResponseSchema.parse(await response.json()).page.total : 0;
}

describe('new session folders', () => {
  it('entries written into brand-new session folders at once are shown without waiting for a reconcile', async () => {
    const record = makeTempRecord();
    const writer = await startWriter(record.dir);
    const dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: NO_RECONCILE });
    try {
      await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan');
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < 10; i++) {
        const sessionId = `fresh-${i}`;
        await writer.send({ op: 'write', sessionId, seq: 1, entry: { ...startEntry(0), sessionId } });
        await writer.send({ op: 'write', sessionId, seq: 2, entry: { ...sentEntry(1, 'first words'), sessionId } });
      }
      for (let i = 0; i < 10; i++) {
        await eventually(async () => ((await total(dashboard, `fresh-${i}`)) === 2 ? true : undefined), `both entries of fresh-${i}`, HANG_MS);
      }
    } finally {
      await writer.kill();
      await dashboard.close();
      record.remove();
    }
  });

  it('a record directory made after the start is watched: its new sessions show without waiting for a reconcile', async () => {
    const parent = makeTempRecord('rec-parent-');
    const recordDir = join(parent.dir, 'record');
    const dashboard = await startTestDashboard(recordDir, { reconcileIntervalMs: NO_RECONCILE });
    try {
      mkdirSync(recordDir);
      await eventually(async () => ((await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema)).sources[0]!.state === 'present' ? true : undefined), 'the record directory', HANG_MS);
      const writer = await startWriter(recordDir);
      try {
        for (let i = 0; i < 5; i++) {
          const sessionId = `later-${i}`;
          await writer.send({ op: 'write', sessionId, seq: 1, entry: { ...startEntry(0), sessionId } });
          await eventually(async () => ((await total(dashboard, sessionId)) === 1 ? true : undefined), sessionId, HANG_MS);
          await writer.send({ op: 'write', sessionId, seq: 2, entry: { ...sentEntry(1, 'more'), sessionId } });
          await eventually(async () => ((await total(dashboard, sessionId)) === 2 ? true : undefined), `${sessionId}, second entry`, HANG_MS);
        }
      } finally {
        await writer.kill();
      }
    } finally {
      await dashboard.close();
      parent.remove();
    }
  });
});
