import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { edgeMessagesResponseSchema, mapResponseSchema, type MapResponse } from '../../shared/wire/map.ts';
import { SAC_ROOM, SEAT_A, SEAT_B, SESSION_A, SESSION_B, writeTwoSessions, type TwoSessions } from '../../tools/writer/twoSessions.ts';
import type { Dashboard } from '../dashboard.ts';
import type { Source } from '../sources/source.ts';
import { createStoreMap } from '../sources/storeMap.ts';
import { eventually, getJson, makeTempRecord, startThreeStoreDashboard } from './harness.ts';

// The map of who talks to whom, from a record, a spex home and a set-agent-comm store, each
// written by its own writer, holding two sessions whose ids share their first 8 characters.

const A = `session:${SESSION_A}`;
const B = `session:${SESSION_B}`;
const folder = makeTempRecord('rec-map-');
let stores: TwoSessions;
let dashboard: Dashboard;

before(async () => {
  stores = await writeTwoSessions(folder.dir);
  dashboard = await startThreeStoreDashboard(stores);
});

after(async () => {
  await dashboard.close();
  await stores.close();
  folder.remove();
});

const idOf = (kind: string) => dashboard.sources.find((source) => source.ref.kind === kind)!.ref.id;
const edgeOf = (map: MapResponse, from: string, to: string) => map.edges.find((edge) => edge.from === from && edge.to === to);
const countsOf = (map: MapResponse, from: string, to: string) =>
  (edgeOf(map, from, to)?.counts ?? []).map(({ source, ...count }) => ({ kind: source.kind, ...count })).sort((a, b) => `${a.kind}${a.seenFrom}`.localeCompare(`${b.kind}${b.seenFrom}`));

describe('the map of who talks to whom', () => {
  it('two sessions whose ids share their first 8 characters are two nodes, each held by all three stores, and nothing is a node by a prefix', async () => {
    const map = await getJson(dashboard, '/api/map', mapResponseSchema);
    const sessions = map.nodes.filter((node) => node.party.type === 'session');
    assert.deepEqual(sessions.map((node) => node.key).sort(), [A, B]);
    const heldBy = (key: string) => map.nodes.find((node) => node.key === key)!.held.map((held) => `${held.source.kind}:${held.conversation}`).sort();
    assert.deepEqual(heldBy(A), [`record:${SESSION_A}`, `sac:${SEAT_A}`, `spex:${SESSION_A}`]);
    assert.deepEqual(heldBy(B), [`record:${SESSION_B}`, `sac:${SEAT_B}`, `spex:${SESSION_B}`]);
    assert.equal(map.nodes.find((node) => node.key === A)!.project, '/home/dev/projects/checkout');
    assert.ok(!map.nodes.some((node) => node.key.includes('9c0ffee0') && node.party.type !== 'session'), 'no node is named by a seat or a prefix of an id');
  });

  it('an edge from A to B counts each store’s messages apart, by the side that states them, with the refused one apart', async () => {
    const map = await getJson(dashboard, '/api/map', mapResponseSchema);
    assert.deepEqual(countsOf(map, A, B), [
      { kind: 'record', seenFrom: 'receiver', messages: 1, notQueued: 0, rejected: 0, broadcast: 0 },
      { kind: 'record', seenFrom: 'sender', messages: 2, notQueued: 1, rejected: 0, broadcast: 0 },
      { kind: 'sac', seenFrom: 'sender', messages: 1, notQueued: 0, rejected: 0, broadcast: 0 },
      { kind: 'spex', seenFrom: 'receiver', messages: 1, notQueued: 0, rejected: 0, broadcast: 0 },
    ]);
  });

  it('a sac entry to everyone in the room is an edge to each other member, counted as a broadcast', async () => {
    const map = await getJson(dashboard, '/api/map', mapResponseSchema);
    assert.deepEqual(countsOf(map, B, A), [{ kind: 'sac', seenFrom: 'sender', messages: 1, notQueued: 0, rejected: 0, broadcast: 1 }]);
  });

  it('a person is one node, and a peer named only by its socket is a node as written, its rejected message counted apart', async () => {
    const map = await getJson(dashboard, '/api/map', mapResponseSchema);
    assert.deepEqual(countsOf(map, 'person', A), [{ kind: 'spex', seenFrom: 'receiver', messages: 1, notQueued: 0, rejected: 0, broadcast: 0 }]);
    const socket = `as-written:${idOf('record')}:uds:/tmp/cc-socks/9999.sock`;
    assert.deepEqual(map.nodes.find((node) => node.key === socket)?.party, { type: 'as-written', source: idOf('record'), as: 'uds:/tmp/cc-socks/9999.sock' });
    assert.deepEqual(countsOf(map, socket, B), [{ kind: 'record', seenFrom: 'receiver', messages: 1, notQueued: 0, rejected: 1, broadcast: 0 }]);
  });

  it('the time window and the store filter narrow the messages counted', async () => {
    const early = await getJson(dashboard, `/api/map?until=${encodeURIComponent('2026-11-30T09:01:30.000Z')}`, mapResponseSchema);
    assert.deepEqual(countsOf(early, A, B), [
      { kind: 'record', seenFrom: 'receiver', messages: 1, notQueued: 0, rejected: 0, broadcast: 0 },
      { kind: 'record', seenFrom: 'sender', messages: 1, notQueued: 0, rejected: 0, broadcast: 0 },
    ]);
    assert.equal(edgeOf(early, B, A), undefined);
    const sacOnly = await getJson(dashboard, `/api/map?stores=${idOf('sac')}`, mapResponseSchema);
    assert.deepEqual(sacOnly.sources.map((source) => source.kind), ['sac']);
    assert.deepEqual(countsOf(sacOnly, A, B).map((count) => count.kind), ['sac']);
    assert.deepEqual(sacOnly.nodes.map((node) => node.key).sort(), [A, B]);
  });

  it('an edge lists its messages, newest first, each an item of a conversation of its store with its text’s first line as written', async () => {
    const answer = await getJson(dashboard, `/api/map/messages?from=${encodeURIComponent(A)}&to=${encodeURIComponent(B)}`, edgeMessagesResponseSchema);
    assert.equal(answer.total, 5);
    assert.deepEqual(
      answer.messages.map((message) => `${message.source.kind} ${message.conversation} ${message.key}: ${message.firstLine}`),
      [
        `sac ${SEAT_A} channels/${SAC_ROOM}/${SEAT_A}.md:0: Is the refund endpoint frozen?`,
        `spex ${SESSION_B} line-1: Please review the retry loop.`,
        `record ${SESSION_A} 2026-11-30T090200.000Z-3.json: And the refunds?`,
        `record ${SESSION_A} 2026-11-30T090100.000Z-2.json: Can you review payments/client.ts?`,
        `record ${SESSION_B} 2026-11-30T090100.000Z-2.json: Can you review payments/client.ts?`,
      ],
    );
    assert.deepEqual(new Set(answer.messages.map((message) => message.noFirstLine)), new Set([null]));
    assert.equal(answer.messages.find((message) => message.key.endsWith('-3.json'))!.refused, 'not-queued');
  });

  it('a bad window is a 400 that says what is wrong', async () => {
    const response = await fetch(new URL('/api/map?since=yesterday', dashboard.url));
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as { message: string }).message, /since/);
  });

  it('a window whose since is after its until is a 400 that says so, for the map and an edge’s messages', async () => {
    const window = 'since=2026-11-30T10:00:00.000Z&until=2026-11-30T09:00:00.000Z';
    for (const path of [`/api/map?${window}`, `/api/map/messages?from=${encodeURIComponent(A)}&to=${encodeURIComponent(B)}&${window}`]) {
      const response = await fetch(new URL(path, dashboard.url));
      assert.equal(response.status, 400, path);
      assert.match(((await response.json()) as { message: string }).message, /since \(2026-11-30T10:00:00\.000Z\) is after until/, path);
    }
  });

  it('a message written after the map was drawn is counted on its edge', async () => {
    await stores.sacWriter.send({ op: 'send', room: SAC_ROOM, seat: SEAT_B, ts: '2026-11-30T09:07:00.000+00:00', type: 'ANSWER', text: 'Yes.', to: [SEAT_A] });
    await eventually(async () => {
      const map = await getJson(dashboard, '/api/map', mapResponseSchema);
      const sac = edgeOf(map, B, A)?.counts.find((count) => count.source.kind === 'sac');
      return sac?.messages === 2 && sac.broadcast === 1 ? true : undefined;
    }, 'the new entry on the edge from B to A');
  });

  it('a store’s messages are stated again only after it changed, and an answer asked again with nothing changed is the same JSON', async () => {
    const stated = new Map<string, number>();
    const counting = dashboard.sources.map((source): Source => ({
      ...source,
      mapFacts: () => {
        stated.set(source.ref.kind, (stated.get(source.ref.kind) ?? 0) + 1);
        return source.mapFacts!();
      },
    }));
    const storeMap = createStoreMap(counting);
    const first = storeMap.serializeMap({});
    assert.equal(storeMap.serializeMap({}), first);
    assert.deepEqual((await storeMap.describeEdgeMessages({ from: A, to: B }, new AbortController().signal)).total > 0, true);
    assert.deepEqual(Object.fromEntries(stated), { record: 1, spex: 1, sac: 1 });
    await stores.sacWriter.send({ op: 'send', room: SAC_ROOM, seat: SEAT_A, ts: '2026-11-30T09:08:00.000+00:00', type: 'ANSWER', text: 'Noted.', to: [SEAT_B] });
    const after = await eventually(async () => {
      const json = storeMap.serializeMap({});
      return json !== first ? json : undefined;
    }, 'the map after a sac entry');
    const sac = edgeOf(mapResponseSchema.parse(JSON.parse(after)), A, B)?.counts.find((count) => count.source.kind === 'sac');
    assert.equal(sac?.messages, 2);
    assert.deepEqual(Object.fromEntries(stated), { record: 1, spex: 1, sac: 2 }, 'only the store that changed is asked again');
  });

  it('a message whose store gives no text says why in place of its first line: a record entry written with its text withheld', async () => {
    const withheld = { kind: 'message', sessionId: SESSION_B, at: '2026-11-30T09:09:00.000Z', cwd: '/home/dev/projects/checkout', side: 'sent', peer: { as: 'uds:/tmp/cc-socks/4243.sock', sessionId: SESSION_A }, textLength: 12, textHash: `sha256:${'ab'.repeat(32)}`, isQueued: true };
    await stores.recordWriter.send({ op: 'write', sessionId: SESSION_B, seq: 4, entry: withheld });
    const message = await eventually(async () => {
      const answer = await getJson(dashboard, `/api/map/messages?from=${encodeURIComponent(B)}&to=${encodeURIComponent(A)}`, edgeMessagesResponseSchema);
      return answer.messages.find((one) => one.source.kind === 'record' && one.key.endsWith('-4.json'));
    }, 'the withheld entry on the edge from B to A');
    assert.equal(message.firstLine, null);
    assert.equal(message.noFirstLine, 'its text was withheld: the record keeps its length and hash');
  });

  it('each store answers a first line only for a key of the conversation asked, and says why for one it does not hold', async () => {
    const signal = new AbortController().signal;
    const of = (kind: string) => dashboard.sources.find((source) => source.ref.kind === kind)!;
    const spexB = await of('spex').firstLines(SESSION_B, ['line-1', 'line-99', `sent-1-${SESSION_B}`], signal);
    assert.deepEqual(Object.fromEntries(spexB), {
      'line-1': { line: 'Please review the retry loop.' },
      'line-99': { none: 'no such line in this session now' },
      [`sent-1-${SESSION_B}`]: { none: 'no such line in this session now' },
    });
    // The same line, from its sender's page: a key of that page.
    assert.deepEqual(Object.fromEntries(await of('spex').firstLines(SESSION_A, [`sent-1-${SESSION_B}`], signal)), { [`sent-1-${SESSION_B}`]: { line: 'Please review the retry loop.' } });
    assert.deepEqual(Object.fromEntries(await of('record').firstLines(SESSION_A, ['2026-11-30T090900.000Z-9.json'], signal)), { '2026-11-30T090900.000Z-9.json': { none: 'no such file in this session now' } });
    assert.deepEqual(Object.fromEntries(await of('sac').firstLines(SEAT_A, [`channels/${SAC_ROOM}/${SEAT_A}.md:1`, 'not a key'], signal)), {
      [`channels/${SAC_ROOM}/${SEAT_A}.md:1`]: { none: 'no such item in this set-agent-comm store now' },
      'not a key': { none: 'no such item in this set-agent-comm store now' },
    });
  });
});
