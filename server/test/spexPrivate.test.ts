import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { spexSessionResponseSchema } from '../../shared/wire/spex.ts';
import { eventually } from './harness.ts';
import { A, B, C, PROJECT, sentEvent, sessionJson, startSpexRig, statusEvent, type SpexRig } from './spexHarness.ts';

// spex's private delivery data (a `dispatch-settled` line, a `dispatchReceipt` field) never leaves
// the server: distinct canaries are planted in both, and looked for in every answer of every route
// and in every notice.

const SETTLED_CANARY = 'CANARY-SETTLED-7f3a9c';
const RECEIPT_CANARY = 'CANARY-RECEIPT-41be02';
const TAIL_CANARY = 'CANARY-PRIVATE-TAIL-90d1';
const DAMAGED_CANARY = 'CANARY-DAMAGED-RECEIPT-5c7e';
const CUT_CANARY = 'CANARY-PRIVATE-CUT-e61b';

let rig: SpexRig;
after(() => rig?.close());

const where = (sessionId: string) => ({ project: PROJECT, sessionId });

test('no route and no notice carries a dispatch-settled line or a dispatchReceipt, and neither is counted', async () => {
  rig = await startSpexRig(async (writer) => {
    for (const id of [A, B]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
    await writer.send({ op: 'event', ...where(A), event: sentEvent('from B, with its receipt', B, { dispatchReceipt: { digest: RECEIPT_CANARY, bytes: RECEIPT_CANARY } }) });
    await writer.send({ op: 'event', ...where(A), event: { ts: new Date().toISOString(), kind: 'dispatch-settled', mid: 'm1', receipt: SETTLED_CANARY } });
    // A damaged line that names the private field: its raw text may hold private bytes.
    await writer.send({ op: 'bytes', ...where(A), base64: Buffer.from(`{"kind":"sent","dispatchReceipt":"${DAMAGED_CANARY}",\n`).toString('base64') });
    await writer.send({ op: 'event', ...where(A), event: statusEvent('active', null, null) });
  });
  // Live too: a private line and a receipt appended while watched, and a private tail not yet ended.
  await rig.writer.send({ op: 'event', ...where(B), event: { ts: new Date().toISOString(), kind: 'dispatch-settled', receipt: SETTLED_CANARY } });
  await rig.writer.send({ op: 'event', ...where(B), event: sentEvent('live, with a receipt', A, { dispatchReceipt: RECEIPT_CANARY }) });
  await rig.writer.send({ op: 'bytes', ...where(B), base64: Buffer.from(JSON.stringify({ ts: new Date().toISOString(), kind: 'dispatch-settled', receipt: TAIL_CANARY })).toString('base64') });
  // A private line still being written: the live view is not told of it, not even as being written.
  await rig.writer.send({ op: 'session', ...where(C), value: sessionJson(C) });
  await rig.writer.send({ op: 'bytes', ...where(C), base64: Buffer.from(`{"ts":"${new Date().toISOString()}","kind":"dispatch-settled","receipt":"${CUT_CANARY}`).toString('base64') });
  await eventually(async () => ((await rig.get(`/api/sessions/${B}`)).body.items.length === 2 ? true : undefined), 'the live line');
  await eventually(() => (rig.source.conversation(C)?.json.includes('"pending":1') ? true : undefined), 'the cut private line read');

  const pages = [];
  for (const id of [A, B]) {
    const page = spexSessionResponseSchema.parse((await rig.get(`/api/sessions/${id}?limit=5000`)).body);
    pages.push(page);
    for (const item of page.items) assert.equal((await rig.get(`/api/sessions/${id}/items/${item.key}`)).status, 200);
  }
  await rig.get('/api/sessions');
  for (const id of [A, B, C]) {
    for (const format of ['ndjson', 'json', 'md']) {
      const exported = await rig.app.inject({ method: 'GET', url: `/api/sessions/${id}/export?format=${format}` });
      assert.equal(exported.statusCode, 200);
      rig.served.push(exported.body);
    }
  }
  for (const q of ['', 'CANARY', 'receipt', 'dispatch', 'settled']) {
    await rig.get(`/api/search?q=${q}`);
    await rig.get(`/api/search?q=${q}&side=sent`);
  }
  await rig.get(`/api/search?q=${encodeURIComponent('C.NARY')}&regex=1`);
  // A line's number would say a private line was there: they take none.
  const [a, b] = pages;
  assert.deepEqual(a!.items.map((item) => item.line), [1, 2, 3, 1]);
  assert.equal(a!.items[3]!.type, 'sent', "A's message to B, from B's log");
  assert.equal(a!.session.counts.received + a!.session.counts.declarations + a!.session.counts.damaged, 3);
  assert.equal(b!.session.counts.pending, 0, 'a private tail is not even counted');
  assert.deepEqual(b!.items.map((item) => item.type).sort(), ['received', 'sent']);

  // The event stream's items: the live lines are told, each once, and nothing of a private line.
  const told = (id: string) => rig.notices.flatMap((notice) => (notice.type === 'items' && notice.id === id ? notice.items.map((item) => `${item.key} ${item.evidence}`) : []));
  assert.deepEqual(told(B), ['line-1 parsed'], "B's one public line, told once");
  assert.deepEqual(told(A), [`sent-1-${B} parsed`], 'and from its sender\'s side');
  assert.deepEqual(told(C), [], 'a private line being written is no item');

  assert.ok(rig.served.length > 20, 'every route was asked');
  for (const text of rig.served) {
    for (const canary of [SETTLED_CANARY, RECEIPT_CANARY, TAIL_CANARY, DAMAGED_CANARY, CUT_CANARY, 'dispatchReceipt', 'dispatch-settled']) {
      assert.ok(!text.includes(canary), `${canary} left the server in: ${text.slice(0, 300)}`);
    }
  }
});
