import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeName, escapeNameBytes } from './nameBytes.ts';

const bytes = (...parts: Array<string | number[]>) => new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part)));

describe('names that are not UTF-8', () => {
  it('a UTF-8 name reads as itself, a replacement character included', () => {
    assert.equal(decodeName(bytes('ünïcødé-🧪 \ufffd')), 'ünïcødé-🧪 \ufffd');
    assert.equal(escapeNameBytes(bytes('ünïcødé-🧪 \ufffd')), 'ünïcødé-🧪 \ufffd');
  });

  it('each byte that is not part of well-formed UTF-8 is shown as \\xhh, and the rest as text', () => {
    assert.equal(decodeName(bytes('bad', [0xff], '-é')), null);
    assert.equal(escapeNameBytes(bytes('bad', [0xff], '-é')), 'bad\\xff-é');
    assert.equal(escapeNameBytes(bytes('notes-', [0xc3, 0x28], '.json')), 'notes-\\xc3(.json');
    assert.equal(escapeNameBytes(bytes([0xe2, 0x82], 'x')), '\\xe2\\x82x', 'a sequence cut short');
  });

  it('overlong forms, surrogates and numbers past U+10FFFF are not UTF-8', () => {
    assert.equal(escapeNameBytes(bytes([0xc0, 0xaf])), '\\xc0\\xaf');
    assert.equal(escapeNameBytes(bytes([0xe0, 0x80, 0xaf])), '\\xe0\\x80\\xaf');
    assert.equal(escapeNameBytes(bytes([0xed, 0xa0, 0x80])), '\\xed\\xa0\\x80');
    assert.equal(escapeNameBytes(bytes([0xf4, 0x90, 0x80, 0x80])), '\\xf4\\x90\\x80\\x80');
    assert.equal(escapeNameBytes(bytes([0xf0, 0x9f, 0xa7, 0xaa])), '🧪');
  });

  it('the same bytes always read the same', () => {
    const name = bytes([0x80, 0xfe], 'a', [0xff]);
    assert.equal(escapeNameBytes(name), escapeNameBytes(Uint8Array.from(name)));
    assert.equal(escapeNameBytes(name), '\\x80\\xfea\\xff');
  });
});
