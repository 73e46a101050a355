import { keepNumberText } from '../jsonText.ts';
import { PRIVATE_FIELD, PRIVATE_KIND, isObject, parseLineJson } from './line.ts';
import { findReplyHint } from './replyHint.ts';

// A line's text, read again from its bytes when a page shows it: the index keeps facts and byte
// ranges only. The same private rules apply as when the line was first read, since the bytes now
// at that range may not be the ones read then.

type LineView =
  /**
   * A JSON object: its fields as written, the private field removed. `text` and `note` are the
   * event's, when they are strings; `hintAt` is where spex's reply hint begins in `text`.
   */
  | { view: 'fields'; fields: Record<string, unknown>; text: string | null; note: string | null; hintAt: number | null }
  /** Bytes that are not a JSON object, or one that writes a key twice: shown as they are. */
  | { view: 'raw'; raw: string }
  /** Not shown, and why: private, not UTF-8, or bytes that may hold private data. */
  | { view: 'withheld'; why: string };

/** Reads the bytes of one line (an item's [start, end)) for a page. Never throws. */
export function readLineView(bytes: Uint8Array): LineView {
  const parsed = parseLineJson(bytes, keepNumberText);
  switch (parsed.outcome) {
    case 'private':
      return { view: 'withheld', why: "spex's private delivery state: never shown" };
    case 'unsafe':
      return { view: 'withheld', why: parsed.why };
    case 'unparsed': {
      if (parsed.why === 'not valid UTF-8') return { view: 'withheld', why: 'not valid UTF-8' };
      // Bytes that do not parse cannot have their private field taken out: if they may hold
      // one, none of them is shown.
      const raw = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
      return mayHoldPrivate(raw) ? { view: 'withheld', why: "not JSON, and it may hold spex's private delivery data" } : { view: 'raw', raw };
    }
    case 'json':
      break;
  }
  const { value, source, scan } = parsed;
  if (scan.duplicate !== null || !isObject(value)) {
    // A key written twice is shown as written, both values; the private field cannot be taken
    // out of text, so a line that writes it is withheld.
    return scan.hasPrivateField || mayHoldPrivate(source) ? { view: 'withheld', why: "a line that may hold spex's private delivery data" } : { view: 'raw', raw: source };
  }
  const text = typeof value['text'] === 'string' ? value['text'] : null;
  const note = typeof value['note'] === 'string' ? value['note'] : null;
  return { view: 'fields', fields: value, text, note, hintAt: text === null ? null : findReplyHint(text) };
}

function mayHoldPrivate(text: string): boolean {
  return text.includes(PRIVATE_FIELD) || text.includes(PRIVATE_KIND);
}

