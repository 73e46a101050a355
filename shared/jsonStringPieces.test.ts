import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJsonStringDecoder } from './jsonStringPieces.ts';
import { createSeededRandom } from './seededRandom.ts';

const encoder = new TextEncoder();

/** The JSON string of `text` (after its opening quote), cut into pieces of the sizes given, decoded. */
function decodeInPieces(json: Uint8Array, sizes: () => number): { bytes: Buffer; ended: boolean } {
  const decoder = createJsonStringDecoder();
  const out: Uint8Array[] = [];
  for (let at = 0; at < json.length; ) {
    const end = Math.min(json.length, at + sizes());
    out.push(decoder.decode(json.subarray(at, end)));
    at = end;
  }
  return { bytes: Buffer.concat(out), ended: decoder.ended() };
}

describe('a JSON string decoded a piece at a time', () => {
  it('is the UTF-8 of the text JSON.parse reads, whatever the cuts: escapes, pairs and characters cut across pieces', () => {
    const random = createSeededRandom(17);
    const parts = ['a', '"', '\\', '/', '\n', '\t', '\u0001', '\u0060', '日本', '😀', '\u2028', 'plain text '];
    for (let round = 0; round < 200; round++) {
      let text = '';
      for (let i = 0; i < 40; i++) text += parts[Math.floor(random() * parts.length)];
      // JSON.stringify writes some escapes; the rest are written as \u escapes, as another writer might.
      const json = JSON.stringify(text).replace(/[😀`]/gu, (char) => char.split('').map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('').replace(/\\ud83d\\ude00/g, '\\uD83D\\uDE00'));
      const after = encoder.encode(`${json.slice(1)},"next":"not read"}`);
      const { bytes, ended } = decodeInPieces(after, () => 1 + Math.floor(random() * 9));
      assert.ok(ended, 'its closing quote ends it');
      assert.deepEqual(bytes, Buffer.from(text, 'utf8'), JSON.stringify(text));
    }
  });

  it('a half of a pair without its other half is U+FFFD, as TextEncoder writes it', () => {
    const { bytes } = decodeInPieces(encoder.encode('a\\ud83d b\\ude00"'), () => 3);
    assert.equal(bytes.toString('utf8'), 'a\ufffd b\ufffd');
  });
});
