import type { EntryReading } from '../../shared/record/entry.ts';
import { readEntry } from '../../shared/record/entry.ts';
import { valueAsWritten } from '../../shared/jsonText.ts';
import { findStringMemberSpan, jsonStringUtf8Length, readMemberHead } from '../../shared/textHead.ts';
import { clipEntry, type Clipping } from './projection.ts';

/** How much of the text's JSON is decoded for its page: twice the limit, enough unless most of it is escapes. */
const HEAD_FACTOR = 2;

/**
 * A large entry clipped for a page from the head of its text, without decoding or parsing the
 * text whole: what `clipEntry` makes of the whole entry, byte for byte (clipEntry.test.ts holds
 * the two to each other). Only for bytes already read whole once as an entry with no key
 * written twice — those whose fingerprint is the one the index took of an entry that parsed —
 * since the text's body between its quotes is not looked at again: the rest of the entry, with
 * the text's body taken out, is read as any entry is, its text put back as its head, and the
 * text's length in UTF-8 counted from its escapes. Null when this cannot say it (no string
 * `text` among the top-level members, a byte-order mark, a head that is mostly escapes, a text
 * within the limit): the caller reads the entry whole.
 */
export function clipLargeEntry(bytes: Uint8Array, limitBytes: number): { reading: Extract<EntryReading, { outcome: 'entry' }>; entry: Record<string, unknown>; clipping: Clipping } | null {
  const span = findStringMemberSpan(bytes, 'text');
  if (span === null) return null;
  const head = readMemberHead(bytes.subarray(0, span.end), 'text', limitBytes * HEAD_FACTOR);
  if (head === null) return null;
  const rest = Buffer.concat([bytes.subarray(0, span.start), bytes.subarray(span.end)]);
  const reading = readEntry(rest);
  if (reading.outcome !== 'entry') return null;
  const value = valueAsWritten(reading.value, reading.source) as Record<string, unknown>;
  if (value['text'] !== '') return null;
  // The same key, so the same place among the entry's fields.
  value['text'] = head.text;
  const { entry, clipping } = clipEntry(value, bytes.length, limitBytes);
  // A head within the limit says nothing of where the whole text would be cut.
  if (clipping?.textClipped === undefined) return null;
  clipping.textClipped = { bytes: jsonStringUtf8Length(bytes.subarray(span.start, span.end)) };
  return { reading, entry, clipping };
}
