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

test("a session's page and export say what its Sent may lack: the other logs' lines not read as events, named by log, never its own", async () => {
  const r = await startSpexRig(async (writer) => {
    for (const id of [A, B, C]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
    await writer.send({ op: 'event', ...where(B), event: sentEvent('A to B', A, { ts: '2026-11-30T10:00:01.000Z' }) });
    // Lines no reader can say the sender of: in B's log, a line cut short before a complete one
    // (damaged), and in A's own log a line of the same kind, which can hold nothing A sent.
    await writer.send({ op: 'bytes', ...where(B), base64: Buffer.from('{"kind":"sent","text":"cut\n').toString('base64') });
    await writer.send({ op: 'event', ...where(B), event: sentEvent('A to B, after it', A, { ts: '2026-11-30T10:00:02.000Z' }) });
    await writer.send({ op: 'bytes', ...where(A), base64: Buffer.from('{"kind":"sent","te\n').toString('base64') });
  });
  rigs.push(r);
  const page = spexSessionResponseSchema.parse((await r.get(`/api/sessions/${A}`)).body);
  // Each log named with its first line not read, where a link opens it: B's second line.
  assert.deepEqual(page.sentUnknown, { lines: 1, segments: 0, logs: [B], firstLines: ['line-2'], moreLogs: 0 });
  // C's log holds nothing unread: B's line is unknown for C too, A's is unknown for B and C.
  assert.deepEqual(spexSessionResponseSchema.parse((await r.get(`/api/sessions/${B}`)).body).sentUnknown, { lines: 1, segments: 0, logs: [A], firstLines: ['line-1'], moreLogs: 0 });
  assert.deepEqual(spexSessionResponseSchema.parse((await r.get(`/api/sessions/${C}`)).body).sentUnknown?.logs, [A, B]);
  const markdown = (await r.app.inject({ method: 'GET', url: `/api/sessions/${A}/export?format=md` })).body;
  assert.match(markdown, /\*\*What it sent may be more:\*\* 1 line of 1 other log not read\. 1 line not read as an event .* in 1 other session's log: .* Those logs: bbbbbbbb-0000-4000-8000-00000000000b\./);
  const head = JSON.parse((await r.app.inject({ method: 'GET', url: `/api/sessions/${A}/export?format=ndjson` })).body.split('\n')[0]!);
  assert.deepEqual(head.sentUnknown, page.sentUnknown);
});

test('a line no sender can be said of, come to one log, is news for every other session: each is told, and its page says so', async () => {
  const r = await startSpexRig(async (writer) => {
    for (const id of [A, B, C]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
    await writer.send({ op: 'event', ...where(B), event: sentEvent('A to B', A, { ts: '2026-11-30T10:00:01.000Z' }) });
  });
  rigs.push(r);
  assert.equal(spexSessionResponseSchema.parse((await r.get(`/api/sessions/${A}`)).body).sentUnknown, null);
  const told = r.notices.length;
  // A line cut short in B's log, then a complete one after it: the first is damaged.
  await r.writer.send({ op: 'bytes', ...where(B), base64: Buffer.from('{"kind":"sent","text":"cut\n').toString('base64') });
  await r.writer.send({ op: 'event', ...where(B), event: sentEvent('A to B, after it', A, { ts: '2026-11-30T10:00:02.000Z' }) });
  await eventually(() => {
    const since = r.notices.slice(told).filter((notice) => notice.type === 'conversation-changed').map((notice) => (notice as { id: string }).id);
    return since.includes(A) && since.includes(C) ? true : undefined;
  }, 'A and C told, though their own logs did not change');
  assert.deepEqual(spexSessionResponseSchema.parse((await r.get(`/api/sessions/${C}`)).body).sentUnknown, { lines: 1, segments: 0, logs: [B], firstLines: ['line-2'], moreLogs: 0 });
});
