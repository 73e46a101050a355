import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../seededRandom.ts';
import { appendLineOutcome, createLineColumns, listLineItems, readInstantOf } from './columns.ts';
import { ONE, TWO, encode } from './fixtures.test.ts';
import type { LineOutcome } from './line.ts';
import { FACT_MAX_LENGTH, readLine } from './line.ts';
import { createSegmentReading, readSegmentBytes, type SegmentEnd, type TimelineItem } from './segment.ts';
import { foldTimeline, foldTimelineFacts } from './timeline.ts';

// The columns are a way of holding lines, never a second reading of them: the item a line's
// columns make is the item its outcome (readLine's) makes, whatever the line holds.

const SEGMENT = 'timeline/000000000001.ndjson';

/** Times as spex writes them, and every near miss, which stays a text. */
const TIMES = [
  '2026-11-30T17:18:57.126Z',
  '1970-01-01T00:00:00.000Z',
  '2024-02-29T23:59:59.999Z',
  '9999-12-31T23:59:59.999Z',
  '0100-01-01T00:00:00.000Z',
  '0099-12-31T23:59:59.999Z',
  '2026-02-29T00:00:00.000Z',
  '2026-13-01T00:00:00.000Z',
  '2026-11-30T24:00:00.000Z',
  '2026-11-30T17:60:00.000Z',
  '2026-11-30T17:18:60.000Z',
  '2026-11-30T17:18:57.126z',
  '2026-11-30T17:18:57.126+00:00',
  '2026-11-30T17:18:57Z',
  '2026-11-30 17:18:57.126Z',
  '2026-11-3OT17:18:57.126Z',
  '+02026-11-30T17:18:57.126Z',
  't',
  '',
];
const NAMES = [ONE, TWO, 'issues', 'peer:laptop:abc', '', 'sëssion', '日本', 'x'.repeat(129), 'y'.repeat(FACT_MAX_LENGTH + 1), 'a"quote', 'back\\slash', 'tab\there'];
const MIDS = ['3749dd68-26d5-41f5-aa25-dd0c3f8e5f81', 'm', '', 'mïd-é', '😀', 'm'.repeat(FACT_MAX_LENGTH), 'm'.repeat(FACT_MAX_LENGTH + 1), 'line\nbreak'];
const STATUSES = ['active', 'awaiting', 'parked', 'idle', 'x', '', 'x'.repeat(200)];
const PROPOSALS = [null, '', 'p', 'merge', 'close', 'other', 'p'.repeat(200)];
const NOTES = [null, '', 'n', 'a note', 'ünïcode — note', 7];
const TEXTS = ['plain', 'café — ✓', '"quoted"', 'line\nbreak', '', 7, null];

/** A line spex could write, or one near it: keys in any order, with escapes, spaces and facts of every kind. */
function createLine(random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const roll = random();
  const event: Record<string, unknown> =
    roll < 0.45
      ? { ts: pick(TIMES), kind: 'sent', mid: pick(MIDS), text: pick(TEXTS), from: random() < 0.3 ? null : pick(NAMES) }
      : roll < 0.8
        ? { ts: pick(TIMES), kind: 'status', status: pick(STATUSES), proposal: pick(PROPOSALS), note: pick(NOTES) }
        : roll < 0.9
          ? { ts: random() < 0.2 ? 12 : pick(TIMES), kind: pick(['handoff', 'x'.repeat(130), 'sent2']), to: 'x' }
          : { ts: pick(TIMES), kind: 'dispatch-settled', mid: 'm' };
  if (event['kind'] === 'sent' && random() < 0.3) event['replyVia'] = pick([null, 'note', 7, ...NAMES]);
  if (random() < 0.05) delete event[pick(['ts', 'mid', 'from', 'proposal', 'note', 'text'])];
  const keys = Object.keys(event).sort(() => random() - 0.5);
  let line = `{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(event[key])}`).join(random() < 0.1 ? ' , ' : ',')}}`;
  // An escape where none is needed: JSON reads it as the char it stands for.
  if (random() < 0.1) line = line.replace(/"(issues|merge|active|2026)/, (_, word: string) => `"\\u${word.charCodeAt(0).toString(16).padStart(4, '0')}${word.slice(1)}`);
  return line;
}

function itemOf(outcome: LineOutcome, start: number, end: number): TimelineItem {
  return outcome.evidence === 'parsed' ? { segment: SEGMENT, start, end, evidence: 'parsed', facts: outcome.facts } : { segment: SEGMENT, start, end, ...outcome };
}

describe('a segment held as columns', () => {
  it('makes the item its outcome makes, for every line of random logs read from their bytes', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = createSeededRandom(seed);
      const lines = Array.from({ length: 200 }, () => createLine(random));
      const bytes = encode(lines.map((line) => `${line}\n`).join(''));
      const expected: TimelineItem[] = [];
      let start = 0;
      for (const line of lines) {
        const end = start + encode(line).length;
        const outcome = readLine(bytes.subarray(start, end));
        if (outcome !== null) expected.push(itemOf(outcome, start, end));
        start = end + 1;
      }
      const reading = createSegmentReading(SEGMENT);
      readSegmentBytes(reading, bytes);
      assert.deepEqual(reading.items, expected, `seed ${seed}`);
    }
  });

  it('makes the item its outcome makes, for outcomes added one by one, whether the columns can say them or keep them whole', () => {
    const random = createSeededRandom(99);
    const columns = createLineColumns(SEGMENT, 1);
    const expected: TimelineItem[] = [];
    let kept = 0;
    for (let i = 0; i < 3_000; i++) {
      const line = createLine(random);
      const outcome = readLine(encode(line));
      if (outcome === null) continue;
      appendLineOutcome(columns, i * 10, i * 10 + 5, outcome);
      expected.push(itemOf(outcome, i * 10, i * 10 + 5));
    }
    for (let i = 0; i < columns.count; i++) if (columns.kept.has(i)) kept++;
    assert.deepEqual(listLineItems(columns), expected);
    assert.ok(kept > 100 && columns.count - kept > 100, `${kept} of ${columns.count} kept whole: both ways of holding a line are tried`);
  });

  it('holds a time as a number only when its text is exactly what that number gives back', () => {
    for (const ts of TIMES) {
      const time = readInstantOf(ts);
      if (!Number.isNaN(time)) assert.equal(new Date(time).toISOString(), ts);
    }
    assert.deepEqual(
      TIMES.filter((ts) => !Number.isNaN(readInstantOf(ts))),
      ['2026-11-30T17:18:57.126Z', '1970-01-01T00:00:00.000Z', '2024-02-29T23:59:59.999Z', '9999-12-31T23:59:59.999Z', '0100-01-01T00:00:00.000Z'],
    );
  });
});

describe('a log folded from its columns', () => {
  it('says without its items what the fold with its items says: counts, reasons, how many lines, and the times they span', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = createSeededRandom(seed);
      const readings = ['timeline.ndjson', 'timeline/000000000001.ndjson', 'timeline/000000000002.ndjson'].map((name, index, names) => {
        const lines = Array.from({ length: Math.floor(random() * 40) }, () => createLine(random));
        // Some logs end in a line cut short, or hold a line that is not JSON.
        const log = lines.map((line) => `${random() < 0.05 ? line.slice(0, 9) : line}\n`).join('') + (random() < 0.3 ? '{"ts":"2026-11-30T17' : '');
        const reading = createSegmentReading(name);
        const end: SegmentEnd = index < names.length - 1 ? { closed: true } : random() < 0.5 ? { pastWindow: true } : {};
        readSegmentBytes(reading, encode(log), end);
        return reading;
      });
      const { items, ...whole } = foldTimeline(ONE, null, readings);
      const times = items.flatMap(({ item }) => (item.evidence === 'parsed' && item.facts.ts !== null ? [item.facts.ts] : [])).sort();
      assert.deepEqual(foldTimelineFacts(ONE, null, readings), { ...whole, lines: items.length, firstAt: times[0] ?? null, lastAt: times.at(-1) ?? null }, `seed ${seed}`);
    }
  });
});
