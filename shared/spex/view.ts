import { keepNumberText } from '../jsonText.ts';
import { readMemberHead, readTextHead } from '../textHead.ts';
import { isObject, parseLineJson } from './line.ts';
import type { PublicBytes } from './privateData.ts';
import { findReplyHint } from './replyHint.ts';

// A line's text, read again from its bytes when a page shows it: the index keeps facts and byte
// ranges only. The bytes come as stripPrivateData gave them, since the bytes now at that range may
// not be the ones read then: nothing private is in them.

type LineView =
  /**
   * A JSON object: its fields as written. `text` and `note` are the event's, when they are
   * strings; `hintAt` is where spex's reply hint begins in `text`.
   */
  | { view: 'fields'; fields: Record<string, unknown>; text: string | null; note: string | null; hintAt: number | null }
  /** Bytes that are not a JSON object, or one that writes a key twice: shown as they are. */
  | { view: 'raw'; raw: string }
  /** Not shown, and why: not UTF-8, or JSON too deep to walk. */
  | { view: 'withheld'; why: string };

/** Reads the bytes of one line (an item's [start, end)) for a page. Never throws. */
export function readLineView(bytes: PublicBytes): LineView {
  const parsed = parseLineJson(bytes, keepNumberText);
  switch (parsed.outcome) {
    case 'unsafe':
      return { view: 'withheld', why: parsed.why };
    case 'unparsed':
      if (parsed.why === 'not valid UTF-8') return { view: 'withheld', why: 'not valid UTF-8' };
      return { view: 'raw', raw: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
    case 'json':
      break;
  }
  const { value, source, scan } = parsed;
  // A key written twice is shown as written, both values.
  if (scan.duplicate !== null || !isObject(value)) return { view: 'raw', raw: source };
  const text = typeof value['text'] === 'string' ? value['text'] : null;
  const note = typeof value['note'] === 'string' ? value['note'] : null;
  return { view: 'fields', fields: value, text, note, hintAt: text === null ? null : findReplyHint(text) };
}

/**
 * Reads the first bytes of a line too large to read whole: an event's `text` and `note` as far as
 * `limitBytes` of each (`as: 'fields'`), or the line as written as far as that (`as: 'raw'`: a
 * line that is no event, or of a kind spex's reader does not know). Where the reply hint begins is
 * not known: it ends a text whose end is not read.
 */
export function readLineHeadView(head: PublicBytes, as: 'fields' | 'raw', limitBytes: number): LineView {
  if (as === 'raw') {
    const raw = readTextHead(head, limitBytes);
    return raw === null ? { view: 'withheld', why: 'not valid UTF-8' } : { view: 'raw', raw };
  }
  const text = readMemberHead(head, 'text', limitBytes)?.text ?? null;
  const note = readMemberHead(head, 'note', limitBytes)?.text ?? null;
  return { view: 'fields', fields: {}, text, note, hintAt: null };
}
