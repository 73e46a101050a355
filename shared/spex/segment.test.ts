import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../seededRandom.ts';
import { LINE_EVIDENCE_STATES } from './line.ts';
import { EXAMPLE, ONE, RECEIPT_DIGEST, RECEIPT_PAYLOAD, RECEIPT_TRANSPORT, TWO, encode, lineOf } from './fixtures.test.ts';
import { type SegmentEnd, type SegmentReading, createSegmentReading, markSegmentChanged, markSegmentUnreadable, readSegmentBytes } from './segment.ts';

const SEGMENT = 'timeline/000000000001.ndjson';
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function readWhole(bytes: Uint8Array, end: SegmentEnd = {}, name = SEGMENT): SegmentReading {
  const reading = createSegmentReading(name);
  readSegmentBytes(reading, bytes, end);
  return reading;
}

/** Reads a file as it grows to each of `sizes`, from the remembered offset each time, as a reader does. */
function readGrowing(bytes: Uint8Array, sizes: number[], end: SegmentEnd = {}): SegmentReading {
  const reading = createSegmentReading(SEGMENT);
  for (const size of sizes) readSegmentBytes(reading, bytes.subarray(reading.offset, size));
  readSegmentBytes(reading, bytes.subarray(reading.offset), end);
  return reading;
}

const status = (n: number) => lineOf({ ts: `2026-11-30T17:18:57.${String(n).padStart(3, '0')}Z`, kind: 'status', status: 'active', proposal: null, note: null });
const sent = (text: string, from: string | null = null) => lineOf({ ts: '2026-11-30T17:18:58.000Z', kind: 'sent', mid: `mid-${text.length}`, text, from });

describe('reading a segment', () => {
  it("each item carries its segment and its line's byte range, the newline left out", () => {
    const bytes = encode(EXAMPLE[ONE]['timeline/000000000001.ndjson']);
    const reading = readWhole(bytes);
    assert.deepEqual(
      reading.items.map((item) => [item.segment, item.start, item.end]),
      [[SEGMENT, 0, 95], [SEGMENT, 96, 231], [SEGMENT, 232, 387], [SEGMENT, 388, 702]],
    );
    const lines = EXAMPLE[ONE]['timeline/000000000001.ndjson'].split('\n');
    for (const [i, item] of reading.items.entries()) assert.equal(decode(bytes.subarray(item.start, item.end)), lines[i]);
    assert.equal(reading.offset, bytes.length);
    assert.equal(reading.tail, null);
  });

  it('a private line takes no item; the lines around it keep their own ranges', () => {
    const text = EXAMPLE[ONE]['timeline/000000000002.ndjson'];
    const reading = readWhole(encode(text), {}, 'timeline/000000000002.ndjson');
    assert.deepEqual(
      reading.items.map((item) => (item.evidence === 'parsed' ? item.facts.kind : item.evidence)),
      ['sent', 'status', 'status', 'status'],
    );
    const lines = text.split('\n');
    const startOfThird = encode(lines.slice(0, 2).join('\n') + '\n').length;
    assert.equal(reading.items[1]!.start, startOfThird);
  });

  it('a line cut mid-write is pending, then torn once the window has passed, in its place', () => {
    const whole = encode(status(1) + status(2));
    const cut = whole.subarray(0, whole.length - 20);
    const reading = createSegmentReading(SEGMENT);
    readSegmentBytes(reading, cut);
    assert.equal(reading.items.length, 1);
    assert.deepEqual(reading.tail, { segment: SEGMENT, start: reading.offset, end: cut.length, evidence: 'pending', why: 'no newline yet: the writer may still be writing it' });
    readSegmentBytes(reading, cut.subarray(reading.offset), { pastWindow: true });
    assert.equal(reading.tail?.evidence, 'torn');
    assert.equal(reading.tail?.start, reading.items[0]!.end + 1);
  });

  it('a pending line that completes is read as any other line', () => {
    const whole = encode(status(1) + status(2));
    const reading = createSegmentReading(SEGMENT);
    readSegmentBytes(reading, whole.subarray(0, 130));
    const added = readSegmentBytes(reading, whole.subarray(reading.offset));
    assert.equal(added.length, 1);
    assert.equal(added[0]!.evidence, 'parsed');
    assert.equal(reading.tail, null);
    assert.deepEqual(reading, readWhole(whole));
  });

  it('a torn write that the next append runs into becomes one damaged line, in place', () => {
    const torn = status(1).slice(0, 40);
    const reading = createSegmentReading(SEGMENT);
    readSegmentBytes(reading, encode(torn), { pastWindow: true });
    assert.equal(reading.tail?.evidence, 'torn');
    readSegmentBytes(reading, encode(torn + status(2)));
    assert.deepEqual(reading.items.map((item) => item.evidence), ['damaged']);
    assert.equal(reading.tail, null);
  });

  it("the unterminated end of a closed segment is damaged at once, and the segment's reading is done", () => {
    const bytes = encode(status(1) + status(2).slice(0, 30));
    const reading = readWhole(bytes, { closed: true });
    assert.deepEqual(reading.items.map((item) => item.evidence), ['parsed', 'damaged']);
    assert.deepEqual(reading.items[1], {
      segment: SEGMENT,
      start: status(1).length,
      end: bytes.length,
      evidence: 'damaged',
      why: 'the last line of a closed segment has no newline: a write cut short',
    });
    assert.equal(reading.offset, bytes.length);
    assert.equal(reading.tail, null);
    assert.ok(reading.closed);
  });

  it('a pending end of a segment that then closes becomes damaged when read as closed', () => {
    const bytes = encode(status(1) + status(2).slice(0, 30));
    const reading = createSegmentReading(SEGMENT);
    readSegmentBytes(reading, bytes);
    assert.equal(reading.tail?.evidence, 'pending');
    readSegmentBytes(reading, bytes.subarray(reading.offset), { closed: true });
    assert.deepEqual(reading, readWhole(bytes, { closed: true }));
  });

  it('a closed segment that grows changed after it was read: the new bytes are never read as lines', () => {
    const reading = readWhole(encode(status(1)), { closed: true });
    const added = readSegmentBytes(reading, encode(status(2)));
    assert.deepEqual(added, []);
    assert.equal(reading.items.length, 1);
    assert.match(reading.changed ?? '', /closed segment grew/);
  });

  it('a segment shorter than what was seen of it changed after it was read', () => {
    const reading = createSegmentReading(SEGMENT);
    readSegmentBytes(reading, encode(status(1) + '{"ts":"2026'));
    readSegmentBytes(reading, encode('{"ts'));
    assert.match(reading.changed ?? '', /shorter/);
  });

  it('once the caller says the bytes read changed, what was read is kept and nothing more is read', () => {
    const reading = readWhole(encode(status(1) + status(2).slice(0, 10)));
    markSegmentChanged(reading, 'the bytes already read are not the ones read');
    assert.equal(reading.tail, null);
    assert.deepEqual(readSegmentBytes(reading, encode(status(2) + status(3))), []);
    assert.equal(reading.items.length, 1);
    assert.equal(reading.changed, 'the bytes already read are not the ones read');
  });

  it('a segment that could not be read keeps what was read, and is readable again on the next read', () => {
    const reading = readWhole(encode(status(1)));
    markSegmentUnreadable(reading, 'permission denied');
    assert.equal(reading.unreadable, 'permission denied');
    assert.equal(reading.items.length, 1);
    readSegmentBytes(reading, encode(status(2)));
    assert.equal(reading.unreadable, null);
    assert.equal(reading.items.length, 2);
  });

  it('a private line that only lacks its newline is no item, not even a pending one', () => {
    const settled = `{"ts":"t","kind":"dispatch-settled","operation":"merge","requestDigest":"${RECEIPT_DIGEST}","mid":"m"}`;
    assert.equal(readWhole(encode(status(1) + settled)).tail, null);
    assert.deepEqual(readWhole(encode(status(1) + settled), { closed: true }).items.map((item) => item.evidence), ['parsed']);
    assert.equal(readWhole(encode(status(1) + settled), { pastWindow: true }).tail, null);
  });

  it('every state a line is found in is one of the words that cross the wire, and each word occurs', () => {
    const log = `${status(1)}not json\n[1]\n${status(2).slice(0, 30)}`;
    const found = new Set<string>();
    for (const end of [{}, { pastWindow: true }, { closed: true }]) {
      const reading = readWhole(encode(log), end);
      for (const item of [...reading.items, ...(reading.tail === null ? [] : [reading.tail])]) found.add(item.evidence);
    }
    assert.deepEqual([...found].sort(), [...LINE_EVIDENCE_STATES].sort());
  });

  it('bad UTF-8 in one line makes that line damaged, not the segment', () => {
    const bytes = encode(status(1) + sent('café') + status(3));
    const broken = bytes.slice();
    broken[broken.indexOf(0xc3)] = 0xc0;
    assert.deepEqual(readWhole(broken).items.map((item) => item.evidence), ['parsed', 'damaged', 'parsed']);
  });
});

describe('reading a segment as it grows gives what reading it whole gives', () => {
  /** A log with every kind of line, multi-byte characters everywhere, private lines among them. */
  function buildLog(random: () => number, lines: number): string {
    const texts = ['plain', 'café au lait', 'emoji 😀 and — dash', '日本語のテキスト', 'quote " and \\ backslash', 'line\nbreak'];
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    let log = '';
    for (let i = 0; i < lines; i++) {
      const roll = random();
      if (roll < 0.3) log += sent(pick(texts).repeat(1 + Math.floor(random() * 4)), pick([null, TWO, 'issues']));
      else if (roll < 0.5) log += lineOf({ ts: 't', kind: 'status', status: pick(['active', 'awaiting', 'parked']), proposal: pick([null, 'merge', 'close']), note: pick([null, pick(texts)]) });
      else if (roll < 0.6) log += lineOf({ ts: 't', kind: 'dispatch-settled', operation: 'merge', requestDigest: RECEIPT_DIGEST, mid: 'm' });
      else if (roll < 0.7) log += lineOf({ ts: 't', kind: 'sent', mid: 'r', text: pick(texts), from: null, dispatchReceipt: { requestDigest: RECEIPT_DIGEST, payloadHash: RECEIPT_PAYLOAD, delivery: { text: RECEIPT_TRANSPORT } } });
      else if (roll < 0.78) log += `${sent('torn ✂ here').slice(0, 25)}\n`;
      else if (roll < 0.84) log += '{"ts":"t","kind":"sent","mid":"m","text":"no from"}\n';
      else if (roll < 0.9) log += lineOf({ ts: 't', kind: 'handoff', to: pick(texts) });
      else if (roll < 0.95) log += '\n';
      else log += status(i);
    }
    return log;
  }

  /** The log's bytes with one line's UTF-8 broken: a line that must be damaged on its own. */
  function withBadUtf8(log: string): Uint8Array {
    const bytes = encode(log);
    const at = bytes.indexOf(0xc3);
    if (at !== -1) bytes[at] = 0xff;
    return bytes;
  }

  it('split at every single byte, inside lines and inside multi-byte characters', () => {
    const bytes = encode(`${status(1)}${sent('é😀—日')}${status(2)}{"ts":"2026`);
    const whole = readWhole(bytes);
    for (let split = 0; split <= bytes.length; split++) {
      assert.deepEqual(readGrowing(bytes, [split]), whole, `split at ${split}`);
    }
  });

  it('split at random points many times, for random logs, ending pending, torn or closed', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = createSeededRandom(seed);
      const log = buildLog(random, 1 + Math.floor(random() * 30));
      // Half the logs end in a line cut short, as a reader can find them.
      const cut = random() < 0.5 ? sent('the end ✂ cut').slice(0, 20 + Math.floor(random() * 30)) : '';
      const bytes = seed % 5 === 0 ? withBadUtf8(log + cut) : encode(log + cut);
      const sizes = Array.from({ length: Math.floor(random() * 12) }, () => Math.floor(random() * (bytes.length + 1))).sort((a, b) => a - b);
      const end: SegmentEnd = [{}, { pastWindow: true }, { closed: true }][seed % 3]!;
      assert.deepEqual(readGrowing(bytes, sizes, end), readWhole(bytes, end), `seed ${seed}`);
    }
  });

  it('reading byte by byte gives what reading whole gives', () => {
    const bytes = encode(buildLog(createSeededRandom(7), 20));
    const sizes = Array.from({ length: bytes.length }, (_, i) => i);
    assert.deepEqual(readGrowing(bytes, sizes), readWhole(bytes));
  });
});

describe('a very long line', () => {
  const MB = 1024 * 1024;

  it('a line of several MB is one item of a few numbers: its text is never held', () => {
    const text = 'é'.repeat(2 * MB);
    const bytes = encode(status(1) + sent(text, TWO) + status(2));
    const reading = readWhole(bytes);
    assert.deepEqual(reading.items.map((item) => item.evidence), ['parsed', 'parsed', 'parsed']);
    const long = reading.items[1]!;
    assert.equal(long.end - long.start, encode(sent(text, TWO)).length - 1);
    assert.ok(JSON.stringify(reading).length < 2_000, 'the reading holds offsets, not the text');
  });

  it('a long line arriving in many pieces is searched for its newline once, and is one item at the end', () => {
    const bytes = encode(status(1) + sent('x'.repeat(4 * MB)) + status(2));
    const reading = createSegmentReading(SEGMENT);
    const step = 256 * 1024;
    for (let size = step; size < bytes.length; size += step) {
      readSegmentBytes(reading, bytes.subarray(reading.offset, size));
      if (reading.tail !== null) assert.equal(reading.scanned, size, 'a known stretch without a newline is remembered');
    }
    readSegmentBytes(reading, bytes.subarray(reading.offset));
    assert.deepEqual(reading, readWhole(bytes));
  });
});
