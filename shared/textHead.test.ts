import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readMemberHead, readTextHead } from './textHead.ts';

const bytesOf = (text: string) => new TextEncoder().encode(text);

describe("the head of a text too large to read whole", () => {
  it("a member's string is read from a line cut anywhere after it begins, up to the limit, never cutting an escape or a character", () => {
    const text = 'one "two"\n三 😀 end';
    const line = JSON.stringify({ ts: '2026-01-01T00:00:00Z', nested: { text: 'not this one', list: [1, '}', { a: null }] }, n: -1.5e3, ok: true, text, after: 1 });
    for (let cut = line.indexOf(',"text"') + 9; cut <= line.length; cut++) {
      for (const limit of [0, 3, 7, 12, 1000]) {
        const head = readMemberHead(bytesOf(line).subarray(0, cut), 'text', limit);
        assert.ok(head !== null, `cut at ${cut}`);
        assert.ok(text.startsWith(head.text) && Buffer.byteLength(head.text) <= limit, `cut at ${cut}, limit ${limit}: ${JSON.stringify(head.text)}`);
      }
    }
    assert.equal(readMemberHead(bytesOf(line), 'text', 1000)!.text, text);
  });

  it('a member the head ends before, one that is not a string, or bytes that are no object give nothing', () => {
    const line = JSON.stringify({ ts: 'x', from: 'y'.repeat(100), text: 'z' });
    assert.equal(readMemberHead(bytesOf(line).subarray(0, 50), 'text', 10), null);
    assert.equal(readMemberHead(bytesOf('{"text":12,"x":1}'), 'text', 10), null);
    assert.equal(readMemberHead(bytesOf('not json "text":"x"'), 'text', 10), null);
  });

  it('a head is what JSON.parse makes of it, with escapes or without, and a raw control character in it gives nothing', () => {
    for (const text of ['plain words, 三 😀', String.raw`a\ttab \"quoted\" \\ \u00e9`, 'x'.repeat(300)]) {
      const line = `{"ts":"x","text":"${text}"}`;
      assert.equal(readMemberHead(bytesOf(line), 'text', 1000)!.text, JSON.parse(`"${text}"`));
    }
    for (const control of ['\t', '\n', '\u0000', '\u001f']) {
      assert.equal(readMemberHead(bytesOf(`{"text":"before${control}after"}`), 'text', 1000), null, JSON.stringify(control));
      assert.equal(readMemberHead(bytesOf(`{"text":"an\\nescape${control}after"}`), 'text', 1000), null, JSON.stringify(control));
    }
  });

  it('a head of bytes is cut at a whole character, and bytes that are not UTF-8 give nothing', () => {
    assert.equal(readTextHead(bytesOf('ab日本'), 4), 'ab');
    assert.equal(readTextHead(new Uint8Array([0x61, 0xff, 0x62]), 3), null);
  });
});
