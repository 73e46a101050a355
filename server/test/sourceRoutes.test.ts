import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { activityResponseSchema } from '../../shared/wire/activity.ts';
import { WIRE_KINDS } from '../../shared/wire/kinds.ts';
import { searchResponseSchema } from '../../shared/wire/search.ts';
import { SESSION, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { buildApp } from '../http/app.ts';
import { createRecordSource } from '../record/recordSource.ts';
import { createSacSource } from '../sac/sacSource.ts';
import type { Source } from '../sources/source.ts';
import { createSpexSource } from '../spex/spexSource.ts';
import { createTestSearchPool, eventually } from './harness.ts';
import { A, PROJECT, statusEvent } from './spexHarness.ts';
import { writeThreeStores, type ThreeStores } from './threeStores.ts';

// The routes that name a store and a conversation the same way for every kind
// (`/api/sources/:source/conversations/:id…`, `/api/sources/:source/views/:view…`), over a record,
// a spex home and a set-agent-comm store each written by its own writer process, and the one
// error handler and search that serve them all.

const HOSTILE_PEER = 'evil`peer\n## forged heading';
const WEB = 'web-app#3f9c1a20';
/** A conversation of each kind: a record session, a spex session, a set-agent-comm seat. */
const CONVERSATIONS = { record: SESSION, spex: A, sac: WEB } as const;

let stores: ThreeStores;
let sources: Source[];
let app: FastifyInstance;
/** The kinds of the sources a search asked, in order. */
const asked: string[] = [];

const get = async (url: string) => {
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, json: response.headers['content-type']?.toString().startsWith('application/json') ? (response.json() as Record<string, unknown>) : null, text: response.body, headers: response.headers };
};
const sourceOf = (kind: string) => sources.find((source) => source.ref.kind === kind)!;
const conversationUrl = (kind: string, id: string) => `/api/sources/${sourceOf(kind).ref.id}/conversations/${encodeURIComponent(id)}`;

before(async () => {
  stores = await writeThreeStores('routes', SESSION, [
    startEntry(0),
    sentEntry(1, 'the cart is queued', { peer: { as: 'claude-code' } }),
    sentEntry(2, 'a word to a forger', { peer: { as: HOSTILE_PEER } }),
    receivedEntry(3, 'a cart for you', { outcome: 'queued' }),
  ]);
  await stores.spexWriter.send({ op: 'event', project: PROJECT, sessionId: A, event: statusEvent('awaiting', 'merge', 'the cart is ready') });
  sources = [createRecordSource({ root: stores.record, searchPool: createTestSearchPool() }), createSpexSource({ root: stores.spex, searchPool: createTestSearchPool() }), createSacSource({ root: stores.sac, searchPool: createTestSearchPool() })];
  for (const source of sources) await source.start();
  // Each source as the app holds it, telling which searches reach it.
  const told = sources.map((source): Source => ({ ...source, search: (query, signal) => (asked.push(source.ref.kind), source.search(query, signal)) }));
  app = await buildApp({ sources: told, webRoot: null, token: null });
  await eventually(() => (sources.every((source) => source.status().indexing.state === 'ready' && [...source.conversations()].length > 0) ? true : undefined), 'every first scan');
});

after(async () => {
  await app.close();
  for (const source of sources) await source.close();
  await stores.remove();
});

describe('a conversation of any kind, named by its store and its id', () => {
  /** The key of an item on a page, as its kind names it. */
  const itemOf = (kind: string, page: Record<string, any>): string =>
    kind === 'record' ? page['items'].find((item: { type: string }) => item.type === 'file').file : kind === 'spex' ? page['items'][0].key : page['sent'][0].item;

  for (const kind of ['record', 'spex', 'sac'] as const) {
    it(`a ${kind} conversation's page, one of its items and its export answer at /api/sources/:source/conversations/:id, as the routes before it answer`, async () => {
      const url = conversationUrl(kind, CONVERSATIONS[kind]);
      const page = await get(url);
      assert.equal(page.status, 200, page.text);
      WIRE_KINDS[kind].page.response.parse(page.json);
      const before = await get(`/api/sessions/${encodeURIComponent(CONVERSATIONS[kind])}?source=${sourceOf(kind).ref.id}`);
      assert.deepEqual(before.json, page.json, 'the route before it answers the same');

      const key = itemOf(kind, page.json!);
      const item = await get(`${url}/items/${encodeURIComponent(key)}`);
      assert.equal(item.status, 200, item.text);
      WIRE_KINDS[kind].item.parse(item.json);

      const exported = await get(`${url}/export?format=ndjson`);
      assert.equal(exported.status, 200);
      assert.match(String(exported.headers['content-disposition']), new RegExp(`^attachment; filename="${kind}-`));
      const lines = exported.text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.ok(lines.length > 1, 'a head and its items');
      assert.equal((await get(`/api/sessions/${encodeURIComponent(CONVERSATIONS[kind])}/export?format=ndjson&source=${sourceOf(kind).ref.id}`)).text.split('\n').length, exported.text.split('\n').length);
    });
  }

  for (const kind of ['record', 'spex'] as const) {
    it(`a ${kind} conversation asked ?last=1 answers the page of its limit that holds its last item, as that page's offset answers it`, async () => {
      const url = conversationUrl(kind, CONVERSATIONS[kind]);
      const total = (WIRE_KINDS[kind].page.response.parse((await get(url)).json) as { page: { total: number } }).page.total;
      assert.ok(total >= 2, `${total} items`);
      for (const limit of [1, 2, 3, total, total + 1]) {
        const last = await get(`${url}?last=1&limit=${limit}`);
        assert.equal(last.status, 200, last.text);
        const page = (last.json as { page: { offset: number; limit: number; total: number } }).page;
        assert.deepEqual(page, { offset: Math.floor((total - 1) / limit) * limit, limit, total }, `limit ${limit}`);
        assert.deepEqual(last.json, (await get(`${url}?offset=${page.offset}&limit=${limit}`)).json, `limit ${limit}: the same answer`);
      }
      assert.equal((await get(`${url}?last=2`)).status, 400);
    });
  }

  it("a record session's activity answers at …/activity; a kind that sums none says so", async () => {
    const activity = await get(`${conversationUrl('record', SESSION)}/activity?side=sent`);
    assert.equal(activity.status, 200, activity.text);
    assert.equal(activityResponseSchema.parse(activity.json).total, 3);
    for (const kind of ['spex', 'sac'] as const) {
      const none = await get(`${conversationUrl(kind, CONVERSATIONS[kind])}/activity`);
      assert.equal(none.status, 404);
      assert.deepEqual(none.json, { error: 'not-found', message: `a ${kind} conversation has no activity summary yet` });
    }
  });
});

describe('the list of every conversation', () => {
  it('asked for with accept: application/x-ndjson, is the same list a line at a time: its envelope, then a project a line', async () => {
    const json = await app.inject({ method: 'GET', url: '/api/sessions' });
    const lines = await app.inject({ method: 'GET', url: '/api/sessions', headers: { accept: 'application/x-ndjson' } });
    assert.equal(lines.statusCode, 200);
    assert.match(String(lines.headers['content-type']), /^application\/x-ndjson; charset=utf-8$/);
    assert.match(String(json.headers['content-type']), /^application\/json; charset=utf-8$/);
    assert.equal(Number(lines.headers['content-length']), Buffer.byteLength(lines.body));
    const [head, ...projects] = lines.body.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.ok(projects.length >= 1);
    assert.deepEqual({ ...head, projects }, json.json());
    const since = await app.inject({ method: 'GET', url: `/api/sessions?since=${String(head!['version'])}`, headers: { accept: 'application/x-ndjson' } });
    assert.equal(JSON.parse(since.body).schema, 'rec.session-changes/1', 'what changed since a version is one JSON answer');
  });
});

describe('views only one kind has, served by the routes every kind has', () => {
  it("a set-agent-comm store's rooms, and one room's flow, answer at /api/sources/:source/views/rooms[/:room], as /api/sac/rooms answers", async () => {
    const id = sourceOf('sac').ref.id;
    const rooms = await get(`/api/sources/${id}/views/rooms`);
    assert.equal(rooms.status, 200, rooms.text);
    assert.ok(WIRE_KINDS.sac.views.rooms.list.response.parse(rooms.json).rooms.some((room) => room.room === 'team'));
    assert.deepEqual((await get(`/api/sac/rooms?source=${id}`)).json, rooms.json);
    const team = await get(`/api/sources/${id}/views/rooms/team?limit=2`);
    assert.equal(team.status, 200, team.text);
    assert.equal(WIRE_KINDS.sac.views.rooms.one.response.parse(team.json).items.length, 2);
    assert.deepEqual((await get(`/api/sac/rooms/team?source=${id}&limit=2`)).json, team.json);
  });

  it('a view a kind does not have, or a room a store does not hold, is a 404 that says so', async () => {
    assert.deepEqual((await get(`/api/sources/${sourceOf('record').ref.id}/views/rooms`)).json, { error: 'not-found', message: 'a record store has no view "rooms"' });
    assert.deepEqual((await get(`/api/sources/${sourceOf('sac').ref.id}/views/rooms/nowhere`)).json, { error: 'not-found', message: 'no room "nowhere" in this set-agent-comm store' });
  });
});

describe('what is not an answer', () => {
  it("a page's query its kind refuses is a 400 from the one error handler, { error, message }, naming what is expected", async () => {
    const refused = [
      ['record', 'limit=0', /limit/],
      ['record', 'side=both', /side must be sent or received/],
      ['record', 'peer=x&peerUnknown=1', /peer and peerUnknown/],
      ['spex', 'offset=-1', /offset/],
      ['spex', 'limit=1e2', /limit/],
      ['sac', 'others=2', /others/],
      ['sac', 'limit=0x10', /limit/],
    ] as const;
    for (const [kind, query, words] of refused) {
      const answer = await get(`${conversationUrl(kind, CONVERSATIONS[kind])}?${query}`);
      assert.equal(answer.status, 400, `${kind} ${query}`);
      assert.deepEqual(Object.keys(answer.json!).sort(), ['error', 'message']);
      assert.equal(answer.json!['error'], 'bad-request');
      assert.match(String(answer.json!['message']), words, `${kind} ${query}`);
    }
    const format = await get(`${conversationUrl('spex', A)}/export?format=pdf`);
    assert.deepEqual(format.json, { error: 'bad-request', message: 'format must be one of ndjson, json, md' });
  });

  it("a conversation or an item a source does not hold is a 404 that carries the source's own reason", async () => {
    const reasons = [
      [conversationUrl('record', 'nobody'), 'no such session in this record'],
      [conversationUrl('spex', 'nobody'), 'no such session in this spex home'],
      [conversationUrl('sac', 'nobody'), 'no seat "nobody" in this set-agent-comm store'],
      [`${conversationUrl('record', SESSION)}/items/not-a-file.json`, 'no such file in this session'],
      [`${conversationUrl('spex', A)}/items/line-999`, 'no such item in this session'],
      [`${conversationUrl('record', 'nobody')}/export?format=md`, 'no such session in this record'],
      [`${conversationUrl('sac', 'nobody')}/export?format=md`, 'no seat "nobody" in this set-agent-comm store'],
    ] as const;
    for (const [url, message] of reasons) assert.deepEqual((await get(url)).json, { error: 'not-found', message }, url);
    const unknown = await get('/api/sources/record-00000000/conversations/x');
    assert.equal(unknown.status, 404);
    assert.match(String(unknown.json!['message']), /^no such source here: this dashboard reads record-[0-9a-f]{8}, spex-[0-9a-f]{8}, sac-[0-9a-f]{8}$/);
    assert.deepEqual((await get('/api/no-such-route')).json, { error: 'not-found', message: 'no such route' }, 'a route that is none, in the same body');
  });
});

describe("a search's own filters of one kind", () => {
  const searched = async (query: string) => {
    asked.length = 0;
    const answer = await get(`/api/search?${query}`);
    assert.equal(answer.status, 200, answer.text);
    return { kinds: [...asked], hits: searchResponseSchema.parse(answer.json).hits.map((hit) => hit.source.kind) };
  };

  it('with no filter of a kind, every source is asked', async () => {
    const { kinds, hits } = await searched('q=cart');
    assert.deepEqual(kinds, ['record', 'spex', 'sac']);
    assert.deepEqual(new Set(hits), new Set(['record', 'spex', 'sac']));
  });

  it("a kind's own filter (record.outcome, spex.person, sac.room) asks that kind's sources only: the others are not asked", async () => {
    assert.deepEqual(await searched('q=cart&record.outcome=queued'), { kinds: ['record'], hits: ['record'] });
    assert.deepEqual((await searched('q=cart&spex.person=1')).kinds, ['spex']);
    const room = await searched('q=cart&sac.room=team');
    assert.deepEqual(room.kinds, ['sac']);
    assert.ok(room.hits.length > 0 && room.hits.every((kind) => kind === 'sac'));
  });

  it("each store a kind's own filter keeps out is said, with why, in the answer's keptOut", async () => {
    const answer = searchResponseSchema.parse((await get('/api/search?q=cart&spex.person=1')).json);
    assert.deepEqual(
      answer.keptOut.map(({ source, why }) => `${source.kind}: ${why}`),
      ['record: spex.person is spex’s own filter: it selects only spex’s entries', 'sac: spex.person is spex’s own filter: it selects only spex’s entries'],
    );
    // The filter by the query's name, for a page to name it as its form does.
    assert.deepEqual(
      answer.keptOut.map(({ filter }) => filter),
      ['spex.person', 'spex.person'],
    );
  });

  it('filters of two kinds select nothing: no source is asked', async () => {
    assert.deepEqual(await searched('q=cart&record.refused=1&sac.type=QUESTION'), { kinds: [], hits: [] });
  });
});

describe('a Markdown export', () => {
  it("says a store's short values as text, in code that reads as the value, and a hostile value stays inert in its code", async () => {
    const md = (await get(`${conversationUrl('record', SESSION)}/export?format=md`)).text;
    assert.ok(md.includes(`# Session \`${SESSION}\``), md);
    assert.ok(md.includes('- Peer: `claude-code`'), 'a peer as written, without JSON quotes');
    assert.ok(md.includes('Host `claude-code` `2.1.314`, inbound `accept`'));
    // Its line break and backtick are escaped inside a code span its backtick cannot close.
    assert.ok(md.includes('- Peer: ``"evil`peer\\n## forged heading"``'), md);
    assert.doesNotMatch(md, /^## forged heading/m, 'no heading is forged');
    assert.doesNotMatch(md, /"claude-code"/);
  });
});
