import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../seededRandom.ts';
import { DEGRADED_CODES, type DegradedReason, describeReason } from './degraded.ts';
import { EXAMPLE, ONE, RECEIPT_DIGEST, RECEIPT_PAYLOAD, RECEIPT_TRANSPORT, THREE, TWO, encode, lineOf, viewRange } from './fixtures.test.ts';
import { type ListedName, listSegments } from './layout.ts';
import { createSegmentReading, markSegmentChanged, markSegmentUnreadable, readSegmentBytes, type SegmentReading } from './segment.ts';
import { describeSender, indexSentBy, listSentBy } from './sentBy.ts';
import { readSessionJson } from './sessionJson.ts';
import { type LogItem, type TimelineFold, foldTimeline, listLogItemsFrom } from './timeline.ts';

type Files = Record<string, string>;

/** Reads a session folder's files as a reader would: layout, each segment whole, session.json. */
function readSession(files: Files) {
  const names = Object.keys(files);
  const inTimeline = names.filter((name) => name.startsWith('timeline/'));
  const sessionFolder: ListedName[] = names.filter((name) => !name.includes('/')).map((name) => ({ name, type: 'file' }));
  if (inTimeline.length > 0) sessionFolder.push({ name: 'timeline', type: 'folder' });
  const layout = listSegments(
    sessionFolder,
    inTimeline.map((name) => ({ name: name.slice('timeline/'.length), type: 'file' })),
  );
  const readings = layout.segments.map((segment, index) => {
    const reading = createSegmentReading(segment.name);
    readSegmentBytes(reading, encode(files[segment.name]!), { closed: index < layout.segments.length - 1 });
    return reading;
  });
  const session = files['session.json'] === undefined ? null : readSessionJson(encode(files['session.json']));
  return { layout, readings, session };
}

function foldSession(id: string, files: Files): TimelineFold {
  const { layout, readings, session } = readSession(files);
  return foldTimeline(id, session, readings, layout.strays);
}

const describeItem = ({ line, item }: LogItem) =>
  `${line} ${item.segment.replace('timeline/0000000000', '')} ${item.evidence === 'parsed' ? (item.facts.kind === 'status' ? `status:${item.facts.word}` : item.facts.kind === 'sent' ? `sent:${item.facts.from ?? 'person'}` : `unknown:${item.facts.kindName}`) : item.evidence}`;

const FOLDS = () => [foldSession(ONE, EXAMPLE[ONE]), foldSession(TWO, EXAMPLE[TWO]), foldSession(THREE, EXAMPLE[THREE])];

describe("one session's log, folded", () => {
  it('the segments joined in order: lines numbered across them, private lines taking no number', () => {
    const fold = foldSession(ONE, EXAMPLE[ONE]);
    assert.deepEqual(fold.items.map(describeItem), [
      '1 01.ndjson status:working',
      '2 01.ndjson sent:person',
      '3 01.ndjson sent:person',
      `4 01.ndjson sent:${TWO}`,
      '5 02.ndjson sent:person',
      '6 02.ndjson status:review',
      '7 02.ndjson status:asking',
      '8 02.ndjson status:done',
      `9 03.ndjson sent:${TWO}`,
      '10 04.ndjson status:parked',
    ]);
  });

  it('counts what was received, from whom, and what was declared', () => {
    const fold = foldSession(ONE, EXAMPLE[ONE]);
    assert.deepEqual(fold.counts, { received: 5, fromPerson: 3, fromPeers: 2, declarations: 5, unknownKinds: 0, damaged: 0, invalid: 0, torn: 0, pending: 0, strays: 0 });
    assert.deepEqual(fold.degraded, []);
  });

  it('the legacy timeline.ndjson is the first segment', () => {
    const fold = foldSession(THREE, EXAMPLE[THREE]);
    assert.deepEqual(fold.items.map(describeItem), ['1 timeline.ndjson status:working', '2 01.ndjson status:review']);
  });

  it('the current status comes from session.json and is labelled current, apart from the declarations', () => {
    const fold = foldSession(ONE, EXAMPLE[ONE]);
    assert.deepEqual(fold.current, { state: 'known', status: 'active', word: 'working', proposal: null, hasNote: false, stopped: false, archived: false });
    assert.equal(describeItem(fold.items.at(-1)!), '10 04.ndjson status:parked', 'the last declaration is history, and stays so');
  });

  it('a session with no timeline file has nothing recorded: no items, and no reason', () => {
    const fold = foldSession(TWO, EXAMPLE[TWO]);
    assert.deepEqual(fold.items, []);
    assert.deepEqual(fold.degraded, []);
    assert.equal(fold.counts.received, 0);
  });

  it('file order is event order: a ts that goes back is never re-sorted', () => {
    const log = [
      lineOf({ ts: '2026-11-30T18:00:00.000Z', kind: 'status', status: 'active', proposal: null, note: null }),
      lineOf({ ts: '2026-11-30T09:00:00.000Z', kind: 'sent', mid: 'a', text: 'earlier ts, later line', from: null }),
      lineOf({ ts: '2020-01-01T00:00:00.000Z', kind: 'status', status: 'parked', proposal: null, note: null }),
    ].join('');
    const fold = foldSession(ONE, { 'timeline/000000000001.ndjson': log });
    assert.deepEqual(fold.items.map(describeItem), ['1 01.ndjson status:working', '2 01.ndjson sent:person', '3 01.ndjson status:parked']);
  });

  it('segments given in any order are folded in log order', () => {
    const { readings, session } = readSession(EXAMPLE[ONE]);
    const forward = foldTimeline(ONE, session, readings);
    assert.deepEqual(foldTimeline(ONE, session, readings.toReversed()), forward);
  });

  it('identical status lines repeated are each shown: no move is inferred or merged away', () => {
    const line = lineOf({ ts: 't', kind: 'status', status: 'idle', proposal: null, note: null });
    const fold = foldSession(ONE, { 'timeline/000000000001.ndjson': line + line });
    assert.equal(fold.counts.declarations, 2);
  });

  it('a log read in pieces folds the same as one read whole', () => {
    const random = createSeededRandom(42);
    const whole = foldSession(ONE, EXAMPLE[ONE]);
    const { layout, session } = readSession(EXAMPLE[ONE]);
    for (let round = 0; round < 20; round++) {
      const readings: SegmentReading[] = layout.segments.map((segment, index) => {
        const bytes = encode(EXAMPLE[ONE][segment.name as keyof (typeof EXAMPLE)[typeof ONE]]);
        const reading = createSegmentReading(segment.name);
        const cuts = Array.from({ length: 4 }, () => Math.floor(random() * bytes.length)).sort((a, b) => a - b);
        for (const cut of cuts) readSegmentBytes(reading, bytes.subarray(reading.offset, cut));
        readSegmentBytes(reading, bytes.subarray(reading.offset), { closed: index < layout.segments.length - 1 });
        return reading;
      });
      assert.deepEqual(foldTimeline(ONE, session, readings), whole);
    }
  });
});

describe('a log read from where it was told', () => {
  it("a log's items from a byte of each segment are the whole fold's items from there, numbered across the log; a segment not named is new from its first byte", () => {
    const { readings, session } = readSession(EXAMPLE[ONE]);
    const whole = foldTimeline(ONE, session, readings).items;
    for (const told of whole) {
      const from = new Map([[told.item.segment, told.item.start]]);
      const expected = whole.filter(({ item }) => item.segment !== told.item.segment || item.start >= told.item.start);
      assert.deepEqual(listLogItemsFrom(readings, (segment) => from.get(segment) ?? 0), expected);
    }
    assert.deepEqual(listLogItemsFrom(readings, () => Number.POSITIVE_INFINITY), [], 'a log told to its end has no new item');
  });

  it('a tail being written or torn is an item from where it begins, after the lines before it', () => {
    const good = lineOf({ ts: 't', kind: 'status', status: 'active', proposal: null, note: null });
    const open = createSegmentReading('timeline/000000000001.ndjson');
    readSegmentBytes(open, encode(`${good}${good}{"ts":"t","kind":"sent"`));
    assert.deepEqual(listLogItemsFrom([open], () => good.length * 2).map(describeItem), ['3 01.ndjson pending']);
    assert.deepEqual(listLogItemsFrom([open], () => good.length).map(describeItem), ['2 01.ndjson status:working', '3 01.ndjson pending']);
  });
});

describe('degraded reasons of a timeline', () => {
  const good = lineOf({ ts: 't', kind: 'status', status: 'active', proposal: null, note: null });

  it('damaged, invalid and torn lines are reasons resting on their segments and line numbers; a pending line is not', () => {
    const closed = createSegmentReading('timeline/000000000001.ndjson');
    readSegmentBytes(closed, encode(`${good}not json\n{"ts":"t"}\n${good}{"cut`), { closed: true });
    const open = createSegmentReading('timeline/000000000002.ndjson');
    readSegmentBytes(open, encode(`${good}{"ts":"t","kind":"sent"`), { pastWindow: true });
    const fold = foldTimeline(ONE, readSessionJson(encode(EXAMPLE[ONE]['session.json'])), [closed, open]);
    assert.deepEqual(fold.items.map(describeItem), ['1 01.ndjson status:working', '2 01.ndjson damaged', '3 01.ndjson invalid', '4 01.ndjson status:working', '5 01.ndjson damaged', '6 02.ndjson status:working', '7 02.ndjson torn']);
    assert.deepEqual(fold.degraded, [
      { code: 'damaged-line', files: ['timeline/000000000001.ndjson'], lines: [2, 5], why: null },
      { code: 'invalid-line', files: ['timeline/000000000001.ndjson'], lines: [3], why: null },
      { code: 'torn-write', files: ['timeline/000000000002.ndjson'], lines: [7], why: null },
    ]);
    assert.deepEqual([fold.counts.damaged, fold.counts.invalid, fold.counts.torn, fold.counts.pending], [2, 1, 1, 0]);

    const pending = createSegmentReading('timeline/000000000002.ndjson');
    readSegmentBytes(pending, encode(`${good}{"ts":"t","kind":"sent"`));
    const stillWriting = foldTimeline(ONE, readSessionJson(encode(EXAMPLE[ONE]['session.json'])), [pending]);
    assert.equal(stillWriting.counts.pending, 1);
    assert.deepEqual(stillWriting.degraded, []);
  });

  it('a closed segment changed after it was read is a reason; what it said is kept in place', () => {
    const { readings, session } = readSession(EXAMPLE[ONE]);
    markSegmentChanged(readings[1]!, 'its bytes are not the ones read');
    const fold = foldTimeline(ONE, session, readings);
    assert.deepEqual(fold.degraded, [{ code: 'changed-after-read', files: ['timeline/000000000002.ndjson'], lines: [], why: null }]);
    assert.equal(fold.items.length, 10);
    assert.equal(fold.segments[1]?.changed, 'its bytes are not the ones read');
  });

  it('a segment that could not be read is a reason', () => {
    const { readings, session } = readSession(EXAMPLE[ONE]);
    markSegmentUnreadable(readings[0]!, 'permission denied');
    assert.deepEqual(foldTimeline(ONE, session, readings).degraded, [{ code: 'unreadable', files: ['timeline/000000000001.ndjson'], lines: [], why: null }]);
  });

  it('a corrupt session.json is a reason, and the log is read all the same', () => {
    const fold = foldSession(ONE, { ...EXAMPLE[ONE], 'session.json': '{"session_id": "11111111-' });
    assert.deepEqual(fold.degraded, [{ code: 'session-json-unknown', files: ['session.json'], lines: [], why: 'session.json is not JSON in UTF-8' }]);
    assert.deepEqual(fold.current, { state: 'unknown', why: 'session.json is not JSON in UTF-8' });
    assert.equal(fold.items.length, 10);
  });

  it('a session folder without session.json has an unknown current status, said as a reason', () => {
    const { 'session.json': _, ...withoutIt } = EXAMPLE[ONE];
    const fold = foldSession(ONE, withoutIt);
    assert.deepEqual(fold.current, { state: 'unknown', why: 'no session.json in the session folder' });
    assert.deepEqual(fold.degraded.map((reason) => reason.code), ['session-json-unknown']);
  });

  it("a session.json naming another session than its folder's is a reason", () => {
    const fold = foldSession(THREE, { ...EXAMPLE[THREE], 'session.json': EXAMPLE[ONE]['session.json'] });
    assert.deepEqual(fold.degraded, [{ code: 'session-mismatch', files: ['session.json'], lines: [], why: `it names "${ONE}"` }]);
  });

  it('strays in the segment folder are listed and counted', () => {
    const fold = foldSession(ONE, { ...EXAMPLE[ONE], 'timeline/000000000005.ndjson.gz': '' });
    assert.deepEqual(fold.strays.map((stray) => stray.name), ['timeline/000000000005.ndjson.gz']);
    assert.equal(fold.counts.strays, 1);
  });

  it('every reason is described in plain words that say unknown or touched, never that nothing happened', () => {
    for (const code of DEGRADED_CODES) {
      const reason: DegradedReason = { code, files: ['timeline/000000000001.ndjson'], lines: [3], why: 'session.json is empty' };
      const words = describeReason(reason);
      assert.match(words, /unknown|touched|other than/, `${code}: ${words}`);
      assert.doesNotMatch(words, /nothing (happened|was)|no messages/i, `${code}: ${words}`);
    }
    assert.equal(
      describeReason({ code: 'damaged-line', files: ['timeline/000000000001.ndjson'], lines: [2, 5], why: null }),
      '2 lines do not parse (for example a write cut short): unknown evidence, not nothing.',
    );
  });
});

describe('what a session sent: the sent events in other logs whose from is its id', () => {
  it("lists the messages in the receiver's log, each with the receiver it comes from", () => {
    const sent = listSentBy(TWO, FOLDS());
    assert.deepEqual(
      sent.map(({ receiver, line, item }) => [receiver, line, item.segment, item.facts.mid]),
      [
        [ONE, 4, 'timeline/000000000001.ndjson', 'e26eed1c-cf24-4a0a-9d7f-fac39bba38c1'],
        [ONE, 9, 'timeline/000000000003.ndjson', '280f64f7-9bc2-477d-8a70-bc8f764e9872'],
      ],
    );
  });

  it('joins by the full id only: a prefix, another case or a padded id names no one', () => {
    const folds = FOLDS();
    for (const id of [TWO.slice(0, 8), TWO.toUpperCase(), ` ${TWO}`, `${TWO}\n`, '']) assert.deepEqual(listSentBy(id, folds), [], JSON.stringify(id));
  });

  it("a person's messages are in no session's sent list", () => {
    const index = indexSentBy(FOLDS());
    assert.deepEqual([...index.keys()], [TWO]);
  });

  it("a session's own log is never its sent list", () => {
    const self = foldSession(ONE, { 'timeline/000000000001.ndjson': lineOf({ ts: 't', kind: 'sent', mid: 'm', text: 'note to self', from: ONE }) });
    assert.deepEqual(listSentBy(ONE, [self]), []);
    assert.equal(self.counts.received, 1);
  });

  it('the index gives for every sender what listSentBy gives', () => {
    const folds = FOLDS();
    for (const [from, sent] of indexSentBy(folds)) assert.deepEqual(sent, listSentBy(from, folds));
  });

  it('pairs nothing by text or time: two logs with the same text and ts stay two items, each in its own log', () => {
    const line = lineOf({ ts: '2026-11-30T17:00:00.000Z', kind: 'sent', mid: 'same', text: 'same text', from: TWO });
    const a = foldSession(ONE, { 'timeline/000000000001.ndjson': line });
    const b = foldSession(THREE, { 'timeline/000000000001.ndjson': line });
    assert.deepEqual(listSentBy(TWO, [a, b]).map((sent) => sent.receiver), [ONE, THREE]);
  });

  it('a from is a person, a known session, or a string shown as written', () => {
    const known = new Set([ONE, TWO]);
    assert.deepEqual(describeSender(null, known), { by: 'person' });
    assert.deepEqual(describeSender(TWO, known), { by: 'session', sessionId: TWO });
    assert.deepEqual(describeSender('peer:build-box:x', known), { by: 'other', as: 'peer:build-box:x' });
    assert.deepEqual(describeSender(TWO.slice(0, 8), known), { by: 'other', as: TWO.slice(0, 8) });
  });
});

describe("spex's private delivery data appears in no output", () => {
  const CANARIES = [RECEIPT_DIGEST, RECEIPT_PAYLOAD, RECEIPT_TRANSPORT, 'dispatchReceipt', 'dispatch-settled', 'requestDigest', 'payloadHash'];

  it('not in a reading, a fold, a sent list, a page of texts, or a reason, for every example session and every way of reading it', () => {
    const outputs: unknown[] = [];
    for (const [id, files] of Object.entries(EXAMPLE)) {
      const { layout, readings, session } = readSession(files);
      outputs.push(layout, readings, session);
      const fold = foldTimeline(id, session, readings, layout.strays);
      outputs.push(fold, fold.degraded.map(describeReason));
      for (const { item } of fold.items) {
        const bytes = encode((files as Files)[item.segment]!);
        outputs.push(viewRange(bytes.subarray(item.start, item.end)));
      }
      // Every way a segment can be seen: cut at each byte, pending, torn or closed.
      for (const segment of layout.segments) {
        const bytes = encode((files as Files)[segment.name]!);
        for (let cut = 0; cut <= bytes.length; cut += 7) {
          for (const end of [{}, { pastWindow: true }, { closed: true }]) {
            const reading = createSegmentReading(segment.name);
            readSegmentBytes(reading, bytes.subarray(0, cut), end);
            outputs.push(reading, foldTimeline(id, session, [reading]));
            for (const item of [...reading.items, ...(reading.tail === null ? [] : [reading.tail])]) outputs.push(viewRange(bytes.subarray(item.start, item.end)));
          }
        }
      }
    }
    const folds = FOLDS();
    outputs.push(listSentBy(TWO, folds), [...indexSentBy(folds)]);
    for (const output of outputs) {
      const shown = JSON.stringify(output);
      for (const canary of CANARIES) assert.ok(!shown.includes(canary), `${canary} in ${shown.slice(0, 300)}`);
    }
  });

  it('a private line is not counted: a log with and without it folds to the same counts and line numbers', () => {
    const settled = EXAMPLE[ONE]['timeline/000000000002.ndjson'].split('\n')[1]!;
    const without = EXAMPLE[ONE]['timeline/000000000002.ndjson'].replace(`${settled}\n`, '');
    const withIt = foldSession(ONE, EXAMPLE[ONE]);
    const withoutIt = foldSession(ONE, { ...EXAMPLE[ONE], 'timeline/000000000002.ndjson': without });
    assert.deepEqual(withIt.counts, withoutIt.counts);
    assert.deepEqual(withIt.items.map((item) => item.line), withoutIt.items.map((item) => item.line));
  });
});
