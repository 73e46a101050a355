import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXAMPLE, ONE, RECEIPT_DIGEST, THREE, TWO, encode, lineOf } from './fixtures.test.ts';
import { FACT_MAX_LENGTH, readLine } from './line.ts';
import { stripPrivateData } from './privateData.ts';
import { forEachLine, scanLeanLine } from './scan.ts';
import { createSegmentReading, readSegmentBytes } from './segment.ts';

// The lean scan is a shortcut, never a second set of rules: wherever it answers, it answers what
// readLine answers; wherever a line is anything but plain, it leaves the line to readLine.

const exampleLines = Object.values(EXAMPLE).flatMap((files) =>
  Object.entries(files)
    .filter(([name]) => name.endsWith('.ndjson'))
    .flatMap(([, text]) => text.split('\n').filter((line) => line !== '')),
);

const edgeLines = [
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":""}',
  '{"ts":"t","kind":"sent","mid":"","text":"x","from":null}',
  '{"ts":"t","kind":"sent","mid":"m","from":null}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x"}',
  '{"ts":"t","kind":"sent","mid":"m","text":7,"from":null}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"replyVia":null}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"replyVia":7}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"from":"b"}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"extra":1,"extra":2}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":"a\\u0062c"}',
  '{"ts":"t","kind":"sent","mid":"m","text":"tab\\there, quote \\" and \\\\ and \\/ and \\ud83d\\ude00","from":null}',
  '{"ts":"t","kind":"sent","mid":"m","text":"bad \\x escape","from":null}',
  '{"ts":"t","kind":"sent","mid":"m","text":"bad \\u12 escape","from":null}',
  '{"ts":"t","kind":"sent","mid":"m","text":"ends in a backslash\\\\","from":null}',
  '{"k\\u0069nd":"sent","ts":"t","mid":"m","text":"x","from":null}',
  '{"kind":"dispatch-settled","ts":"t"}',
  '{"kind":"dispatch\\u002dsettled","ts":"t"}',
  `{"kind":"dispatch-settled","kind":"sent","ts":"t","mid":"m","text":"x","from":null,"requestDigest":"${RECEIPT_DIGEST}"}`,
  '{"ts":"t","kind":"status","status":"idle","proposal":null,"note":null}',
  '{"ts":"t","kind":"status","status":"awaiting","proposal":"","note":""}',
  '{"ts":"t","kind":"status","status":"awaiting","proposal":"close","note":"n"}',
  '{"ts":"t","kind":"status","status":"","proposal":null,"note":null}',
  '{"ts":"t","kind":"status","status":"idle","note":null}',
  '{"ts":"t","kind":"status","status":"idle","proposal":null}',
  '{"ts":"t","kind":"status","status":"idle","proposal":null,"note":5}',
  '{"ts":"t","kind":"status","status":"idle","proposal":null,"note":"\\u0000"}',
  '{"ts":7,"kind":"status","status":"idle","proposal":null,"note":null}',
  '{"ts":"2026-12-01T00:00:00.000Z","kind":"handoff","to":"x"}',
  '{"kind":"handoff","ts":12}',
  '{"kind":"handoff"}',
  '{"kind":7}',
  '{"ts":"t"}',
  '{}',
  '[1,2,3]',
  '"text"',
  '',
  '   ',
  'not json',
  '{"ts":"t","kind":"sent"',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null}}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null},',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null} x',
  ' { "ts" : "t" , "kind" : "sent" , "mid" : "m" , "text" : "x" , "from" : null } ',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"n":-0.5e+3,"b":true,"f":false}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"n":01}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"n":.5}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"n":1.}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"n":tru}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"nested":{"a":1}}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"__proto__":1}',
  '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"dispatchReceipt":"r"}',
  '{"ts":"t","kind":"sent","mid":"m","text":"é — ünïcode ✓","from":"sëssion"}',
  '\ufeff{"ts":"t","kind":"sent","mid":"m","text":"x","from":null}',
  '{"ts":"t","kind":"status","status":"idle","proposal":null,"note":null}\r',
  lineOf({ ts: 't', kind: 'sent', mid: 'm'.repeat(FACT_MAX_LENGTH + 1), text: 'x', from: null }).trimEnd(),
  lineOf({ ts: 't', kind: 'sent', mid: 'm', text: 'x', from: 'f'.repeat(FACT_MAX_LENGTH) }).trimEnd(),
  lineOf({ ts: 't', kind: 'k'.repeat(FACT_MAX_LENGTH + 1) }).trimEnd(),
  lineOf({ ts: 't'.repeat(FACT_MAX_LENGTH + 1), kind: 'handoff' }).trimEnd(),
  lineOf({ ts: 't', kind: 'sent', mid: 'm', text: 'line one\nline two\u2028', from: TWO, replyVia: 'note' }).trimEnd(),
];

/** A small steady generator, so a failure can be run again as it was. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lines one edit away from plain ones: a char dropped, doubled or replaced by one JSON cares about. */
function mutate(lines: readonly string[], count: number): string[] {
  const random = createRandom(10);
  const pieces = ['"', '\\', '{', '}', '[', ']', ',', ':', ' ', 'n', 'u', '0', '-', 'e', '\t', '\u0001', 'é', 'null', '"kind"', '"x":1,'];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const line = lines[Math.floor(random() * lines.length)]!;
    const at = Math.floor(random() * (line.length + 1));
    const piece = pieces[Math.floor(random() * pieces.length)]!;
    const edit = random();
    out.push(edit < 0.33 ? line.slice(0, at) + line.slice(at + 1) : edit < 0.66 ? line.slice(0, at) + piece + line.slice(at) : line.slice(0, at) + piece + line.slice(at + 1));
  }
  return out;
}

/** What the lean scan says of one line, read the way the segment reader reads it. */
function scanAlone(line: string): ReturnType<typeof scanLeanLine> | 'left to readLine' {
  let said: ReturnType<typeof scanLeanLine> | 'left to readLine' = 'left to readLine';
  forEachLine(encode(`${line}\n`), 0, (_start, _end, chunk, textStart, textEnd) => {
    const lean = chunk === null ? undefined : scanLeanLine(chunk, textStart, textEnd);
    said = lean === undefined ? 'left to readLine' : lean;
  });
  return said;
}

describe('the lean scan of a line', () => {
  it('answers for every line spex writes that names nothing private, exactly as readLine does', () => {
    const plain = exampleLines.filter((line) => !line.includes('dispatchReceipt') && !line.includes('dispatch-settled'));
    assert.ok(plain.length >= 10);
    for (const line of plain) assert.deepEqual(scanAlone(line), readLine(encode(line)), line);
  });

  it('answers for no line that has anything private to take out: readLine takes it out first, and the scan keeps nothing of it', () => {
    const lines = [...exampleLines, ...edgeLines, '{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"dispatchReceipt":7}', '{"kind":"dispatch\\u002dsettled","ts":"t"}'];
    let privateLines = 0;
    for (const line of [...lines, ...mutate(lines, 20_000)]) {
      if (stripPrivateData(encode(line)).seen === 'as-written') continue;
      privateLines++;
      assert.equal(scanAlone(line), 'left to readLine', line);
    }
    assert.ok(privateLines > 500, `${privateLines} lines with something private`);
  });

  it('says what readLine says of every line it answers for, and leaves the rest to readLine', () => {
    let answered = 0;
    for (const line of [...exampleLines, ...edgeLines, ...mutate([...exampleLines, ...edgeLines], 20_000)]) {
      const lean = scanAlone(line);
      if (lean === 'left to readLine') continue;
      answered++;
      assert.deepEqual(lean, readLine(encode(line)), JSON.stringify(line));
    }
    assert.ok(answered > 1000, `${answered} lines answered by the lean scan`);
  });

  it('a segment read with the lean scan holds the items readLine gives each line', () => {
    const lines = [...exampleLines, ...edgeLines.filter((line) => !line.includes('\r') && !line.includes('\n'))];
    const bytes = encode(lines.map((line) => `${line}\n`).join(''));
    const reading = createSegmentReading('timeline/000000000001.ndjson');
    readSegmentBytes(reading, bytes);
    const expected = lines.flatMap((line) => {
      const outcome = readLine(encode(line));
      return outcome === null ? [] : [outcome];
    });
    assert.deepEqual(
      reading.items.map(({ segment: _segment, start: _start, end: _end, ...outcome }) => outcome),
      expected,
    );
    for (const item of reading.items) assert.ok(bytes[item.end] === 0x0a && (item.start === 0 || bytes[item.start - 1] === 0x0a));
  });

  it('a segment of many stretches, non-ASCII text and a line longer than a stretch, is read as readLine reads each line', () => {
    const lines: string[] = [];
    for (let i = 0; i < 3_000; i++) {
      const text = i % 7 === 0 ? `naïve — ${i} ✓ ${'é'.repeat(i % 50)}` : i === 1_500 ? 'x'.repeat(200_000) : `plain ${i} ${'lorem '.repeat(i % 30)}`;
      lines.push(i % 500 === 3 ? `{"ts":"t","kind":"sent","te` : lineOf({ ts: `2026-12-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`, kind: 'sent', mid: `m${i}`, text, from: i % 2 === 0 ? null : TWO }).trimEnd());
    }
    const bytes = encode(lines.map((line) => `${line}\n`).join(''));
    assert.ok(bytes.length > 4 * 64 * 1024);
    const reading = createSegmentReading('timeline/000000000001.ndjson');
    readSegmentBytes(reading, bytes.subarray(0, 100_000));
    readSegmentBytes(reading, bytes.subarray(reading.offset));
    assert.equal(reading.items.length, lines.length);
    reading.items.forEach((item, index) => {
      const { segment: _segment, start, end, ...outcome } = item;
      assert.deepEqual(outcome, readLine(bytes.subarray(start, end)), `line ${index + 1}`);
      assert.equal(new TextDecoder().decode(bytes.subarray(start, end)), lines[index]);
    });
  });

  it('a stretch of bytes that is not UTF-8 is read line by line, and only the bad line is damaged', () => {
    const good = encode(lineOf({ ts: 't', kind: 'sent', mid: 'm', text: 'é', from: ONE }));
    const bad = good.slice();
    bad[bad.indexOf(0xc3)] = 0xff;
    const reading = createSegmentReading('timeline.ndjson');
    readSegmentBytes(reading, Uint8Array.from([...good, ...bad, ...encode(EXAMPLE[THREE]['timeline.ndjson'])]));
    assert.deepEqual(reading.items.map((item) => item.evidence), ['parsed', 'damaged', 'parsed']);
    assert.deepEqual(reading.items.map((item) => item.start), [0, good.length, good.length * 2]);
  });
});
