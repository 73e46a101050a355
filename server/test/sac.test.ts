import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { sacItemResponseSchema, sacRoomResponseSchema, sacRoomsResponseSchema, sacSeatResponseSchema, sacSearchHitSchema, type SacFlowItem } from '../../shared/wire/sac.ts';
import { searchResponseSchema } from '../../shared/wire/search.ts';
import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { eventually, makeTempRecord } from './harness.ts';
import { getBody, listSeats, seatUrl, startSacApp, writeExampleStore, type SacTestApp } from './sacApp.ts';

// A set-agent-comm store written the way sac writes it, by a writer process, read by a sac source
// behind HTTP routes as the dashboard serves them.

const API = 'api-service#c4e10000';
const WEB = 'web-app#3f9c1a20';
const SIBLING = 'web-app#7b02e5d1';

let store: { dir: string; remove(): void };
let writer: SacWriter;
let served: SacTestApp;

before(async () => {
  store = makeTempRecord('sac-test-');
  writer = await startSacWriter(store.dir);
  await writeExampleStore(writer);
  served = await startSacApp(store.dir);
});
after(async () => {
  await served.close();
  await writer.close();
  store.remove();
});

async function room(name: string) {
  const body = await getBody(served.app, `/api/sac/rooms/${encodeURIComponent(name)}?source=${served.source.ref.id}`);
  assert.equal(body.status, 200, body.text);
  return sacRoomResponseSchema.parse(body.json);
}

async function seat(name: string, query = '') {
  const body = await getBody(served.app, seatUrl(name, query));
  assert.equal(body.status, 200, body.text);
  return sacSeatResponseSchema.parse(body.json);
}

const entriesOf = (items: SacFlowItem[]) => items.filter((item) => item.type === 'entry');

describe('a set-agent-comm store as sac writes it', () => {
  it('lists seats as conversations grouped by the registry’s project, each with its full session id', async () => {
    const conversations = await listSeats(served.app);
    const web = conversations.find((summary) => summary.seat === WEB)!;
    assert.deepEqual(web.session, { state: 'known', session: '3f9c1a20-1111-2222-3333-444455556666' });
    assert.deepEqual(web.project, { project: '/home/dev/projects/web-app', from: 'registry' });
    assert.equal(web.lastSeen, '2026-11-30T17:18:53.872+00:00');
    assert.equal(web.liveness.basis, 'derived');
    assert.notEqual(web.liveness.word, 'live');
    assert.equal(web.focus.state, 'declared');
    const stale = Date.now() - Date.parse('2026-11-30T17:18:53.402+00:00') > 4 * 3600_000;
    assert.ok(web.focus.state === 'declared' && web.focus.phase === 'apply' && web.focus.freshness === (stale ? 'stale' : 'fresh'));
    const sibling = conversations.find((summary) => summary.seat === SIBLING)!;
    assert.equal(sibling.presence.state, 'expired');
    assert.deepEqual(conversations.map((summary) => summary.seat).sort(), [API, WEB, SIBLING].sort());
  });

  it('shows a room’s flow in time order, each entry with its writer, type, to or everyone, and a re linking to the entry with that time', async () => {
    const team = await room('team');
    const entries = entriesOf(team.items);
    assert.deepEqual(
      entries.map((entry) => `${entry.time!.slice(17, 23)} ${entry.seat} ${entry.entryType} ${entry.to.join(',') || 'everyone'}`),
      [
        `53.482 ${API} QUESTION web-app`,
        `53.590 ${API} FACT everyone`,
        `53.872 ${WEB} ANSWER api-service`,
        `53.956 ${API} REQUEST ${WEB}`,
      ],
    );
    const answer = entries[2]!;
    assert.equal(answer.re?.state, 'resolved');
    assert.equal(answer.re?.entries[0]?.item, entries[0]!.item);
    assert.equal(team.room.entries, 4);
    assert.equal(team.room.last?.entryType, 'REQUEST');
  });

  it('keeps a forged header escaped in a body as body text, verbatim', async () => {
    const team = await room('team');
    const fact = entriesOf(team.items).find((entry) => entry.time === '2026-11-30T17:18:53.590+00:00')!;
    assert.equal(fact.text, 'Deployed api-service 2.4.0 to staging.\n\n## A markdown heading inside the body\n ## 2099-01-01T00:00:00.000+02:00 — FACT\n(the line above is a forged header and gets escaped with one leading space)');
    assert.ok(!team.items.some((item) => item.time?.startsWith('2099')));
  });

  it('shows a seat’s Sent and Received: its own entries, and others’ marked to it or to everyone, those to others on demand, with sac’s cursor', async () => {
    const page = await seat(WEB);
    assert.deepEqual(entriesOf(page.sent).map((entry) => entry.entryType), ['ANSWER']);
    const received = entriesOf(page.received);
    assert.deepEqual(
      received.map((entry) => `${entry.entryType} ${entry.addressing} ${entry.sacCursor}`),
      // The example's web-app session is gone: the entry past its cursor is its backlog, not unread.
      ['QUESTION to-agent read', 'FACT to-everyone read', 'REQUEST to-seat backlog'],
    );
    const sibling = await seat(SIBLING);
    assert.ok(!entriesOf(sibling.received).some((entry) => entry.addressing === 'to-others'));
    assert.equal(sibling.seat.counts.toOthers, 2);
    const withOthers = await seat(SIBLING, '?others=1');
    assert.deepEqual(entriesOf(withOthers.received).filter((entry) => entry.addressing === 'to-others').map((entry) => entry.entryType), ['ANSWER', 'REQUEST']);
  });

  it('answers one item whole, and a name that is no item with a 404', async () => {
    const team = await room('team');
    const question = entriesOf(team.items)[0]!;
    const body = await getBody(served.app, `${seatUrl(WEB)}/items/${encodeURIComponent(question.item)}`);
    const item = sacItemResponseSchema.parse(body.json).item;
    assert.equal(item.text, 'Does the cart still POST /v1/orders, or did you move to /v2?');
    assert.equal(item.addressing, 'to-agent');
    const missing = await getBody(served.app, `${seatUrl(WEB)}/items/${encodeURIComponent('channels/team/../../relays.json:0')}`);
    assert.equal(missing.status, 404);
  });

  it('lists every room with its seats and marks a room of two as such', async () => {
    await writer.send({ op: 'send', room: 'dm-api-service-c4e10000-web-app-3f9c1a20', seat: API, ts: '2026-11-30T17:19:10.000+00:00', type: 'QUESTION', text: 'just us?' });
    await writer.send({ op: 'send', room: 'dm-api-service-c4e10000-web-app-3f9c1a20', seat: WEB, ts: '2026-11-30T17:19:11.000+00:00', type: 'ANSWER', re: '2026-11-30T17:19:10.000+00:00', text: 'just us.' });
    const rooms = await eventually(async () => {
      const parsed = sacRoomsResponseSchema.parse((await getBody(served.app, `/api/sac/rooms?source=${served.source.ref.id}`)).json);
      return parsed.rooms.find((candidate) => candidate.room.startsWith('dm-'))?.entries === 2 ? parsed.rooms : undefined;
    }, 'the room of two');
    const pair = rooms.find((candidate) => candidate.room.startsWith('dm-'))!;
    assert.equal(pair.kind, 'pair');
    assert.deepEqual(pair.pair, [API, WEB]);
    assert.deepEqual(pair.seats, [API, WEB]);
    assert.equal(rooms.find((candidate) => candidate.room === 'team')!.kind, 'room');
  });

  it('searches sac entries by text, with its own type, room and writer filters', async () => {
    const search = async (query: string) => {
      const body = await getBody(served.app, `/api/search?${query}`);
      return searchResponseSchema.parse(body.json).hits.map((hit) => sacSearchHitSchema.parse(hit));
    };
    const cart = await search('q=cart');
    assert.deepEqual(cart.map((hit) => hit.entryType).sort(), ['QUESTION', 'REQUEST']);
    assert.equal(cart[0]!.match !== null, true);
    assert.deepEqual((await search('q=cart&sac.type=REQUEST')).map((hit) => hit.seat), [API]);
    assert.deepEqual((await search(`sac.writer=${encodeURIComponent(WEB)}&sac.room=team`)).map((hit) => hit.entryType), ['ANSWER']);
    assert.deepEqual(await search('sac.room=nowhere'), []);
    // A filter of the record's facts selects no sac entry.
    assert.deepEqual(await search('q=cart&record.outcome=queued'), []);
  });

  // Last: it adds a room to the store the other tests read.
  it("searches newest first across a room's seat files, an entry written with an earlier time than the one before it among them", async () => {
    const entries: [string, string, string][] = [
      [WEB, '2026-11-30T10:00:00.000+00:00', 'deploy one'],
      [WEB, '2026-11-30T12:00:00.000+00:00', 'deploy three'],
      // The writer's clock went back: the file's order is not time order here.
      [WEB, '2026-11-30T11:00:00.000+00:00', 'deploy two'],
      [API, '2026-11-30T11:30:00.000+00:00', 'deploy elsewhere'],
    ];
    for (const [seat, ts, text] of entries) await writer.send({ op: 'send', room: 'order', seat, ts, type: 'FACT', text });
    const texts = async (query: string) => {
      const body = await getBody(served.app, `/api/search?q=deploy&sac.room=order${query}`);
      return searchResponseSchema.parse(body.json).hits.map((hit) => sacSearchHitSchema.parse(hit).snippet);
    };
    await eventually(async () => ((await texts('')).length === 4 ? true : undefined), 'the room read');
    assert.deepEqual(await texts(''), ['deploy three', 'deploy elsewhere', 'deploy two', 'deploy one']);
    assert.deepEqual(await texts('&limit=2'), ['deploy three', 'deploy elsewhere']);
  });
});

describe('a set-agent-comm store written on another machine', () => {
  it('says each seat’s liveness is unknown, naming both hosts: a pid there is never looked up here', async () => {
    const elsewhere = makeTempRecord('sac-elsewhere-');
    const elsewhereWriter = await startSacWriter(elsewhere.dir);
    const host = `not-${hostname()}`;
    await writeExampleStore(elsewhereWriter, host);
    const app = await startSacApp(elsewhere.dir);
    try {
      const conversations = await listSeats(app.app);
      assert.deepEqual(conversations.map((summary) => summary.liveness.word), ['unknown', 'unknown', 'unknown']);
      for (const summary of conversations) {
        assert.match(summary.liveness.why, new RegExp(`^its writers ran on host "${host}" \\(registry\\.json's host for its agent\\), not on this machine: their pids are not looked up here; it last checked in \\d+ days? ago$`));
      }
      // Its session not known to be gone, what is past sac's cursor is not a backlog.
      const web = sacSeatResponseSchema.parse((await getBody(app.app, seatUrl(WEB))).json);
      assert.deepEqual(entriesOf(web.received).map((entry) => entry.sacCursor), ['read', 'read', 'unread']);
    } finally {
      await app.close();
      await elsewhereWriter.close();
      elsewhere.remove();
    }
  });
});
