import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { edgeMessagesResponseSchema, mapResponseSchema } from '../../shared/wire/map.ts';
import { spexSessionResponseSchema, type SpexItem } from '../../shared/wire/spex.ts';
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

const rigs: SpexRig[] = [];
after(() => Promise.all(rigs.map((rig) => rig.close())));

const where = (sessionId: string) => ({ project: PROJECT, sessionId });

test('no route and no notice carries a dispatch-settled line or a dispatchReceipt, and neither is counted', async () => {
  const rig = await startSpexRig(async (writer) => {
    for (const id of [A, B]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
    await writer.send({ op: 'event', ...where(A), event: sentEvent('from B, with its receipt', B, { dispatchReceipt: { digest: RECEIPT_CANARY, bytes: RECEIPT_CANARY } }) });
    await writer.send({ op: 'event', ...where(A), event: { ts: new Date().toISOString(), kind: 'dispatch-settled', mid: 'm1', receipt: SETTLED_CANARY } });
    // A damaged line that names the private field: its raw text may hold private bytes.
    await writer.send({ op: 'bytes', ...where(A), base64: Buffer.from(`{"kind":"sent","dispatchReceipt":"${DAMAGED_CANARY}",\n`).toString('base64') });
    await writer.send({ op: 'event', ...where(A), event: statusEvent('active', null, null) });
  });
  rigs.push(rig);
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
  await askMap(rig);
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

// Lines the reader does not take as events, each holding a receipt as spex's writer stores it
// (`appendSent(id, text, from, undefined, receipt)` stores whatever an API caller gave), or
// spelling a private name with an escape: the private part is taken out of the bytes before
// anything looks at them, so no projection of the line (its raw text, its fields) can carry it.
const receiptOf = (canary: string) => ({ operation: 'merge', requestDigest: canary, payloadHash: canary, delivery: { text: `composed transport bytes ${canary}`, from: null } });
const now = () => new Date().toISOString();
const ODD_LINES: { name: string; canary: string; event?: () => Record<string, unknown>; bytes?: () => string }[] = [
  { name: 'a sent line without mid', canary: 'CANARY-NO-MID-3d1f', event: () => ({ ts: now(), kind: 'sent', text: 'no mid on this one', from: B, dispatchReceipt: receiptOf('CANARY-NO-MID-3d1f') }) },
  { name: 'a line of an unknown kind', canary: 'CANARY-UNKNOWN-KIND-8a20', event: () => ({ ts: now(), kind: 'handover', to: B, dispatchReceipt: receiptOf('CANARY-UNKNOWN-KIND-8a20') }) },
  { name: 'a sent line whose from is 2,000 characters long', canary: 'CANARY-LONG-FROM-b7c4', event: () => sentEvent('from an API caller', `caller:${'x'.repeat(1_993)}`, { dispatchReceipt: receiptOf('CANARY-LONG-FROM-b7c4') }) },
  { name: 'a receipt nested in an object', canary: 'CANARY-NESTED-0e9d', event: () => sentEvent('nested receipt inside', B, { x: { dispatchReceipt: receiptOf('CANARY-NESTED-0e9d') } }) },
  { name: 'a receipt in an array', canary: 'CANARY-ARRAY-51aa', event: () => ({ ts: now(), kind: 'handover', items: [1, { dispatchReceipt: receiptOf('CANARY-ARRAY-51aa') }] }) },
  { name: 'a dispatch-settled line that is damaged JSON, its kind spelt with an escape', canary: 'CANARY-SETTLED-CUT-77e2', bytes: () => `{"ts":"${now()}","kind":"dispatch\\u002dsettled","operation":"merge","requestDigest":"CANARY-SETTLED-CUT-77e2","mid":"m1"\n` },
  { name: 'a key written twice, the first holding a receipt spelt with an escape', canary: 'CANARY-TWICE-c402', bytes: () => `{"ts":"${now()}","kind":"sent","mid":"m2","text":"a key twice","from":null,"x":{"dispatch\\u0052eceipt":${JSON.stringify(receiptOf('CANARY-TWICE-c402'))}},"x":1}\n` },
];
/** A line with nothing private in it, written as no JSON.stringify writes: shown byte for byte. */
const VERBATIM = '{ "kind" : "handover",  "ts":"2026-12-01T00:00:00.000Z", "n": 1.50, "note":"tab\\there \\u00e9" }';

/** The map, and each of its edges' messages with their texts' first lines: kept with every other answer the rig served. */
async function askMap(rig: SpexRig): Promise<void> {
  const map = mapResponseSchema.parse((await rig.get('/api/map')).body);
  assert.ok(map.edges.length > 0, 'the map has edges to list');
  for (const edge of map.edges) {
    const listed = edgeMessagesResponseSchema.parse((await rig.get(`/api/map/messages?from=${encodeURIComponent(edge.from)}&to=${encodeURIComponent(edge.to)}`)).body);
    assert.ok(listed.messages.some((message) => message.firstLine !== null), `a first line on the edge ${edge.key}`);
  }
}

/** An export, kept with every other answer the rig served. */
async function download(rig: SpexRig, url: string): Promise<void> {
  const response = await rig.app.inject({ method: 'GET', url });
  assert.equal(response.statusCode, 200, url);
  rig.served.push(response.body);
}

async function writeOddLines(writer: SpexRig['writer'], sessionId: string): Promise<void> {
  for (const line of ODD_LINES) {
    // An event is appended as spex appends one (its JSON and a newline, one write); bytes as they are.
    if (line.event !== undefined) await writer.send({ op: 'event', ...where(sessionId), event: line.event() });
    else await writer.send({ op: 'bytes', ...where(sessionId), base64: Buffer.from(line.bytes!()).toString('base64') });
  }
  await writer.send({ op: 'bytes', ...where(sessionId), base64: Buffer.from(`${VERBATIM}\n`).toString('base64') });
}

describe('a receipt in a line the reader does not take as an event', () => {
  let rig: SpexRig;
  /** Each session's page, with the lines of its own log (not the messages it sent). */
  const own = new Map<string, SpexItem[]>();

  before(async () => {
    rig = await startSpexRig(async (writer) => {
      for (const id of [A, B]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
      await writeOddLines(writer, A);
    });
    rigs.push(rig);
    // The same lines appended while watched: the event stream's items read them too.
    await writeOddLines(rig.writer, B);
    await eventually(async () => ((await rig.get(`/api/sessions/${B}`)).body.items.filter((item: { type: string }) => item.type !== 'sent').length === ODD_LINES.length + 1 ? true : undefined), 'the live lines');
    await eventually(() => (rig.notices.some((notice) => notice.type === 'items' && notice.id === B && notice.items.length > 0) ? true : undefined), 'the live items');
    // Every answer that shows a line: its page, each item, each export, a search and its exports.
    for (const id of [A, B]) {
      const page = spexSessionResponseSchema.parse((await rig.get(`/api/sessions/${id}?limit=5000`)).body);
      own.set(id, page.items.filter((item) => item.type !== 'sent'));
      for (const item of page.items) assert.equal((await rig.get(`/api/sessions/${id}/items/${item.key}`)).status, 200);
      for (const format of ['ndjson', 'json', 'md']) await download(rig, `/api/sessions/${id}/export?format=${format}`);
    }
    await rig.get(`/api/search?q=${encodeURIComponent('C.NARY')}&regex=1`);
    await askMap(rig);
    // An export of a search says its query: there the canary is looked for with a pattern.
    for (const format of ['ndjson', 'json', 'md']) {
      for (const q of ['a', 'receipt', `${encodeURIComponent('C.NARY')}&regex=1`]) await download(rig, `/api/search/export?format=${format}&q=${q}`);
    }
  });

  for (const { name, canary } of ODD_LINES) {
    it(`${name}: its receipt is in no page, item, export or live item, and a search for it finds nothing`, async () => {
      assert.ok(rig.notices.some((notice) => notice.type === 'items' && notice.id === B), 'the live lines were told');
      for (const text of rig.served) assert.ok(!text.includes(canary), `${canary} left the server in: ${text.slice(0, 300)}`);
      assert.deepEqual((await rig.get(`/api/search?q=${canary}`)).body.hits, [], name);
    });
  }

  it("no answer names spex's private names or holds any receipt's bytes", () => {
    for (const text of rig.served) {
      for (const canary of ['CANARY', 'dispatchReceipt', 'dispatch-settled', 'composed transport']) assert.ok(!text.includes(canary), `${canary} left the server in: ${text.slice(0, 300)}`);
    }
  });

  it('what is shown of each line is the line as written less its receipt, its size is that of the line shown, and its why says so', () => {
    for (const id of [A, B]) {
      const items = own.get(id)!;
      const raws = items.map((item) => (item.type === 'evidence' || item.type === 'unknown-kind' ? item.raw : null));
      const keysOf = (raw: string | null | undefined) => Object.keys(JSON.parse(raw!) as object).join();
      assert.deepEqual(items.map((item) => (item.type === 'evidence' ? item.evidence : item.type)), ['invalid', 'unknown-kind', 'invalid', 'received', 'unknown-kind', 'damaged', 'invalid', 'unknown-kind']);
      assert.equal(keysOf(raws[0]), 'ts,kind,text,from');
      assert.equal(keysOf(raws[1]), 'ts,kind,to');
      assert.equal(keysOf(raws[2]), 'ts,kind,mid,text,from');
      assert.deepEqual((JSON.parse(raws[4]!) as { items: unknown }).items, [1, {}]);
      assert.equal(raws[5], null, 'a cut line that may be private is not shown');
      assert.match(raws[6]!, /"from":null,"x":\{\},"x":1\}$/);
      for (const item of items) {
        if (item.type !== 'evidence' || item.raw === null) continue;
        assert.equal(item.bytes, Buffer.byteLength(item.raw), 'the size of the line shown');
        assert.match(item.why, /taken out/, 'and it says what was taken out');
      }
    }
  });

  it('a line with nothing private in it, written as no JSON.stringify writes, is shown byte for byte', async () => {
    for (const id of [A, B]) assert.equal(own.get(id)!.map((item) => (item.type === 'unknown-kind' ? item.raw : null)).at(-1), VERBATIM);
    const found = await rig.get(`/api/search?q=${encodeURIComponent('nested receipt')}`);
    assert.ok(found.body.hits.length >= 2, 'and a line whose receipt was cut out is searched, in both logs');
  });
});
