import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../seededRandom.ts';
import { EXAMPLE, ONE, RECEIPT_DIGEST, RECEIPT_PAYLOAD, RECEIPT_TRANSPORT, encode } from './fixtures.test.ts';
import { stripPrivateData } from './privateData.ts';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const CANARY = 'CANARY-PRIVATE-3e8b';
const receipt = { operation: 'merge', requestDigest: CANARY, payloadHash: RECEIPT_PAYLOAD, delivery: { text: `${RECEIPT_TRANSPORT} ${CANARY}`, from: null } };

/** What a line shows once stripped: its text, or the word for what became of it. */
function strip(text: string): string {
  const seen = stripPrivateData(encode(text));
  return seen.seen === 'as-written' || seen.seen === 'stripped' ? decode(seen.bytes) : seen.seen;
}

describe("spex's private data taken out of a line's bytes", () => {
  it('a line that names nothing private is given back as the very bytes the file holds', () => {
    const lines = [
      ...EXAMPLE[ONE]['timeline/000000000001.ndjson'].split('\n'),
      '{ "kind" : "handover",  "n": 1.50, "note":"tab\\there, \\u001b[31mred\\u001b[0m, \\ud83d" }',
      '{"ts":"t","kind":"sent","mid":"m","text":"a message about the dispatcher and its receipts","from":null}',
      '{"ts":"t","kind":"sent","te',
      '',
    ];
    for (const line of lines) {
      const bytes = encode(line);
      const seen = stripPrivateData(bytes);
      assert.equal(seen.seen, 'as-written', line);
      assert.equal(seen.seen === 'as-written' && seen.bytes, bytes, 'the same bytes, not a copy');
    }
    const notUtf8 = Uint8Array.of(0x7b, 0xff, 0x7d);
    assert.equal(stripPrivateData(notUtf8).seen, 'as-written');
  });

  it("a sent line's receipt is cut out, and the rest is the line spex's writer would have written without it", () => {
    const event = { ts: '2026-11-30T17:18:57.126Z', kind: 'sent', mid: 'm', text: 'Merge your branch into main…', from: null };
    assert.equal(strip(JSON.stringify({ ...event, dispatchReceipt: receipt })), JSON.stringify(event));
    const [withReceipt] = EXAMPLE[ONE]['timeline/000000000002.ndjson'].split('\n');
    assert.equal(stripPrivateData(encode(withReceipt!)).seen, 'stripped');
    assert.ok(!strip(withReceipt!).includes(RECEIPT_DIGEST));
  });

  it('a receipt is cut wherever it stands: first, last, alone, twice, nested in an object or an array, under any key order and spacing', () => {
    const r = JSON.stringify(receipt);
    const cases: [string, string][] = [
      [`{"dispatchReceipt":${r},"kind":"sent"}`, '{"kind":"sent"}'],
      [`{"kind":"sent","dispatchReceipt":${r}}`, '{"kind":"sent"}'],
      [`{"dispatchReceipt":${r}}`, '{}'],
      [`{"dispatchReceipt":1,"dispatchReceipt":${r},"kind":"x"}`, '{"kind":"x"}'],
      [`{"kind":"x","dispatchReceipt":1,"a":2,"dispatchReceipt":${r}}`, '{"kind":"x","a":2}'],
      [`{"kind":"x","x":{"dispatchReceipt":${r}}}`, '{"kind":"x","x":{}}'],
      [`{"kind":"x","items":[1,{"a":[{"dispatchReceipt":${r},"b":2}]}]}`, '{"kind":"x","items":[1,{"a":[{"b":2}]}]}'],
      [`{ "kind" : "x" , "dispatchReceipt" : ${r} , "n" : 1.50 }`, '{ "kind" : "x" , "n" : 1.50 }'],
      [`{"kind":"x","dispatch\\u0052eceipt":${r}}`, '{"kind":"x"}'],
      [`{"kind":"x","\\u0064ispatchReceipt":"${CANARY}","text":"\\"dispatchReceipt\\""}`, '{"kind":"x","text":"\\"dispatchReceipt\\""}'],
      [`{"kind":"sent","from":"a","from":"b","x":{"dispatchReceipt":${r}},"x":1}`, '{"kind":"sent","from":"a","from":"b","x":{},"x":1}'],
      [`{"kind":"x","dispatchReceipt":{"requestDigest":"a","requestDigest":"${CANARY}","kind":"dispatch-settled"}}`, '{"kind":"x"}'],
    ];
    for (const [line, shown] of cases) assert.equal(strip(line), shown, line);
  });

  it('a dispatch-settled line is private, whichever of its kinds JSON.parse would keep and however it is spelled', () => {
    const [, settled] = EXAMPLE[ONE]['timeline/000000000002.ndjson'].split('\n');
    for (const line of [settled!, `{"kind":"sent","kind":"dispatch-settled","requestDigest":"${CANARY}"}`, `{"kind":"dispatch-settled","kind":"sent"}`, `{"k\\u0069nd":"dispatch\\u002dsettled","requestDigest":"${CANARY}"}`]) {
      assert.equal(strip(line), 'private', line);
    }
  });

  it('a settled dispatch inside another line withholds that line whole, and says why', () => {
    const seen = stripPrivateData(encode(`{"kind":"handover","events":[{"kind":"dispatch-settled","requestDigest":"${CANARY}"}]}`));
    assert.equal(seen.seen, 'withheld');
    assert.equal(seen.seen === 'withheld' && seen.evidence, 'invalid');
    assert.ok(!JSON.stringify(seen).includes(CANARY));
  });

  it('bytes that are not JSON and name a private name, spelled in any way, are withheld whole as damaged; the why quotes none of them', () => {
    for (const line of [
      `{"ts":"t","kind":"sent","text":"x","dispatchReceipt":{"requestDigest":"${CANARY}"`,
      `{"ts":"t","kind":"dispatch\\u002dsettled","requestDigest":"${CANARY}"`,
      `{"ts":"t","kind":"sent","text":"x","dispatch\\u0052eceipt":"${CANARY}"`,
      `{"ts":"t","kind":"dispatch-settled","requestDigest":"${CANARY}"}}`,
    ]) {
      const seen = stripPrivateData(encode(line));
      assert.deepEqual(seen.seen === 'withheld' && [seen.evidence, seen.damage], ['damaged', 'not JSON'], line);
      assert.ok(!JSON.stringify(seen).includes(CANARY));
    }
    const notUtf8 = Uint8Array.from([...encode(`{"dispatchReceipt":"${CANARY}","x":"`), 0xff, ...encode('"}')]);
    const seen = stripPrivateData(notUtf8);
    assert.deepEqual(seen.seen === 'withheld' && seen.damage, 'not valid UTF-8');
    // A cut line that names nothing private is shown as it is.
    assert.equal(strip('{"ts":"t","kind":"sent","text":"\\u0041 cut'), '{"ts":"t","kind":"sent","text":"\\u0041 cut');
  });

  it('random lines with receipts at random depths come back as JSON without them, every other byte as written', () => {
    const random = createSeededRandom(7);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const space = () => pick(['', '', ' ', '  ', '\t']);
    const scalars = ['1', '-0.50', '1e400', 'true', 'null', '"é ✓"', '"dispatch"', '"\\u001b"', '"\\"q\\""'];
    /** A JSON value as text and as it reads without its receipts. */
    function makeValue(depth: number): { text: string; without: unknown } {
      const roll = random();
      if (depth > 4 || roll < 0.4) {
        const text = pick(scalars);
        return { text, without: JSON.parse(text) };
      }
      if (roll < 0.6) {
        const items = Array.from({ length: Math.floor(random() * 4) }, () => makeValue(depth + 1));
        return { text: `[${items.map((item) => `${space()}${item.text}${space()}`).join(',')}]`, without: items.map((item) => item.without) };
      }
      const members: string[] = [];
      const without: Record<string, unknown> = {};
      const count = Math.floor(random() * 5);
      for (let i = 0; i < count; i++) {
        if (random() < 0.35) {
          members.push(`${space()}"${pick(['dispatchReceipt', 'dispatch\\u0052eceipt'])}"${space()}:${space()}${JSON.stringify(receipt)}`);
          continue;
        }
        const value = makeValue(depth + 1);
        members.push(`${space()}"k${i}"${space()}:${space()}${value.text}${space()}`);
        without[`k${i}`] = value.without;
      }
      return { text: `{${members.join(',')}}`, without };
    }
    let stripped = 0;
    for (let i = 0; i < 3_000; i++) {
      const value = makeValue(0);
      const seen = stripPrivateData(encode(value.text));
      assert.ok(seen.seen === 'as-written' || seen.seen === 'stripped', value.text);
      const shown = decode(seen.bytes);
      assert.ok(!shown.includes(CANARY), value.text);
      assert.deepEqual(JSON.parse(shown), value.without, value.text);
      if (seen.seen === 'stripped') stripped++;
      else assert.equal(shown, value.text);
    }
    assert.ok(stripped > 500, `${stripped} lines had a receipt cut out`);
  });
});
