import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readEntry } from '../../shared/record/entry.ts';
import { valueAsWritten } from '../../shared/jsonText.ts';
import { receivedEntry, sentEntry } from '../../shared/test/recordFixtures.ts';
import { clipLargeEntry } from './clipLargeEntry.ts';
import { clipEntry } from './projection.ts';

// A large entry clipped for a page from the head of its text must be what the whole read makes
// of it: the same fields in the same order, the same cut, the same lengths said.

const encoder = new TextEncoder();

/** What a page makes of an entry read whole: parsed, its numbers as written, clipped. */
function clippedWhole(bytes: Uint8Array, limit: number) {
  const reading = readEntry(bytes);
  assert.equal(reading.outcome, 'entry');
  if (reading.outcome !== 'entry') throw new Error('not an entry');
  const { entry, clipping } = clipEntry(valueAsWritten(reading.value, reading.source) as Record<string, unknown>, bytes.length, limit);
  return { facts: reading.facts, details: reading.details, entry: JSON.stringify(entry), clipping };
}

function clippedFromHead(bytes: Uint8Array, limit: number) {
  const page = clipLargeEntry(bytes, limit);
  assert.notEqual(page, null, 'read from the head of its text');
  return { facts: page!.reading.facts, details: page!.reading.details, entry: JSON.stringify(page!.entry), clipping: page!.clipping };
}

/** An entry whose text is written as `body` (a JSON string's body, escapes as written). */
function entryWithText(body: string, entry: Record<string, unknown> = sentEntry(1, '')): Uint8Array {
  const json = JSON.stringify(entry);
  assert.ok(json.includes('"text":""'));
  return encoder.encode(json.replace('"text":""', `"text":"${body}"`));
}

// Every kind of escape, characters of one to four bytes, pairs written raw and escaped, and lone
// halves of a pair: every cut of this, somewhere in the sweep below, falls in or beside each.
const MIXED = String.raw`plain \n\"\\\/\t\u0001 é\u00e9 € \u20ac 😀\ud83d\ude00 \ud800 x\udc00 `;

describe('a large entry clipped for a page from the head of its text', () => {
  it('is what reading it whole makes of it, at every cut through every kind of escape and character', () => {
    const bytes = entryWithText(MIXED.repeat(400));
    for (let limit = 1_000; limit < 1_080; limit++) {
      assert.deepEqual(clippedFromHead(bytes, limit), clippedWhole(bytes, limit), `limit ${limit}`);
    }
  });

  it('keeps the other fields as written and in their place, and leaves out one that is over the limit as the whole read does', () => {
    // The text first among the fields, the others after it.
    const entry = Object.assign({ text: '' }, receivedEntry(2, ''), { note: 'n'.repeat(5_000) });
    const bytes = encoder.encode(
      JSON.stringify(entry)
        .replace('"text":""', `"text":"${MIXED.repeat(100)}"`)
        .replace('"outcome":"consumed"', '"outcome":"consumed","big":12345678901234567890,"tiny":1e400,"neg":-0'),
    );
    const page = clippedFromHead(bytes, 1_000);
    assert.deepEqual(page, clippedWhole(bytes, 1_000));
    assert.match(page.entry, /^\{"text":".*"big":12345678901234567890,"tiny":1e400,"neg":-0/);
    assert.deepEqual(page.clipping.fieldsClipped, [{ field: 'note', bytes: 5_002 }]);
  });

  it('says the whole text\'s length in UTF-8, counted from its escapes, and a file ending in a newline reads the same', () => {
    const bytes = encoder.encode(`${JSON.stringify(sentEntry(3, 'é😀\n'.repeat(3_000)))}\n`);
    assert.deepEqual(clippedFromHead(bytes, 2_000).clipping, { textClipped: { bytes: 3_000 * (2 + 4 + 1) } });
    assert.deepEqual(clippedFromHead(bytes, 2_000), clippedWhole(bytes, 2_000));
  });

  it('leaves to the whole read what its head cannot say: no written text, a byte-order mark, a head of escapes, a text within the limit', () => {
    const withheld = { ...sentEntry(4, ''), text: undefined, textLength: 9, textHash: `sha256:${'0'.repeat(64)}`, pad: 'p'.repeat(5_000) };
    assert.equal(clipLargeEntry(encoder.encode(JSON.stringify(withheld)), 1_000), null);
    assert.equal(clipLargeEntry(encoder.encode(`\ufeff${JSON.stringify(sentEntry(4, 'x'.repeat(5_000)))}`), 1_000), null);
    assert.equal(clipLargeEntry(entryWithText(String.raw`\u0001`.repeat(5_000)), 1_000), null);
    assert.equal(clipLargeEntry(encoder.encode(JSON.stringify(sentEntry(4, 'short', { pad: 'p'.repeat(5_000) }))), 1_000), null);
  });
});
