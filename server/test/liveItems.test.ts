import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LiveItem } from '../../shared/wire/common.ts';
import { nameAt, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import type { Dashboard } from '../dashboard.ts';
import { startWriter, type Writer } from '../../tools/writer/writerClient.ts';
import { connectEventStream, type EventStream, type Notice } from './eventStream.ts';
import { eventually, makeTempRecord, startTestDashboard } from './harness.ts';
import { sourceRefOf } from '../sources/sourceRef.ts';

// The live view's feed: every item a writer process writes arrives as an item notice, in the
// order written, each state of it once, with the core's facts in the record's words.

const record = makeTempRecord();
let dashboard: Dashboard;
let writer: Writer;
let events: EventStream;
/** Where an entry opens in the browser: its record, its session, its file, as today's addresses name them. */
const linkOf = (sessionId: string, file: string) => `/source/${sourceRefOf('record', record.dir).id}/conversation/${sessionId}/item/${encodeURIComponent(file)}`;

before(async () => {
  writer = await startWriter(record.dir);
  dashboard = await startTestDashboard(record.dir);
  await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'first scan');
  events = await connectEventStream(dashboard.url);
  await events.next(({ event }) => event.type === 'hello');
});

after(async () => {
  events.close();
  await writer.kill();
  await dashboard.close();
  record.remove();
});

type Told = { sessionId: string; item: LiveItem };

/** Every item told of so far for a session, in the order told. */
function toldOf(sessionId: string): Told[] {
  return events.notices.flatMap(({ event }: Notice) => (event.type === 'items' && event.sessionId === sessionId ? event.items.map((item) => ({ sessionId, item })) : []));
}

async function itemTold(sessionId: string, match: (item: LiveItem) => boolean, what: string, timeoutMs = 5_000): Promise<LiveItem> {
  return eventually(() => toldOf(sessionId).find(({ item }) => match(item))?.item, what, timeoutMs);
}

function entry<T extends Record<string, unknown>>(sessionId: string, value: T): T {
  return { ...value, sessionId };
}

describe('item notices', () => {
  it('every write of a burst of 2,000 arrives as an item notice, in order, none twice, pending before parsed', { timeout: 120_000 }, async () => {
    const sessionId = 'burst-of-2000';
    const count = 2_000;
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    const start = await itemTold(sessionId, (item) => item.kind === 'start' && item.evidence === 'parsed', 'the start entry');
    const last = await writer.send({ op: 'burst', sessionId, count, startSeq: 2, cwd: '/home/dev/projects/burst' });
    const lastFile = last.file!.split('/').at(-1)!;
    await itemTold(sessionId, (item) => item.key === lastFile && item.evidence === 'parsed', 'the last write, parsed', 60_000);
    // Nothing more is on its way for the burst once the last file parsed, but allow a straggler's flush.
    await new Promise((resolve) => setTimeout(resolve, 200));

    // The start entry is not the burst's: it may also have been told while being written (no kind yet).
    const told = toldOf(sessionId).map(({ item }) => item).filter((item) => item.key !== start.key);
    const seen = new Set<string>();
    const states = new Map<string, string[]>();
    const firstOrder: string[] = [];
    for (const item of told) {
      const once = `${item.key} ${item.evidence}`;
      assert.ok(!seen.has(once), `told twice: ${once}`);
      seen.add(once);
      if (!states.has(item.key)) {
        states.set(item.key, []);
        firstOrder.push(item.key);
      }
      states.get(item.key)!.push(item.evidence);
    }
    assert.equal(states.size, count, 'every write told');
    const seqOf = (key: string) => Number(/-(\d+)\.json$/.exec(key)![1]);
    assert.deepEqual(firstOrder.map(seqOf), Array.from({ length: count }, (_, i) => i + 2), 'told in the order written');
    for (const [key, evidences] of states) {
      assert.ok(evidences.join() === 'parsed' || evidences.join() === 'pending,parsed', `${key}: ${evidences.join(' then ')}`);
    }
    const parsed = told.filter((item) => item.evidence === 'parsed');
    assert.ok(parsed.every((item) => item.kind === 'message' && item.firstLine !== null && item.firstLine.includes('(#')), 'each with its first line');
    assert.ok(parsed.every((item) => item.link === linkOf(sessionId, item.key)), 'each opens at its entry, at its address today');
  });

  it('a file written slowly is told pending, then told again as its entry with its facts in the record words', async () => {
    const sessionId = 'slow-write';
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    const text = 'First line of the question\nsecond line\nthird';
    await writer.send({
      op: 'write',
      sessionId,
      seq: 2,
      entry: entry(sessionId, sentEntry(1, text, { isQueued: false, reason: 'peer inbox full' })),
      chunkBytes: 60,
      chunkDelayMs: 150,
    });
    const file = nameAt(1, 2);
    const pending = await itemTold(sessionId, (item) => item.key === file && item.evidence === 'pending', 'the pending file');
    assert.equal(pending.degraded, true);
    assert.equal(pending.firstLine, null);
    const parsed = await itemTold(sessionId, (item) => item.key === file && item.evidence === 'parsed', 'the parsed entry');
    assert.deepEqual(parsed, {
      key: file,
      at: '2026-11-20T09:00:01.000Z',
      kind: 'message',
      side: 'sent',
      peer: 'uds:/tmp/cc-socks/4242.sock',
      words: 'not queued: peer inbox full',
      refused: true,
      evidence: 'parsed',
      degraded: false,
      firstLine: 'First line of the question',
      link: linkOf(sessionId, file),
    });
    const told = toldOf(sessionId).map(({ item }) => `${item.key} ${item.evidence}`);
    assert.ok(told.indexOf(`${file} pending`) < told.indexOf(`${file} parsed`));
  });

  it('a gap is told as it appears, a rejected receive says so, a withheld text has no first line, a long line is cut at 200 characters', async () => {
    const sessionId = 'gap-and-words';
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    const long = `${'é'.repeat(199)}😀 and more`;
    await writer.send({ op: 'write', sessionId, seq: 2, entry: entry(sessionId, receivedEntry(1, long, { outcome: 'rejected' })) });
    const { text: _withheld, ...metadataOnly } = sentEntry(2, '', { textLength: 12, textHash: `sha256:${'0'.repeat(64)}` });
    await writer.send({ op: 'write', sessionId, seq: 5, entry: entry(sessionId, metadataOnly) });
    const rejected = await itemTold(sessionId, (item) => item.key === nameAt(1, 2) && item.evidence === 'parsed', 'the rejected receive');
    assert.equal(rejected.words, 'rejected: the receive hook was refused');
    assert.equal(rejected.refused, true);
    assert.equal(rejected.side, 'received');
    // 199 characters and no half of the pair that would be the 200th and 201st.
    assert.equal(rejected.firstLine, 'é'.repeat(199));
    const gap = await itemTold(sessionId, (item) => item.evidence === 'gap', 'the gap');
    assert.equal(gap.words, 'entries 3–4 missing: a write may have failed or a file was removed');
    assert.equal(gap.degraded, true);
    assert.equal(gap.kind, null);
    assert.equal(gap.link, linkOf(sessionId, nameAt(2, 5)));
    const withheld = await itemTold(sessionId, (item) => item.key === nameAt(2, 5) && item.evidence === 'parsed', 'the withheld entry');
    assert.equal(withheld.firstLine, null);
    assert.equal(withheld.words, 'queued by the host');
    const gaps = toldOf(sessionId).filter(({ item }) => item.evidence === 'gap');
    assert.equal(gaps.length, 1, 'the gap told once');
  });

  it('entries written out of order moments apart tell no gap: a gap is told once it has lasted a moment, not while the next write is landing', async () => {
    const sessionId = 'out-of-order';
    await writer.send({ op: 'write', sessionId, seq: 1, entry: entry(sessionId, startEntry(0)) });
    await writer.send({ op: 'write', sessionId, seq: 3, entry: entry(sessionId, sentEntry(2, 'third, written second')) });
    await itemTold(sessionId, (item) => item.key === nameAt(2, 3) && item.evidence === 'parsed', 'the third entry');
    await writer.send({ op: 'write', sessionId, seq: 2, entry: entry(sessionId, sentEntry(1, 'second, written third')) });
    await itemTold(sessionId, (item) => item.key === nameAt(1, 2) && item.evidence === 'parsed', 'the second entry');
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.deepEqual(toldOf(sessionId).filter(({ item }) => item.evidence === 'gap').map(({ item }) => item.key), []);
  });
});
