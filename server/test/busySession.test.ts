import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sessionResponseSchema, type SessionItemWire } from '../../shared/wire/record.ts';
import { receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { activityResponseSchema } from '../../shared/wire/activity.ts';
import { startWriter, type Writer } from '../../tools/writer/writerClient.ts';
import type { Dashboard } from '../dashboard.ts';
import { entryFileName } from '../demo/entryFile.ts';
import { eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';
import { A, PROJECT, sessionJson, startSpexRig } from './spexHarness.ts';

// Reading a busy session: its pages narrowed to one side, one peer or the messages refused, and its activity (items per
// minute, messages per peer) summed by the server from its index, whatever pages a browser holds.

const record = makeTempRecord('rec-busy-');
let writer: Writer;
let dashboard: Dashboard;

const SESSION = 'busy';
const CWD = '/home/dev/projects/busy';
const BASE = Date.UTC(2026, 10, 20, 9, 0, 0);
/** Entry `seq` is written at minute `minute`, second `seq`. */
const atOf = (minute: number, seq: number) => new Date(BASE + minute * 60_000 + seq * 1000).toISOString();
const files = new Map<number, string>();

async function write(seq: number, minute: number, entry: Record<string, unknown>): Promise<void> {
  const at = atOf(minute, seq);
  const ack = await writer.send({ op: 'write', sessionId: SESSION, seq, at, entry: { ...entry, sessionId: SESSION, cwd: CWD, at } });
  files.set(seq, ack.file!.split('/').at(-1)!);
}

const ALICE = { as: 'uds:/tmp/cc-socks/alice.sock' };
const BOB = { as: 'api-service' };
/** A peer the host named "unknown": not the same as a peer the host did not name. */
const NAMED_UNKNOWN = { as: 'unknown' };

before(async () => {
  writer = await startWriter(record.dir);
  await write(1, 0, startEntry(0));
  await write(2, 0, sentEntry(0, 'one', { peer: ALICE }));
  // Refused: a sent message the host did not queue, a received one it rejected.
  await write(3, 0, sentEntry(0, 'two', { peer: ALICE, isQueued: false }));
  await write(4, 0, receivedEntry(0, 'three', { peer: BOB }));
  await write(5, 2, receivedEntry(0, 'four', { peer: ALICE, outcome: 'rejected' }));
  await write(6, 2, { ...receivedEntry(0, 'five'), peer: undefined, envelope: undefined });
  await write(7, 2, sentEntry(0, 'six', { peer: NAMED_UNKNOWN }));
  // 8 is missing: a gap, which has no time and stays whatever the filter.
  await writer.send({ op: 'raw', path: `${SESSION}/${entryFileName(atOf(5, 9), 9)}`, bytes: Buffer.from('{"kind":"mess').toString('base64'), mtime: new Date(Date.now() - 3_600_000).toISOString() });
  await write(10, 5, receivedEntry(0, 'seven', { peer: BOB }));
  dashboard = await startTestDashboard(record.dir);
  await eventually(async () => {
    const page = await getJson(dashboard, `/api/sessions/${SESSION}?limit=1`, sessionResponseSchema);
    return page.page.total === 10 ? true : undefined;
  }, 'the session read whole');
});

after(async () => {
  await dashboard?.close();
  await writer?.kill();
  record.remove();
});

function describeItem(item: SessionItemWire): string {
  if (item.type === 'gap') return 'gap';
  if (item.type === 'stray') return `stray ${item.file}`;
  const facts = item.facts;
  if (facts?.kind === 'message') return `${facts.side} ${facts.peer?.as ?? 'none'}`;
  return facts?.kind ?? item.evidence;
}

async function pageOf(query: string) {
  return getJson(dashboard, `/api/sessions/${SESSION}?${query}`, sessionResponseSchema);
}

describe('a session narrowed by side and by peer', () => {
  it('a filter by side keeps that side\'s messages, and every item that is not a message, in the session\'s order', async () => {
    const page = await pageOf('side=sent');
    assert.deepEqual(page.items.map(describeItem), ['start', `sent ${ALICE.as}`, `sent ${ALICE.as}`, 'sent unknown', 'gap', 'damaged']);
    assert.equal(page.page.total, 6);
  });

  it('a filter by peer matches the peer exactly as the host gave it, on both sides', async () => {
    const page = await pageOf(`peer=${encodeURIComponent(ALICE.as)}`);
    assert.deepEqual(page.items.map(describeItem), ['start', `sent ${ALICE.as}`, `sent ${ALICE.as}`, `received ${ALICE.as}`, 'gap', 'damaged']);
    const part = await pageOf(`peer=${encodeURIComponent('alice')}`);
    assert.deepEqual(part.items.map(describeItem), ['start', 'gap', 'damaged'], 'a part of a peer is not that peer');
  });

  it('the messages whose host named no peer are one filter, and a peer named "unknown" is another', async () => {
    const none = await pageOf('peerUnknown=1');
    assert.deepEqual(none.items.map(describeItem), ['start', 'received none', 'gap', 'damaged']);
    const named = await pageOf('peer=unknown');
    assert.deepEqual(named.items.map(describeItem), ['start', 'sent unknown', 'gap', 'damaged']);
  });

  it('side and peer together, paged: offsets count in the filtered order', async () => {
    const first = await pageOf(`side=received&peer=${encodeURIComponent(BOB.as)}&offset=0&limit=2`);
    assert.deepEqual(first.items.map(describeItem), ['start', `received ${BOB.as}`]);
    assert.equal(first.page.total, 5);
    const rest = await pageOf(`side=received&peer=${encodeURIComponent(BOB.as)}&offset=2&limit=5`);
    assert.deepEqual(rest.items.map(describeItem), ['gap', 'damaged', `received ${BOB.as}`]);
  });

  it('the messages refused are a filter: a sent message the host did not queue, a received one it rejected; with a side, that side’s', async () => {
    const refused = await pageOf('refused=1');
    assert.deepEqual(refused.items.map(describeItem), ['start', `sent ${ALICE.as}`, `received ${ALICE.as}`, 'gap', 'damaged']);
    assert.deepEqual(
      refused.items.flatMap((item) => (item.type === 'file' && item.facts?.kind === 'message' ? [item.file] : [])),
      [files.get(3), files.get(5)],
    );
    const sent = await pageOf('refused=1&side=sent');
    assert.deepEqual(sent.items.map(describeItem), ['start', `sent ${ALICE.as}`, 'gap', 'damaged']);
    const activity = await getJson(dashboard, `/api/sessions/${SESSION}/activity?refused=1&side=received`, activityResponseSchema);
    assert.deepEqual(activity.filter, { side: 'received', peer: null, refused: true });
    assert.equal(activity.messages, 1);
    assert.equal((await fetch(new URL(`/api/sessions/${SESSION}?refused=yes`, dashboard.url))).status, 400);
  });

  it('a link to an entry the filter hides is not found in the filtered pages, and is found without it', async () => {
    const hidden = await fetch(new URL(`/api/sessions/${SESSION}?side=received&around=${encodeURIComponent(files.get(2)!)}`, dashboard.url));
    assert.equal(hidden.status, 404);
    const shown = await pageOf(`side=sent&around=${encodeURIComponent(files.get(7)!)}&limit=2`);
    assert.ok(shown.items.some((item) => item.type === 'file' && item.file === files.get(7)));
  });

  it('a filter that is not one gets a 400 that says what is expected', async () => {
    for (const query of ['side=both', 'peer=', 'peerUnknown=yes', `peer=x&peerUnknown=1`]) {
      const response = await fetch(new URL(`/api/sessions/${SESSION}?${query}`, dashboard.url));
      assert.equal(response.status, 400, query);
      const body = (await response.json()) as { message: string };
      assert.match(body.message, /side|peer/, query);
    }
  });
});

describe('a session\'s activity, from the index', () => {
  it('counts items per minute, each with where its first item is, and messages per peer, unknown apart from "unknown"', async () => {
    const activity = await getJson(dashboard, `/api/sessions/${SESSION}/activity`, activityResponseSchema);
    assert.equal(activity.schema, 'rec.session-activity/1');
    assert.equal(activity.total, 10);
    // The start entry, the gap and the damaged file are items, not messages.
    assert.equal(activity.messages, 7);
    assert.deepEqual(activity.filter, { side: null, peer: null, refused: false });
    assert.deepEqual(activity.minutes, [
      { minute: new Date(BASE).toISOString(), count: 4, firstIndex: 0 },
      { minute: new Date(BASE + 2 * 60_000).toISOString(), count: 3, firstIndex: 4 },
      { minute: new Date(BASE + 5 * 60_000).toISOString(), count: 2, firstIndex: 8 },
    ]);
    assert.equal(activity.undated, 1);
    assert.deepEqual(activity.peers, [
      { as: ALICE.as, sent: 2, received: 1 },
      { as: BOB.as, sent: 0, received: 2 },
      { as: null, sent: 0, received: 1 },
      { as: 'unknown', sent: 1, received: 0 },
    ]);
    assert.doesNotMatch(JSON.stringify(activity), /one|three|seven/, 'no text is in it');
  });

  it('with a filter, minutes count and place the filtered items, where a filtered page has them; peers stay whole', async () => {
    const activity = await getJson(dashboard, `/api/sessions/${SESSION}/activity?side=received`, activityResponseSchema);
    assert.deepEqual(activity.filter, { side: 'received', peer: null, refused: false });
    assert.equal(activity.total, 7);
    assert.equal(activity.messages, 4, 'the received messages; the start entry, the gap and the damaged file stay');
    assert.deepEqual(
      activity.minutes.map((minute) => [minute.count, minute.firstIndex]),
      [
        [2, 0],
        [2, 2],
        [2, 5],
      ],
    );
    const page = await pageOf(`side=received&offset=${activity.minutes[2]!.firstIndex}&limit=1`);
    assert.deepEqual(page.items.map(describeItem), ['damaged']);
    assert.equal(activity.peers.length, 4);
    const none = await getJson(dashboard, `/api/sessions/${SESSION}/activity?peerUnknown=1`, activityResponseSchema);
    assert.deepEqual(none.filter, { side: null, peer: { as: null }, refused: false });
  });

  it('a session it does not hold is a 404, and a bad filter a 400', async () => {
    assert.equal((await fetch(new URL('/api/sessions/nobody/activity', dashboard.url))).status, 404);
    assert.equal((await fetch(new URL(`/api/sessions/${SESSION}/activity?side=up`, dashboard.url))).status, 400);
  });

  it('follows new entries as they are written', async () => {
    await write(11, 5, sentEntry(0, 'eight', { peer: BOB }));
    const activity = await eventually(async () => {
      const answer = await getJson(dashboard, `/api/sessions/${SESSION}/activity`, activityResponseSchema);
      return answer.total === 11 ? answer : undefined;
    }, 'the new entry counted');
    assert.deepEqual(activity.peers.find((peer) => peer.as === BOB.as), { as: BOB.as, sent: 1, received: 2 });
    assert.equal(activity.minutes.at(-1)!.count, 3);
  });
});

describe('a kind that has no activity summary', () => {
  it('answers 404 with words, not a crash', async () => {
    const rig = await startSpexRig(async (spex) => {
      await spex.send({ op: 'session', project: PROJECT, sessionId: A, value: sessionJson(A) });
    });
    try {
      await eventually(() => (rig.source.conversation(A) !== null ? true : undefined), 'the spex session read');
      const answer = await rig.get(`/api/sessions/${A}/activity`);
      assert.equal(answer.status, 404);
      assert.match(answer.body.message, /spex conversation has no activity summary/);
    } finally {
      await rig.close();
    }
  });
});
