import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { spexSessionResponseSchema, spexSummarySchema } from '../../shared/wire/spex.ts';
import { eventually } from './harness.ts';
import { A, B, C, PROJECT, sentEvent, sessionJson, startSpexRig, type SpexRig } from './spexHarness.ts';

// What a session sent is kept in one index as its receivers' logs are read: appended lines add to
// it, and a receiver's log read again from its start, or gone, takes its lines out again.

const rigs: SpexRig[] = [];
after(async () => {
  for (const rig of rigs) await rig.close();
});

const where = (sessionId: string) => ({ project: PROJECT, sessionId });
const sentCount = (r: SpexRig, id: string) => spexSummarySchema.parse(JSON.parse(r.source.conversation(id)!.json)).counts.sent;

async function sentKeys(r: SpexRig, id: string): Promise<string[]> {
  const response = await r.get(`/api/sessions/${id}`);
  return spexSessionResponseSchema
    .parse(response.body)
    .items.filter((item) => item.type === 'sent')
    .map((item) => item.key);
}

test("what a session sent follows its receivers' logs: appended, renumbered by a segment found before them, and gone with them", async () => {
  const r = await startSpexRig(async (writer) => {
    for (const id of [A, B, C]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
    await writer.send({ op: 'event', ...where(B), event: sentEvent('A to B, first', A, { ts: '2026-11-30T10:00:01.000Z' }) });
    await writer.send({ op: 'event', ...where(C), event: sentEvent('A to C', A, { ts: '2026-11-30T10:00:02.000Z' }) });
  });
  rigs.push(r);
  assert.equal(sentCount(r, A), 2);
  assert.deepEqual(await sentKeys(r, A), [`sent-1-${B}`, `sent-1-${C}`]);

  await r.writer.send({ op: 'event', ...where(B), event: sentEvent('A to B, second', A, { ts: '2026-11-30T10:00:03.000Z' }) });
  await eventually(() => (sentCount(r, A) === 3 ? true : undefined), 'an appended line is counted');
  assert.deepEqual(await sentKeys(r, A), [`sent-1-${B}`, `sent-1-${C}`, `sent-2-${B}`]);

  // A legacy segment is first in a log: B's lines are numbered again, after it.
  const folderOfB = join(r.home, 'projects', PROJECT, 'sessions', B);
  writeFileSync(join(folderOfB, 'timeline.ndjson'), `${JSON.stringify(sentEvent('A to B, before all', A, { ts: '2026-11-30T09:00:00.000Z' }))}\n`);
  await eventually(() => (sentCount(r, A) === 4 ? true : undefined), 'a line of a segment found before the others is counted');
  assert.deepEqual(await sentKeys(r, A), [`sent-1-${B}`, `sent-2-${B}`, `sent-1-${C}`, `sent-3-${B}`]);

  rmSync(folderOfB, { recursive: true });
  await eventually(() => (sentCount(r, A) === 1 ? true : undefined), 'the lines of a receiver that is gone are not counted');
  assert.deepEqual(await sentKeys(r, A), [`sent-1-${C}`]);
});
