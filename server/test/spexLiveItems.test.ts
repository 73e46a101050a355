import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { liveItemSchema, type LiveItem } from '../../shared/wire/common.ts';
import { searchResponseSchema } from '../../shared/wire/search.ts';
import { spexSessionResponseSchema, type SpexSearchHit } from '../../shared/wire/spex.ts';
import type { SourceNotice } from '../sources/source.ts';
import { TEST_PENDING_WINDOW_MS, eventually } from './harness.ts';
import { A, B, C, PROJECT, sentEvent, sessionJson, startSpexRig, statusEvent, type SpexRig } from './spexHarness.ts';

// The live view's feed from a spex home: every line a real writer process appends is told as an
// item of its session, in spex's words, in log order, once in each state; a `sent` line whose
// `from` is a session of the home is told from the sender's side too, saying it comes from the
// receiver's log.

const rigs: SpexRig[] = [];
after(async () => {
  for (const rig of rigs) await rig.close();
});

const where = (sessionId: string) => ({ project: PROJECT, sessionId });

/** Every item told so far for a session, in the order told. */
function toldOf(rig: SpexRig, sessionId: string): LiveItem[] {
  return rig.notices.flatMap((notice: SourceNotice) => (notice.type === 'items' && notice.id === sessionId ? notice.items.map((item) => liveItemSchema.parse(item)) : []));
}

function itemTold(rig: SpexRig, sessionId: string, match: (item: LiveItem) => boolean, what: string, timeoutMs = 5_000): Promise<LiveItem> {
  return eventually(() => toldOf(rig, sessionId).find(match), what, timeoutMs);
}

async function startRig(): Promise<SpexRig> {
  const rig = await startSpexRig(async (writer) => {
    for (const id of [A, B, C]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
    // What is in the home when it is first read is not news: it is never told item by item.
    await writer.send({ op: 'event', ...where(A), event: sentEvent('written before the dashboard started', null) });
  }, { pendingWindowMs: TEST_PENDING_WINDOW_MS });
  rigs.push(rig);
  return rig;
}

describe('spex item notices', () => {
  it("a person's message, a session's and any other sender's, and a declaration are told as items of the receiving session in spex's words, with their first line", async () => {
    const rig = await startRig();
    const link = (sessionId: string, key: string) => `/source/${rig.source.ref.id}/conversation/${sessionId}/item/${key}`;
    const hint = `\n\n— from session "checkout" (${B}). To reply: spex session send ${B} "<your reply>"`;
    await rig.writer.send({ op: 'event', ...where(A), event: sentEvent('please add a retry\nsecond line, not told', null, { ts: '2026-11-30T10:00:01.000Z', replyVia: 'note' }) });
    await rig.writer.send({ op: 'event', ...where(A), event: sentEvent(`short${hint}`, B, { ts: '2026-11-30T10:00:02.000Z' }) });
    await rig.writer.send({ op: 'event', ...where(A), event: sentEvent('from the tracker', 'issues', { ts: '2026-11-30T10:00:03.000Z' }) });
    await rig.writer.send({ op: 'event', ...where(A), event: statusEvent('awaiting', 'merge', 'Ready for review.\nTests pass.', '2026-11-30T10:00:04.000Z') });
    const declared = await itemTold(rig, A, (item) => item.key === 'line-5', 'the declaration');

    assert.deepEqual(
      toldOf(rig, A).map((item) => item.key),
      ['line-2', 'line-3', 'line-4', 'line-5'],
      'the line read at start is not told; the others in log order, once each',
    );
    const [person, peer, other] = toldOf(rig, A);
    assert.deepEqual(person, {
      key: 'line-2',
      at: '2026-11-30T10:00:01.000Z',
      kind: 'sent',
      side: 'received',
      peer: null,
      fromPerson: true,
      words: 'received from a person; reply via note',
      refused: false,
      evidence: 'parsed',
      degraded: false,
      firstLine: 'please add a retry',
      link: link(A, 'line-2'),
    });
    assert.equal(peer!.peer, B);
    assert.equal(peer!.words, `received from session ${B}`);
    // One event seen from two sides: this item, and the sender's below, are the same line.
    assert.equal(peer!.twoSides, true);
    assert.equal(person!.twoSides, undefined);
    assert.equal(other!.twoSides, undefined);
    // spex's reply hint is part of the text: a one-line text with a hint has the text as its first line.
    assert.equal(peer!.firstLine, 'short');
    assert.equal(other!.peer, 'issues');
    assert.equal(other!.words, 'received from “issues”, as written');
    assert.equal(other!.fromPerson, undefined);
    assert.deepEqual(declared, {
      key: 'line-5',
      at: '2026-11-30T10:00:04.000Z',
      kind: 'status',
      side: null,
      peer: null,
      words: 'declared review (status awaiting, proposal merge)',
      refused: false,
      evidence: 'parsed',
      degraded: false,
      firstLine: 'Ready for review.',
      link: link(A, 'line-5'),
    });

    // The same event from its sender's side, under the sender's id, with the key of the sender's page.
    const sent = await itemTold(rig, B, (item) => item.side === 'sent', "B's message from its side");
    assert.deepEqual(sent, {
      key: `sent-3-${A}`,
      at: '2026-11-30T10:00:02.000Z',
      kind: 'sent',
      side: 'sent',
      peer: A,
      peerNamed: 'session aaaa · main',
      words: `sent to session ${A}: from the receiver's log`,
      twoSides: true,
      refused: false,
      evidence: 'parsed',
      degraded: false,
      firstLine: 'short',
      link: link(B, `sent-3-${A}`),
    });
    // Each link opens an item the session's page holds.
    for (const [sessionId, item] of [[A, person!], [B, sent]] as const) {
      const page = spexSessionResponseSchema.parse((await rig.get(`/api/sessions/${sessionId}?limit=5000`)).body);
      assert.ok(page.items.some((one) => one.key === item.key), `${item.key} is on ${sessionId}'s page`);
    }
    assert.equal(toldOf(rig, C).length, 0, 'a session that nothing named is told nothing');
    assert.equal(toldOf(rig, B).length, 1, "the sender's own log has nothing new");
  });

  it('a sender whose name as written is "a person" is told as that peer, quoted, never as a person', async () => {
    const rig = await startRig();
    await rig.writer.send({ op: 'event', ...where(C), event: sentEvent('from a peer so named', 'a person', { ts: '2026-11-30T10:00:01.000Z' }) });
    await rig.writer.send({ op: 'event', ...where(C), event: sentEvent("from a person's own hand", null, { ts: '2026-11-30T10:00:02.000Z' }) });
    const named = await itemTold(rig, C, (item) => item.firstLine === 'from a peer so named', 'the peer so named');
    const person = await itemTold(rig, C, (item) => item.firstLine === "from a person's own hand", 'the person');
    assert.deepEqual([named.peer, named.fromPerson, named.words], ['a person', undefined, 'received from “a person”, as written']);
    assert.deepEqual([person.peer, person.fromPerson, person.words], [null, true, 'received from a person']);
  });

  it('a line a session sends to itself is told once, as received, and not marked as seen from two sides: there is no other side', async () => {
    const rig = await startRig();
    await rig.writer.send({ op: 'event', ...where(C), event: sentEvent('a note to myself', C, { ts: '2026-11-30T10:00:01.000Z' }) });
    await rig.writer.send({ op: 'event', ...where(C), event: sentEvent('and one after it', null, { ts: '2026-11-30T10:00:02.000Z' }) });
    await itemTold(rig, C, (item) => item.firstLine === 'and one after it', 'the line after it');
    const told = toldOf(rig, C).filter((item) => item.firstLine === 'a note to myself');
    assert.deepEqual(
      told.map((item) => [item.side, item.twoSides]),
      [['received', undefined]],
    );
  });

  it('a received line is seen from two sides alike on a page, in a search hit and in the live view: the server says so on each, by its one rule', async () => {
    const rig = await startRig();
    const texts = { peer: 'twosides from a peer', person: 'twosides from a person', other: 'twosides from the tracker', self: 'twosides to myself' };
    await rig.writer.send({ op: 'event', ...where(A), event: sentEvent(texts.peer, B, { ts: '2026-11-30T12:00:01.000Z' }) });
    await rig.writer.send({ op: 'event', ...where(A), event: sentEvent(texts.person, null, { ts: '2026-11-30T12:00:02.000Z' }) });
    await rig.writer.send({ op: 'event', ...where(A), event: sentEvent(texts.other, 'issues', { ts: '2026-11-30T12:00:03.000Z' }) });
    await rig.writer.send({ op: 'event', ...where(C), event: sentEvent(texts.self, C, { ts: '2026-11-30T12:00:04.000Z' }) });
    await itemTold(rig, C, (item) => item.firstLine === texts.self, 'the last line');
    const expected = { [texts.peer]: true, [texts.person]: false, [texts.other]: false, [texts.self]: false };

    const live = Object.fromEntries([...toldOf(rig, A), ...toldOf(rig, C)].filter((item) => item.side === 'received').map((item) => [item.firstLine, item.twoSides === true]));
    assert.deepEqual(live, expected, 'the live view');
    const pages = await Promise.all([A, C].map(async (sessionId) => spexSessionResponseSchema.parse((await rig.get(`/api/sessions/${sessionId}?limit=5000`)).body)));
    const onPages = Object.fromEntries(pages.flatMap((page) => page.items).flatMap((item) => (item.type === 'received' && item.text?.startsWith('twosides') ? [[item.text, item.twoSides]] : [])));
    assert.deepEqual(onPages, expected, 'the sessions’ pages');
    const found = searchResponseSchema.parse((await rig.get('/api/search?q=twosides')).body);
    const hits = found.hits as SpexSearchHit[];
    const inHits = Object.fromEntries(hits.filter((hit) => hit.kind === 'received').map((hit) => [Object.keys(expected).find((text) => hit.snippet?.includes(text)), hit.twoSides]));
    assert.deepEqual(inHits, expected, 'the search’s received hits');
    // The sender's side of the one line seen from two sides is a sent hit, read from the receiver's log: seen from two sides too.
    assert.deepEqual(hits.filter((hit) => hit.kind === 'sent').map((hit) => [hit.sessionId, hit.receiver, hit.twoSides]), [[B, A, true]]);
    // Its two hits name the one line they are; every other hit another.
    const sides = hits.filter((hit) => hit.snippet?.includes(texts.peer));
    assert.deepEqual(sides.map((hit) => hit.kind).sort(), ['received', 'sent']);
    assert.equal(sides[0]!.line, sides[1]!.line);
    assert.equal(new Set(hits.map((hit) => hit.line)).size, hits.length - 1);
  });

  it('a line written in two pieces is told being written, then as its event; damaged, invalid and torn lines are told as degraded evidence with no text', async () => {
    const rig = await startRig();
    const line = JSON.stringify(sentEvent('slowly written', null, { ts: '2026-11-30T11:00:00.000Z' }));
    // Cut after its kind: a tail is told once it shows it is not spex's private bookkeeping.
    await rig.writer.send({ op: 'bytes', ...where(B), base64: Buffer.from(line.slice(0, 50)).toString('base64') });
    const pending = await itemTold(rig, B, (item) => item.evidence === 'pending', 'the line being written');
    assert.equal(pending.key, 'line-1');
    assert.equal(pending.degraded, true);
    assert.equal(pending.firstLine, null);
    assert.equal(pending.words, 'being written');
    await rig.writer.send({ op: 'bytes', ...where(B), base64: Buffer.from(`${line.slice(50)}\n`).toString('base64') });
    const parsed = await itemTold(rig, B, (item) => item.key === 'line-1' && item.evidence === 'parsed', 'the line once whole');
    assert.equal(parsed.firstLine, 'slowly written');

    await rig.writer.send({ op: 'bytes', ...where(B), base64: Buffer.from('{"ts":"2026-11-30T11:00:01.000Z","kind":"sent","te\n').toString('base64') });
    await rig.writer.send({ op: 'bytes', ...where(B), base64: Buffer.from('{"ts":"2026-11-30T11:00:02.000Z","kind":"status"}\n').toString('base64') });
    const damaged = await itemTold(rig, B, (item) => item.evidence === 'damaged', 'the damaged line');
    const invalid = await itemTold(rig, B, (item) => item.evidence === 'invalid', 'the invalid line');
    for (const item of [damaged, invalid]) {
      assert.equal(item.degraded, true);
      assert.equal(item.firstLine, null, 'a line that is not an event has no text to show');
      assert.equal(item.kind, null);
    }
    assert.deepEqual([damaged.key, invalid.key], ['line-2', 'line-3']);
    assert.match(damaged.words, /^unknown evidence: /);
    assert.match(invalid.words, /^not an event: /);

    // A tail that never ends is torn once its segment's mtime is past the pending window.
    await rig.writer.send({ op: 'bytes', ...where(B), base64: Buffer.from('{"ts":"2026-11-30T11:00:03.000Z","kind":"sent","text":"cut').toString('base64') });
    await itemTold(rig, B, (item) => item.key === 'line-4' && item.evidence === 'pending', 'the tail, pending');
    const torn = await itemTold(rig, B, (item) => item.key === 'line-4' && item.evidence === 'torn', 'the tail, torn', TEST_PENDING_WINDOW_MS + 5_000);
    assert.equal(torn.degraded, true);
    assert.match(torn.words, /^unknown evidence: /);
    assert.deepEqual(
      toldOf(rig, B).map((item) => `${item.key} ${item.evidence}`),
      ['line-1 pending', 'line-1 parsed', 'line-2 damaged', 'line-3 invalid', 'line-4 pending', 'line-4 torn'],
      'each state of each line told once, in log order',
    );
  });

  it('a burst of 500 lines across segment rollovers arrives once each, in log order, from both sides', { timeout: 120_000 }, async () => {
    const rig = await startRig();
    const count = 500;
    const acks: Promise<{ segment?: string }>[] = [];
    for (let i = 0; i < count; i++) {
      const event = i % 5 === 4 ? statusEvent('active', null, `note ${i}`) : sentEvent(`burst line ${i}`, i % 2 === 0 ? A : null);
      // A small bound: the burst rolls over to a new segment every ~25 lines.
      acks.push(rig.writer.send({ op: 'event', ...where(C), event, bound: 4096 }));
    }
    const segments = new Set((await Promise.all(acks)).map((ack) => ack.segment));
    assert.ok(segments.size >= 10, `the burst spans ${segments.size} segments`);
    await itemTold(rig, C, (item) => item.key === `line-${count}` && item.evidence === 'parsed', 'the last line', 60_000);
    // Nothing more is on its way once the last line is told, but a straggler's notice would show here.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const told = toldOf(rig, C);
    const final = told.filter((item) => item.evidence !== 'pending');
    assert.deepEqual(
      final.map((item) => item.key),
      Array.from({ length: count }, (_, i) => `line-${i + 1}`),
      'every line once, in the order written',
    );
    assert.ok(final.every((item) => item.evidence === 'parsed'));
    final.forEach((item, i) => {
      const expected = i % 5 === 4 ? `note ${i}` : `burst line ${i}`;
      assert.equal(item.firstLine, expected, `line ${i + 1}'s first line`);
    });
    // What A sent to C, told under A, each once, in C's log order.
    const fromA = toldOf(rig, A).filter((item) => item.side === 'sent');
    const expectedLines = Array.from({ length: count }, (_, i) => i).filter((i) => i % 5 !== 4 && i % 2 === 0);
    assert.deepEqual(
      fromA.map((item) => item.key),
      expectedLines.map((i) => `sent-${i + 1}-${C}`),
    );
  });
});
