import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../seededRandom.ts';
import { ONE, THREE, TWO, encode, lineOf } from './fixtures.test.ts';
import { createSegmentReading, readSegmentBytes, type SegmentReading } from './segment.ts';
import { NOTHING_INDEXED, createSentIndex, listSentBy, type IndexedMark } from './sentBy.ts';
import { foldTimeline } from './timeline.ts';

// The index a reader keeps of what each id sent, as it reads logs piece by piece: it must say, at
// every moment, what listSentBy says of the logs folded whole. It gets columns and numbers, never
// a path, and pairs nothing but a `from` with the id written in it.

const IDS = [ONE, TWO, THREE];
const SENDERS = [...IDS, null, 'issues', 'peer:box:42'];

/** A reader's view of one log: its segments' readings, and where the index stands in it. */
type Log = { id: string; segments: { name: string; bytes: Uint8Array; read: number; reading: SegmentReading }[]; mark: IndexedMark };

function randomLog(id: string, random: () => number): Log {
  const segments: Log['segments'] = [];
  const count = 1 + Math.floor(random() * 3);
  for (let s = 1; s <= count; s++) {
    let text = '';
    for (let n = Math.floor(random() * 6); n > 0; n--) {
      const from = SENDERS[Math.floor(random() * SENDERS.length)]!;
      const ts = `2026-11-30T10:${String(Math.floor(random() * 60)).padStart(2, '0')}:00.000Z`;
      text += random() < 0.2 ? lineOf({ ts, kind: 'status', status: 'working', proposal: null, note: null }) : lineOf({ ts, kind: 'sent', mid: `m${n}`, text: `to ${id}`, from });
    }
    const name = `timeline/${String(s).padStart(12, '0')}.ndjson`;
    segments.push({ name, bytes: encode(text), read: 0, reading: createSegmentReading(name) });
  }
  return { id, segments, mark: NOTHING_INDEXED };
}

/** Reads a little more of a log, as appends would come: returns whether anything was read. */
function readMore(log: Log, random: () => number): boolean {
  const segment = log.segments.find((candidate) => candidate.read < candidate.bytes.length);
  if (segment === undefined) return false;
  const last = segment === log.segments.at(-1);
  const to = Math.min(segment.bytes.length, segment.read + 1 + Math.floor(random() * 60));
  // A segment before the last is closed: it is read whole at once.
  const end = last ? to : segment.bytes.length;
  const bytes = segment.bytes.subarray(segment.reading.offset, end);
  readSegmentBytes(segment.reading, bytes, { closed: !last });
  segment.read = end;
  return true;
}

const readingsOf = (log: Log) => log.segments.map((segment) => segment.reading);

describe('the sent-by index, kept as logs are read', () => {
  it('says at every moment what listSentBy says of the logs as read so far, for random logs read in pieces', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = createSeededRandom(seed);
      const logs = new Map(IDS.map((id) => [id, randomLog(id, random)]));
      const index = createSentIndex((id) => readingsOf(logs.get(id)!));
      const told = new Set<string>();
      for (let step = 0; step < 200; step++) {
        const log = [...logs.values()][Math.floor(random() * logs.size)]!;
        if (!readMore(log, random)) continue;
        log.mark = index.index(log.id, readingsOf(log), log.mark, told);
        const folds = [...logs.values()].map((each) => foldTimeline(each.id, null, readingsOf(each)));
        for (const from of SENDERS) {
          if (from === null) continue;
          const expected = listSentBy(from, folds);
          const sent = index.sentBy(from);
          assert.equal(sent.count, expected.length, `seed ${seed}, ${from}`);
          // The index keeps lines in the order it took them; a page orders them by time.
          const pairs = (list: [string, number][]) => list.map(([receiver, line]) => `${receiver} ${line}`).sort();
          assert.deepEqual(pairs(sent.receivers.map((receiver, i) => [receiver, sent.lines[i]!])), pairs(expected.map((item) => [item.receiver, item.line])), `seed ${seed}, ${from}`);
          assert.deepEqual(sent.items.map((item) => item.evidence), sent.items.map(() => 'parsed'));
        }
      }
    }
  });

  it('tells each sender whose lines changed, and takes a log out again when it is forgotten', () => {
    const random = createSeededRandom(7);
    const log = randomLog(TWO, () => 0.5);
    log.segments = [{ name: 'timeline/000000000001.ndjson', bytes: encode(lineOf({ ts: '2026-11-30T10:00:00.000Z', kind: 'sent', mid: 'a', text: 'hi', from: ONE }) + lineOf({ ts: '2026-11-30T10:00:05.000Z', kind: 'sent', mid: 'b', text: 'hi', from: 'issues' })), read: 0, reading: createSegmentReading('timeline/000000000001.ndjson') }];
    const index = createSentIndex(() => readingsOf(log));
    while (readMore(log, random));
    const told = new Set<string>();
    log.mark = index.index(TWO, readingsOf(log), log.mark, told);
    assert.deepEqual([...told].sort(), [ONE, 'issues'].sort());
    assert.equal(index.sentBy(ONE).count, 1);
    assert.equal(index.sentBy(ONE).lastAt, '2026-11-30T10:00:00.000Z');
    assert.equal(index.sentBy(ONE).items[0]!.evidence, 'parsed');
    const gone = new Set<string>();
    log.mark = index.unindex(TWO, readingsOf(log), log.mark, gone);
    assert.deepEqual([...gone].sort(), [ONE, 'issues'].sort());
    assert.equal(index.sentBy(ONE).count, 0);
    assert.deepEqual(log.mark, NOTHING_INDEXED);
  });

  it('never takes a log’s own lines, nor a line from a person, as sent by anyone', () => {
    const log: Log = { id: ONE, segments: [], mark: NOTHING_INDEXED };
    const bytes = encode(lineOf({ ts: '2026-11-30T10:00:00.000Z', kind: 'sent', mid: 'a', text: 'self', from: ONE }) + lineOf({ ts: '2026-11-30T10:00:01.000Z', kind: 'sent', mid: 'b', text: 'person', from: null }));
    log.segments.push({ name: 'timeline/000000000001.ndjson', bytes, read: 0, reading: createSegmentReading('timeline/000000000001.ndjson') });
    readSegmentBytes(log.segments[0]!.reading, bytes);
    const index = createSentIndex(() => readingsOf(log));
    const told = new Set<string>();
    index.index(ONE, readingsOf(log), NOTHING_INDEXED, told);
    assert.equal(told.size, 0);
    assert.equal(index.sentBy(ONE).count, 0);
  });
});
