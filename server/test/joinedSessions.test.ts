import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { SESSION_A, SESSION_B } from '../../shared/session/testing/oneSessionStores.ts';
import { sessionsResponseSchema } from '../../shared/wire/conversations.ts';
import { searchResponseSchema } from '../../shared/wire/search.ts';
import { conversationSessionResponseSchema, joinedSessionResponseSchema, joinedSessionsResponseSchema, sessionItemSchema, type JoinedSessionResponse } from '../../shared/wire/session.ts';
import { sacTime } from '../demo/sacWrite.ts';
import { buildApp } from '../http/app.ts';
import { createRecordSource } from '../record/recordSource.ts';
import { createSacSource } from '../sac/sacSource.ts';
import type { Source } from '../sources/source.ts';
import { createSpexSource } from '../spex/spexSource.ts';
import { connectStoresEventStream } from './eventStream.ts';
import { createTestSearchPool, eventually } from './harness.ts';
import { writeOneSessionStores } from './oneSession.ts';
import type { ThreeStores } from './threeStores.ts';

// One Claude Code session across the stores, over a record, a spex home and a set-agent-comm store
// each written by its own writer process, holding the same two sessions whose ids share their
// first 8 characters: joined on the full id each store states, and on nothing else.

let stores: ThreeStores;
let sources: Source[];
let app: FastifyInstance;

const get = async (url: string) => {
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.body, headers: response.headers };
};
const pageOf = async (session: string): Promise<JoinedSessionResponse> => {
  const response = await get(`/api/joined-sessions/${encodeURIComponent(session)}`);
  assert.equal(response.status, 200, response.body);
  return joinedSessionResponseSchema.parse(JSON.parse(response.body));
};

before(async () => {
  stores = await writeOneSessionStores('joined');
  sources = [createRecordSource({ root: stores.record, searchPool: createTestSearchPool() }), createSpexSource({ root: stores.spex, searchPool: createTestSearchPool() }), createSacSource({ root: stores.sac, searchPool: createTestSearchPool() })];
  for (const source of sources) await source.start();
  app = await buildApp({ sources, webRoot: null, token: null });
  await app.listen({ host: '127.0.0.1', port: 0 });
  await eventually(() => (sources.every((source) => source.status().indexing.state === 'ready' && [...source.conversations()].length === 2) ? true : undefined), 'every first scan');
});

after(async () => {
  await app.close();
  for (const source of sources) await source.close();
  await stores.remove();
});

describe('one session across the stores', () => {
  it('every conversation the list carries states the full id of the session its store names, which the sidebar joins on: the record’s folder, spex’s session id, a seat’s registry session', async () => {
    const list = sessionsResponseSchema.parse(JSON.parse((await get('/api/sessions')).body));
    const stated = list.projects.flatMap((project) => project.sessions.map((one) => [one.source.kind, one.id, one.statedSession]));
    assert.deepEqual(
      stated.sort((a, b) => String(a).localeCompare(String(b))),
      [
        ['record', SESSION_A, SESSION_A],
        ['record', SESSION_B, SESSION_B],
        ['sac', 'checkout#9c0ffee0', SESSION_A],
        ['sac', 'checkout#9c0ffee0-111', SESSION_B],
        ['spex', SESSION_A, SESSION_A],
        ['spex', SESSION_B, SESSION_B],
      ].sort((a, b) => String(a).localeCompare(String(b))),
    );
  });

  it('two sessions whose ids share their first 8 characters are two rows, each with its record session, spex session and seat, and counts per store', async () => {
    const list = joinedSessionsResponseSchema.parse(JSON.parse((await get('/api/joined-sessions')).body));
    assert.deepEqual(list.projects.map((project) => project.cwd), ['/home/dev/projects/checkout']);
    const rows = list.projects[0]!.sessions;
    assert.deepEqual(rows.map((row) => row.session).sort(), [SESSION_A, SESSION_B]);
    const a = rows.find((row) => row.session === SESSION_A)!;
    assert.deepEqual(a.conversations.map((one) => [one.source.kind, one.id]), [['record', SESSION_A], ['spex', SESSION_A], ['sac', 'checkout#9c0ffee0']]);
    const b = rows.find((row) => row.session === SESSION_B)!;
    assert.deepEqual(b.conversations.map((one) => [one.source.kind, one.id]), [['record', SESSION_B], ['spex', SESSION_B], ['sac', 'checkout#9c0ffee0-111']]);
    // The record's counts of A: one sent, one received (its example's three entries: a start, a send, a receive).
    assert.deepEqual(a.conversations.map((one) => [one.sent, one.received]), [[1, 1], [1, 2], [1, 1]]);
    // What was refused, where a store records it (the record: none here); spex and set-agent-comm record none.
    assert.deepEqual(a.conversations.map((one) => one.refused), [{ sent: 0, received: 0 }, undefined, undefined]);
    assert.deepEqual(a.elsewhere, []);
  });

  it("a session's page holds the items of all three stores, each labelled with its store and conversation, and none of the other session's", async () => {
    for (const [session, other, seat] of [[SESSION_A, SESSION_B, 'checkout#9c0ffee0'], [SESSION_B, SESSION_A, 'checkout#9c0ffee0-111']] as const) {
      const page = await pageOf(session);
      assert.deepEqual(new Set(page.items.map((item) => item.kind)), new Set(['record', 'spex', 'sac']));
      for (const item of page.items) assert.equal(item.conversation, item.kind === 'sac' ? seat : session, JSON.stringify(item));
      assert.ok(!page.items.some((item) => item.conversation === other || item.conversation === (seat === 'checkout#9c0ffee0' ? 'checkout#9c0ffee0-111' : 'checkout#9c0ffee0')));
      assert.deepEqual(page.conversations.map((one) => one.id), [session, session, seat]);
      assert.deepEqual(page.cut, []);
    }
  });

  it("a session's items are on one time axis, each with its side and its peer as its store names it", async () => {
    const page = await pageOf(SESSION_A);
    const instants = page.items.map((item) => item.at).filter((at) => at !== null).map((at) => Date.parse(at));
    assert.deepEqual(instants, [...instants].sort((x, y) => x - y));
    const record = page.items.find((item) => item.kind === 'record' && item.side === 'sent')!;
    assert.equal(record.peer, 'uds:/tmp/cc-socks/4242.sock');
    const spexReceived = page.items.filter((item) => item.kind === 'spex' && item.side === 'received').map((item) => item.peer);
    // A person is no peer: null, and the item says whose words they are (its from).
    assert.deepEqual(spexReceived, [null, SESSION_B]);
    // ...and the place says so, as the store does: a person wrote it.
    assert.deepEqual(page.items.filter((item) => item.kind === 'spex' && item.side === 'received').map((item) => item.fromPerson), [true, undefined]);
    // A spex line seen from the sender's side still says where it comes from: the receiver's log.
    const spexSent = page.items.find((item) => item.kind === 'spex' && item.side === 'sent')!;
    assert.ok(spexSent.kind === 'spex' && spexSent.item.type === 'sent' && spexSent.item.fromLog === 'receiver');
    assert.equal(spexSent.peer, SESSION_B);
    const sac = page.items.filter((item) => item.kind === 'sac').map((item) => [item.side, item.peer]);
    assert.deepEqual(sac, [['received', 'checkout#9c0ffee0-111'], ['sent', 'everyone']]);
  });

  it("a session's page of `limit` items per store holds each store's newest by time, and says how many each holds", async () => {
    const response = await get(`/api/joined-sessions/${encodeURIComponent(SESSION_A)}?limit=1`);
    assert.equal(response.status, 200, response.body);
    const page = joinedSessionResponseSchema.parse(JSON.parse(response.body));
    // The record's receive at 09:02; spex's newest line (a declaration); the seat's FACT, written after the QUESTION it received.
    assert.deepEqual(page.items.map((item) => [item.kind, item.at, item.side]), [
      ['record', '2026-11-30T09:02:00.000Z', 'received'],
      ['spex', '2026-12-01T15:16:35.340Z', null],
      ['sac', '2026-12-01T15:16:42.787Z', 'sent'],
    ]);
    // spex: its log's four lines, and its line in B's log, seen from its side.
    assert.deepEqual(page.cut.map((cut) => [cut.source.kind, cut.shown, cut.total]), [['record', 1, 3], ['spex', 1, 5], ['sac', 1, 2]]);
  });

  it('a full id no store names, or a prefix of one, is answered 404, saying so', async () => {
    for (const id of ['9c0ffee0', SESSION_A.slice(0, -1), 'checkout#9c0ffee0']) {
      const response = await get(`/api/joined-sessions/${encodeURIComponent(id)}`);
      assert.equal(response.status, 404);
      assert.match(JSON.parse(response.body).message, /no store read names this full session id/);
    }
  });

  it("a session's export holds every store's items, each naming its store, through the one export pipeline", async () => {
    const json = await get(`/api/joined-sessions/${encodeURIComponent(SESSION_A)}/export?format=json`);
    assert.equal(json.status, 200);
    assert.match(String(json.headers['content-disposition']), /filename="session-9c0ffee0-1111-4111-8111-00000000000a\.json"/);
    const document = JSON.parse(json.body) as { session: string; items: unknown[]; conversations: { source: { kind: string } }[] };
    assert.equal(document.session, SESSION_A);
    const items = document.items.map((item) => sessionItemSchema.parse(item));
    assert.deepEqual(new Set(items.map((item) => item.kind)), new Set(['record', 'spex', 'sac']));
    assert.ok(items.every((item) => item.conversation === (item.kind === 'sac' ? 'checkout#9c0ffee0' : SESSION_A)));

    const ndjson = await get(`/api/joined-sessions/${encodeURIComponent(SESSION_A)}/export?format=ndjson`);
    const lines = ndjson.body.trim().split('\n').map((line) => JSON.parse(line) as { type?: string; source?: { kind: string }; conversation?: string });
    assert.equal(lines[0]!.type, 'session');
    assert.ok(lines.slice(1).every((line) => line.source !== undefined && line.conversation !== undefined));
    assert.deepEqual([...new Set(lines.slice(1).map((line) => line.source!.kind))], ['record', 'spex', 'sac']);

    const md = await get(`/api/joined-sessions/${encodeURIComponent(SESSION_A)}/export?format=md`);
    assert.match(md.body, /^# Session `9c0ffee0-1111-4111-8111-00000000000a`/);
    for (const heading of ['## The record:', '## spex:', '## set-agent-comm: `checkout#9c0ffee0`']) assert.ok(md.body.includes(heading), heading);
    // One title; each store's part under its heading, its own headings a level deeper (none of its texts here holds a line that looks like one).
    const headings = md.body.split('\n').filter((line) => /^#{1,6} /.test(line)).map((line) => line.split(' ')[0]!.length);
    assert.equal(headings.filter((level) => level === 1).length, 1, 'one title');
    assert.equal(headings.filter((level) => level === 2).length, 3, "a heading a store's part");
    assert.deepEqual(new Set(headings.filter((level) => level !== 1 && level !== 2)), new Set([3, 4]), 'a store\'s sections at 3, its items at 4');
    assert.ok(!md.body.includes('Two comments on the retry loop'), "the other session's record text is not in this one's export");
  });
});

describe('a session named the same way everywhere', () => {
  const SEAT_A = 'checkout#9c0ffee0';
  const conversationOf = (kind: string) => sources.find((source) => source.ref.kind === kind)!.ref.id;

  it("each store's conversation of a session is answered with the server's join: that session's full id and its conversations in every store, none of the other's", async () => {
    for (const [kind, id] of [['record', SESSION_A], ['spex', SESSION_A], ['sac', SEAT_A]] as const) {
      const response = await get(`/api/sources/${conversationOf(kind)}/conversations/${encodeURIComponent(id)}/session`);
      assert.equal(response.status, 200, response.body);
      const answer = conversationSessionResponseSchema.parse(JSON.parse(response.body));
      assert.equal(answer.session, SESSION_A);
      assert.deepEqual(answer.conversations.map((one) => [one.source.kind, one.id]), [['record', SESSION_A], ['spex', SESSION_A], ['sac', SEAT_A]]);
    }
    const seatB = conversationSessionResponseSchema.parse(JSON.parse((await get(`/api/sources/${conversationOf('sac')}/conversations/${encodeURIComponent(`${SEAT_A}-111`)}/session`)).body));
    assert.equal(seatB.session, SESSION_B);
    assert.deepEqual(seatB.conversations.map((one) => one.id), [SESSION_B, SESSION_B, `${SEAT_A}-111`]);
  });

  it('a conversation no store holds, or a store not read, is answered 404, saying so', async () => {
    const unknownConversation = await get(`/api/sources/${conversationOf('spex')}/conversations/${SESSION_A.slice(0, 8)}/session`);
    assert.equal(unknownConversation.status, 404);
    assert.match(JSON.parse(unknownConversation.body).message, /no such conversation/);
    const unknownSource = await get(`/api/sources/spex-00000000/conversations/${SESSION_A}/session`);
    assert.equal(unknownSource.status, 404);
  });

  it("a search hit of every store carries the full session id its store states for the conversation it opens", async () => {
    const response = await get('/api/search?q=refund');
    assert.equal(response.status, 200, response.body);
    const hits = searchResponseSchema.parse(JSON.parse(response.body)).hits;
    const told = hits.map((hit) => [hit.source.kind, hit.session]).sort();
    // sac: B's seat's QUESTION, by the registry's `session` of the seat; spex: the person's line in A's log.
    assert.deepEqual(told, [['sac', SESSION_B], ['spex', SESSION_A]]);
    // The record's send and receive; spex's line in B's log, and the same line from its sender A's side.
    const record = searchResponseSchema.parse(JSON.parse((await get('/api/search?q=payments%2Fclient.ts')).body)).hits;
    assert.deepEqual(record.map((hit) => [hit.source.kind, hit.session]).sort(), [['record', SESSION_A], ['record', SESSION_B], ['spex', SESSION_A], ['spex', SESSION_B]]);
  });

  it('an items notice carries the full session id its store states: a new entry of a seat names its session', async () => {
    const address = app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    const events = await connectStoresEventStream(`http://127.0.0.1:${address.port}`);
    try {
      await events.next((notice) => notice.event.type === 'hello');
      await stores.sacWriter.send({ op: 'send', room: 'checkout', seat: SEAT_A, ts: sacTime(), type: 'FACT', text: 'A notice that names its session.' });
      const told = await events.next((notice) => notice.event.type === 'items' && notice.event.sessionId === SEAT_A);
      assert.ok(told.event.type === 'items');
      assert.equal(told.event.session, SESSION_A);
    } finally {
      events.close();
    }
  });
});

describe('what a session’s page says its items may lack', () => {
  it("a spex session's Sent, read from other logs, may lack the lines of those logs not read: its page across the stores says so, as its spex page does; the log's own session's page does not", async () => {
    assert.deepEqual((await pageOf(SESSION_A)).mayLack, [], 'every log read whole');
    // A line of B's log that does not parse: whose it is, nothing says; it may be one A sent.
    await stores.spexWriter.send({ op: 'bytes', project: '-home-dev-projects-checkout', sessionId: SESSION_B, base64: Buffer.from('{"ts":"2026-11-30T10:00:06.000Z","kind":"sent","te\n').toString('base64') });
    const lacking = await eventually(async () => {
      const found = (await pageOf(SESSION_A)).mayLack;
      return found.length > 0 ? found : undefined;
    }, "A's page saying what its Sent may lack");
    assert.deepEqual(
      lacking.map(({ source, conversation, said }) => [source.kind, conversation, said]),
      [['spex', SESSION_A, 'What it sent may be more: 1 line of 1 other log not read']],
    );
    assert.match(lacking[0]!.why, /^1 line not read as an event .* in 1 other session's log: whose it is, nothing says, so it may be a message this session sent\.$/);
    assert.deepEqual((await pageOf(SESSION_B)).mayLack, [], "B's own log never holds what B sent");
  });
});
