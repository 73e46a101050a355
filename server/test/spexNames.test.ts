import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { liveItemSchema, type LiveItem } from '../../shared/wire/common.ts';
import { searchResponseSchema } from '../../shared/wire/search.ts';
import { spexSessionResponseSchema, spexSummarySchema, type SpexSearchHit } from '../../shared/wire/spex.ts';
import { eventually } from './harness.ts';
import { A, B, C, PROJECT, sentEvent, sessionJson, startSpexRig, type SpexRig } from './spexHarness.ts';

// A peer session is named as spex users know it: the title (and branch) its session.json gives,
// beside its id, wherever the id is shown: a message's sender, a sent message's receiver, a search
// hit, a live item's peer. The server says it; the browser derives nothing.

const rigs: SpexRig[] = [];
after(async () => {
  for (const rig of rigs) await rig.close();
});

const where = (sessionId: string) => ({ project: PROJECT, sessionId });

async function startRig(): Promise<SpexRig> {
  const rig = await startSpexRig(async (writer) => {
    await writer.send({ op: 'session', ...where(A), value: sessionJson(A, { title: 'checkout retries', branch: 'node/checkout-1111' }) });
    // A session with no title but a name is known by its name; one with neither has no name.
    await writer.send({ op: 'session', ...where(B), value: sessionJson(B, { title: '', name: 'invoice', branch: 'node/invoice-2222' }) });
    await writer.send({ op: 'session', ...where(C), value: sessionJson(C, { title: '', name: '', branch: '' }) });
    await writer.send({ op: 'event', ...where(B), event: sentEvent('A asks B about invoices', A, { ts: '2026-11-30T10:00:01.000Z' }) });
    await writer.send({ op: 'event', ...where(C), event: sentEvent('B asks C', B, { ts: '2026-11-30T10:00:02.000Z' }) });
  });
  rigs.push(rig);
  return rig;
}

async function pageOf(rig: SpexRig, id: string) {
  return spexSessionResponseSchema.parse((await rig.get(`/api/sources/${rig.source.ref.id}/conversations/${id}`)).body);
}

describe('spex session names', () => {
  it("a received message's sender and a sent message's receiver are named by their session.json title (or name) and branch beside the id", async () => {
    const rig = await startRig();
    const received = (await pageOf(rig, B)).items.find((item) => item.type === 'received');
    assert.deepEqual(received?.type === 'received' ? received.from : null, { by: 'session', sessionId: A, named: { title: 'checkout retries', branch: 'node/checkout-1111' } });
    const sent = (await pageOf(rig, A)).items.find((item) => item.type === 'sent');
    assert.deepEqual(sent?.type === 'sent' ? [sent.receiver, sent.receiverNamed] : null, [B, { title: 'invoice', branch: 'node/invoice-2222' }]);
    const toUnnamed = (await pageOf(rig, B)).items.find((item) => item.type === 'sent');
    assert.deepEqual(toUnnamed?.type === 'sent' ? toUnnamed.receiverNamed : null, { title: null, branch: null });
    // The session's own summary says the same name, so every place shows one name.
    const summary = spexSummarySchema.parse(JSON.parse(rig.source.conversation(B)!.json));
    assert.deepEqual(summary.named, { title: 'invoice', branch: 'node/invoice-2222' });
  });

  it('a search hit names its session, its sender and its receiver; a sent hit is from this session to its receiver', async () => {
    const rig = await startRig();
    const found = searchResponseSchema.parse((await rig.get('/api/search?q=invoices')).body);
    const hits = found.hits as SpexSearchHit[];
    const receivedHit = hits.find((hit) => hit.kind === 'received');
    const sentHit = hits.find((hit) => hit.kind === 'sent');
    assert.deepEqual(receivedHit?.sessionNamed, { title: 'invoice', branch: 'node/invoice-2222' });
    assert.deepEqual(receivedHit?.from, { by: 'session', sessionId: A, named: { title: 'checkout retries', branch: 'node/checkout-1111' } });
    assert.equal(sentHit?.sessionId, A);
    assert.deepEqual(sentHit?.sessionNamed, { title: 'checkout retries', branch: 'node/checkout-1111' });
    assert.equal(sentHit?.receiver, B);
    assert.deepEqual(sentHit?.receiverNamed, { title: 'invoice', branch: 'node/invoice-2222' });
  });

  it("a live item's peer that is a session of the home comes with its name; a person or another sender has none", async () => {
    const rig = await startRig();
    await rig.writer.send({ op: 'event', ...where(B), event: sentEvent('A again', A) });
    await rig.writer.send({ op: 'event', ...where(B), event: sentEvent('a person', null) });
    const told = (id: string) => rig.notices.flatMap((notice) => (notice.type === 'items' && notice.id === id ? notice.items.map((item) => liveItemSchema.parse(item)) : []));
    const find = (id: string, match: (item: LiveItem) => boolean, what: string) => eventually(() => told(id).find(match), what);
    const receivedByB = await find(B, (item) => item.peer === A, "B's received item");
    assert.equal(receivedByB.peerNamed, 'checkout retries · node/checkout-1111');
    const sentByA = await find(A, (item) => item.side === 'sent', "A's sent item");
    assert.equal(sentByA.peerNamed, 'invoice · node/invoice-2222');
    const fromPerson = await find(B, (item) => item.fromPerson === true, "a person's message");
    assert.equal(fromPerson.peerNamed, undefined);
    assert.equal(fromPerson.peer, null);
  });
});
