import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { fingerprintEntry } from './entryFingerprint.ts';

// An entry's fingerprint tells a file that changed after it parsed: the scan threads, the watcher
// and the export each take it of the bytes they read, and compare it with the one first taken.

/** The fingerprint as it is defined: the first 48 bits of the SHA-1 of the bytes, trailing white space left out. */
function sha1First48Bits(bytes: Uint8Array): number {
  let end = bytes.length;
  while (end > 0 && [0x20, 0x0a, 0x0d, 0x09].includes(bytes[end - 1]!)) end--;
  return createHash('sha1').update(bytes.subarray(0, end)).digest().readUIntBE(0, 6);
}

describe("an entry's fingerprint", () => {
  it('is the first 48 bits of the SHA-1 of its bytes, for any bytes, in a buffer of its own or in part of a larger one', () => {
    const scratch = Buffer.alloc(4096);
    for (let i = 0; i < 2_000; i++) {
      const bytes = randomBytes(i % 1500);
      assert.equal(fingerprintEntry(bytes), sha1First48Bits(bytes), `${bytes.length} random bytes`);
      bytes.copy(scratch, 7);
      assert.equal(fingerprintEntry(scratch.subarray(7, 7 + bytes.length)), sha1First48Bits(bytes), `${bytes.length} bytes within a larger buffer`);
    }
  });

  it('leaves out the white space a writer may end with: the entry with a newline after it is the same entry', () => {
    const text = JSON.stringify({ kind: 'message', text: 'the same words' });
    const bare = fingerprintEntry(Buffer.from(text));
    for (const end of ['\n', '\r\n', ' \t\n', '\n\n\n']) assert.equal(fingerprintEntry(Buffer.from(text + end)), bare, JSON.stringify(end));
    assert.equal(fingerprintEntry(Buffer.from('')), fingerprintEntry(Buffer.from(' \n')), 'nothing but white space is the empty entry');
  });

  it('differs for two texts of one length that differ in one byte, wherever that byte is', () => {
    const text = Buffer.from(JSON.stringify({ kind: 'message', text: 'a text of some length, said once and then said otherwise' }));
    const original = fingerprintEntry(text);
    const seen = new Set([original]);
    for (let at = 0; at < text.length; at++) {
      const changed = Buffer.from(text);
      changed[at] = changed[at]! ^ 0x01;
      const fingerprint = fingerprintEntry(changed);
      assert.notEqual(fingerprint, original, `byte ${at} changed`);
      seen.add(fingerprint);
    }
    assert.equal(seen.size, text.length + 1, 'no two of the changed texts share a fingerprint');
  });
});
