import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXAMPLE, ONE, RECEIPT_DIGEST, RECEIPT_PAYLOAD, TWO, encode, lineOf } from './fixtures.test.ts';
import { FACT_MAX_LENGTH, MAX_LINE_DEPTH, readLine } from './line.ts';

const linesOf = (segment: string) => segment.split('\n').filter((line) => line !== '');
const read = (text: string) => readLine(encode(text));

describe('what one line of a timeline is', () => {
  it('a status line is a declaration: its status as written and the word spex shows, and no note text', () => {
    const [line] = linesOf(EXAMPLE[ONE]['timeline/000000000002.ndjson']).slice(2);
    assert.deepEqual(read(line!), {
      evidence: 'parsed',
      facts: { kind: 'status', ts: '2026-11-30T17:18:57.142Z', status: 'awaiting', word: 'review', proposal: 'merge', hasNote: true },
    });
  });

  it('every status the example writes gets the word spex shows, the raw status beside it', () => {
    const words = linesOf(EXAMPLE[ONE]['timeline/000000000002.ndjson'])
      .map(read)
      .flatMap((outcome) => (outcome?.evidence === 'parsed' && outcome.facts.kind === 'status' ? [[outcome.facts.status, outcome.facts.word]] : []));
    assert.deepEqual(words, [['awaiting', 'review'], ['asking', 'asking'], ['awaiting', 'done']]);
  });

  it('a sent line from a person has from null, and no text in its facts', () => {
    const [, line] = linesOf(EXAMPLE[ONE]['timeline/000000000001.ndjson']);
    assert.deepEqual(read(line!), {
      evidence: 'parsed',
      facts: { kind: 'sent', ts: '2026-11-30T17:18:57.104Z', mid: '9944b48b-49d9-445f-a334-fd80e7f31b3d', from: null, replyVia: null },
    });
  });

  it('replyVia is kept when the reply was asked for as a note', () => {
    const [, , line] = linesOf(EXAMPLE[ONE]['timeline/000000000001.ndjson']);
    const outcome = read(line!);
    assert.equal(outcome?.evidence === 'parsed' && outcome.facts.kind === 'sent' && outcome.facts.replyVia, 'note');
  });

  it('from is kept exactly as written: a session id, issues, a peer machine, any string', () => {
    for (const from of [TWO, 'issues', 'peer:build-box:abc', 'peer:build-box', ' spaced ', '']) {
      const outcome = read(lineOf({ ts: 't', kind: 'sent', mid: 'm', text: 'x', from }));
      assert.equal(outcome?.evidence === 'parsed' && outcome.facts.kind === 'sent' && outcome.facts.from, from);
    }
  });

  it('a line of a kind this reader does not know is kept as an event of unknown kind, never guessed at', () => {
    assert.deepEqual(read('{"ts":"2026-12-01T00:00:00.000Z","kind":"handoff","to":"x"}'), {
      evidence: 'parsed',
      facts: { kind: 'unknown', kindName: 'handoff', ts: '2026-12-01T00:00:00.000Z' },
    });
  });

  it('a dispatch-settled line leaves no trace at all', () => {
    const [, settled] = linesOf(EXAMPLE[ONE]['timeline/000000000002.ndjson']);
    assert.equal(read(settled!), null);
  });

  it('a line whose kind is written twice is private if either kind is dispatch-settled, whichever JSON.parse would keep', () => {
    assert.equal(read(`{"kind":"dispatch-settled","kind":"sent","ts":"t","mid":"m","text":"x","from":null,"requestDigest":"${RECEIPT_DIGEST}"}`), null);
    assert.equal(read(`{"kind":"sent","kind":"dispatch-settled","requestDigest":"${RECEIPT_DIGEST}"}`), null);
    assert.equal(read(`{"k\\u0069nd":"dispatch\\u002dsettled","requestDigest":"${RECEIPT_DIGEST}"}`), null);
  });

  it('the dispatchReceipt on a sent line is dropped: the line is an ordinary received message', () => {
    const [line] = linesOf(EXAMPLE[ONE]['timeline/000000000002.ndjson']);
    const outcome = read(line!);
    assert.equal(outcome?.evidence, 'parsed');
    const shown = JSON.stringify(outcome);
    for (const canary of [RECEIPT_DIGEST, RECEIPT_PAYLOAD, 'dispatchReceipt', 'transport']) assert.ok(!shown.includes(canary), canary);
  });

  it('a complete line that does not parse is damaged, and its why quotes none of it', () => {
    const outcome = read(`{"ts":"t","kind":"sent","text":"CANARY-TEXT","dispatchReceipt":{"requestDigest":"${RECEIPT_DIGEST}"`);
    assert.deepEqual(outcome, { evidence: 'damaged', why: 'not JSON' });
  });

  it('bad UTF-8 makes the line damaged', () => {
    const bytes = encode('{"ts":"t","kind":"sent","mid":"m","text":"é","from":null}');
    const bad = bytes.slice();
    bad[bad.indexOf(0xc3)] = 0xff;
    assert.deepEqual(readLine(bad), { evidence: 'damaged', why: 'not valid UTF-8' });
    assert.equal(readLine(bytes)?.evidence, 'parsed');
  });

  it('an empty line is damaged, and says so', () => {
    assert.deepEqual(read(''), { evidence: 'damaged', why: 'an empty line' });
  });

  it('a line that begins with a byte-order mark is damaged: spex never writes one', () => {
    assert.equal(readLine(Uint8Array.of(0xef, 0xbb, 0xbf, ...encode('{"kind":"x"}')))?.evidence, 'damaged');
  });

  it('a line ending in a carriage return still parses', () => {
    assert.equal(read('{"ts":"t","kind":"status","status":"idle","proposal":null,"note":null}\r')?.evidence, 'parsed');
  });

  it('JSON that is not an object is invalid', () => {
    assert.deepEqual(read('[1,2,3]'), { evidence: 'invalid', why: 'an event is a JSON object' });
    assert.deepEqual(read('"text"'), { evidence: 'invalid', why: 'an event is a JSON object' });
  });

  it('an object without a kind, or with a kind that is not a string, is invalid and says why', () => {
    assert.deepEqual(read('{"ts":"t"}'), { evidence: 'invalid', why: 'kind: missing' });
    assert.deepEqual(read('{"ts":"t","kind":7}'), { evidence: 'invalid', why: 'kind: expected a string' });
  });

  it('a sent line without from is invalid: an absent sender is not read as a person', () => {
    const outcome = read('{"ts":"t","kind":"sent","mid":"m","text":"x"}');
    assert.equal(outcome?.evidence, 'invalid');
    assert.match(outcome?.evidence === 'invalid' ? outcome.why : '', /^sent: from: /);
  });

  it('a sent line without text or mid, or a status line without status, is invalid, naming the field', () => {
    const why = (text: string) => {
      const outcome = read(text);
      return outcome?.evidence === 'invalid' ? outcome.why : outcome?.evidence;
    };
    assert.match(why('{"ts":"t","kind":"sent","mid":"m","from":null}') ?? '', /^sent: text: /);
    assert.match(why('{"ts":"t","kind":"sent","mid":"","text":"x","from":null}') ?? '', /^sent: mid: empty/);
    assert.match(why('{"ts":"t","kind":"status","proposal":null,"note":null}') ?? '', /^status: status: /);
  });

  it('a key written twice makes the line invalid: the reader picks neither', () => {
    const outcome = read('{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"from":"b"}');
    assert.deepEqual(outcome, { evidence: 'invalid', why: 'duplicate key "from": the line says two things, and the reader picks neither' });
  });

  it('a key written twice inside the private field names nothing of it, and the line is read', () => {
    const outcome = read(`{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"dispatchReceipt":{"requestDigest":"a","requestDigest":"${RECEIPT_DIGEST}"}}`);
    assert.equal(outcome?.evidence, 'parsed');
  });

  it('an id longer than any writer writes makes the line invalid rather than a text held in memory', () => {
    const outcome = read(lineOf({ ts: 't', kind: 'sent', mid: 'm'.repeat(FACT_MAX_LENGTH + 1), text: 'x', from: null }));
    assert.equal(outcome?.evidence, 'invalid');
    assert.ok(JSON.stringify(outcome).length < 300);
    const kind = read(lineOf({ ts: 't', kind: 'k'.repeat(FACT_MAX_LENGTH + 1) }));
    assert.equal(kind?.evidence, 'invalid');
    assert.ok(JSON.stringify(kind).length < 300);
  });

  it('a key written twice that is very long is named in a short why', () => {
    const key = 'k'.repeat(10_000);
    const outcome = read(`{"kind":"x","${key}":1,"${key}":2}`);
    assert.equal(outcome?.evidence, 'invalid');
    assert.ok(JSON.stringify(outcome).length < 300);
  });

  it('JSON nested deeper than any writer writes is invalid, and nothing walks it', () => {
    const deep = `{"kind":"x","v":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    assert.deepEqual(read(deep), { evidence: 'invalid', why: `JSON nested deeper than ${MAX_LINE_DEPTH} levels; not shown` });
  });

  it("an empty proposal ('') is no proposal: awaiting with one is done", () => {
    const outcome = read('{"ts":"t","kind":"status","status":"awaiting","proposal":"","note":""}');
    assert.deepEqual(outcome, { evidence: 'parsed', facts: { kind: 'status', ts: 't', status: 'awaiting', word: 'done', proposal: null, hasNote: false } });
  });
});
