import { closingQuote } from '../jsonText.ts';

// spex's private delivery data (session-timeline spec: "Both the receipt fields and settlement
// are stripped from timelineEvents and the public timeline API"): a `dispatch-settled` line, and
// a `dispatchReceipt` member. It is taken out of a line's bytes here, where the bytes enter the
// reader (the segment scan, and each range read again for a page, an item, an export, a search or
// the live view), so no reading of a line, whatever the line is (an event, an unknown kind, JSON
// that is no event, bytes that are no JSON), can carry it further.

/** A line of this kind is spex's delivery bookkeeping: never shown, never counted. */
export const PRIVATE_KIND = 'dispatch-settled';
/** A member of this name holds digests and transport bytes: never shown, never kept. */
export const PRIVATE_FIELD = 'dispatchReceipt';

declare const publicMark: unique symbol;
/** Bytes as stripPrivateData gave them: nothing of spex's private data is in them. */
export type PublicBytes = Uint8Array & { readonly [publicMark]: true };

/** What of a line's bytes anything past this point may see. */
type SeenLine =
  /** The bytes as the file holds them: nothing private is in them. */
  | { seen: 'as-written'; bytes: PublicBytes }
  /** The line as written with each `dispatchReceipt` member, at any depth, cut out of it. */
  | { seen: 'stripped'; bytes: PublicBytes }
  /** A `dispatch-settled` line: nothing of it is seen, not even (in a log) that it is there. */
  | { seen: 'private'; why: string }
  /**
   * Bytes that may hold private data which cannot be cut out of them (they are not JSON): none
   * of them is seen. `damage` is what is wrong with the line; `why` says why it is not shown.
   */
  | { seen: 'withheld'; evidence: 'damaged' | 'invalid'; damage: string; why: string };

/** Said of a line whose receipt was cut out, wherever its bytes are shown. */
export const STRIPPED_WORDS = "spex's private delivery receipt was taken out of it";
/**
 * What a line's number counts, said wherever numbers are shown: a private line is neither shown
 * nor numbered (a gap in the numbers would say where one was), so the numbers are of the lines
 * shown, counted across the log's segments, and a line's place in its log only where no private
 * line comes before it.
 */
export const LINE_NUMBERS_WORDS = "lines are numbered across the log's segments, among those shown: a line spex keeps private is neither shown nor counted, so a number is the line's place in its log only where no such line comes before it";

/** Said of a range that holds a private line. */
const PRIVATE_WORDS = "spex's private delivery state: never shown";

const MAY_HOLD_WORDS = "it may hold spex's private delivery data, which cannot be taken out of it: not shown";

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lossy = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * The bytes of one line (or of a tail still being written) as anything else may see them.
 * A line that names neither private name, nor escapes a printable char (the only way JSON can
 * spell a name without its letters), is given back as it is, found by a search of its bytes.
 */
export function stripPrivateData(bytes: Uint8Array): SeenLine {
  if (!mayHoldPrivateBytes(bytes)) return { seen: 'as-written', bytes: bytes as PublicBytes };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return namesPrivate(lossy.decode(bytes)) ? { seen: 'withheld', evidence: 'damaged', damage: 'not valid UTF-8', why: MAY_HOLD_WORDS } : { seen: 'as-written', bytes: bytes as PublicBytes };
  }
  try {
    JSON.parse(text);
  } catch {
    if (!namesPrivate(text)) return { seen: 'as-written', bytes: bytes as PublicBytes };
    // JSON.parse's message quotes the line: the damage is said in words of this module's own.
    return { seen: 'withheld', evidence: 'damaged', damage: /^[ \t\r]*$/.test(text) ? 'an empty line' : 'not JSON', why: MAY_HOLD_WORDS };
  }
  const found = findPrivateMembers(text);
  if (found.privateLine) return { seen: 'private', why: PRIVATE_WORDS };
  if (found.settledInside) return { seen: 'withheld', evidence: 'invalid', damage: "it holds spex's private delivery state (a settled dispatch) inside it", why: PRIVATE_WORDS };
  if (found.cuts.length === 0) return { seen: 'as-written', bytes: bytes as PublicBytes };
  const stripped = cutOut(text, found.cuts);
  // The cuts leave JSON that names nothing private, or the line is not shown at all.
  if (!isStrippedWhole(stripped)) return { seen: 'withheld', evidence: 'invalid', damage: "spex's private delivery receipt could not be taken out of it", why: PRIVATE_WORDS };
  return { seen: 'stripped', bytes: encoder.encode(stripped) as PublicBytes };
}

function isStrippedWhole(text: string): boolean {
  try {
    JSON.parse(text);
  } catch {
    return false;
  }
  const again = findPrivateMembers(text);
  return !again.privateLine && !again.settledInside && again.cuts.length === 0;
}

/** `\u00XY` with X in 2–7 spells a printable ASCII char, which no JSON writer need escape. */
function isPrintableEscape(x: number, y: number): boolean {
  return x >= 0x32 && x <= 0x37 && ((y >= 0x30 && y <= 0x39) || (y >= 0x41 && y <= 0x46) || (y >= 0x61 && y <= 0x66));
}

const DISPATCH = encoder.encode('dispatch');
const RECEIPT_REST = encoder.encode(PRIVATE_FIELD.slice(DISPATCH.length));
const SETTLED_REST = encoder.encode(PRIVATE_KIND.slice(DISPATCH.length));

/** Whether bytes name a private name, or escape a printable char (which may spell one). */
export function mayHoldPrivateBytes(bytes: Uint8Array): boolean {
  for (let at = findDispatch(bytes, 0); at !== -1; at = findDispatch(bytes, at + 1)) {
    if (startsWith(bytes, RECEIPT_REST, at + DISPATCH.length) || startsWith(bytes, SETTLED_REST, at + DISPATCH.length)) return true;
  }
  for (let slash = bytes.indexOf(0x5c); slash !== -1; slash = bytes.indexOf(0x5c, slash + 1)) {
    if (bytes[slash + 1] === 0x75 && bytes[slash + 2] === 0x30 && bytes[slash + 3] === 0x30 && isPrintableEscape(bytes[slash + 4] ?? 0, bytes[slash + 5] ?? 0)) return true;
  }
  return false;
}

// The last place of each byte in `dispatch`, for a search that skips ahead by up to its length.
const SKIP = new Uint8Array(256).fill(DISPATCH.length);
for (let i = 0; i < DISPATCH.length - 1; i++) SKIP[DISPATCH[i]!] = DISPATCH.length - 1 - i;

/** Where `dispatch` next begins in the bytes (Horspool's search): a line's bytes are read once, most of them skipped. */
function findDispatch(bytes: Uint8Array, from: number): number {
  const last = DISPATCH.length - 1;
  for (let at = from; at + last < bytes.length; at += SKIP[bytes[at + last]!]!) {
    if (startsWith(bytes, DISPATCH, at)) return at;
  }
  return -1;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array, at: number): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** Whether text that is no JSON names a private name, its `\uXXXX` escapes read as JSON would. */
function namesPrivate(text: string): boolean {
  const read = text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return read.includes(PRIVATE_FIELD) || read.includes(PRIVATE_KIND);
}

type PrivateMembers = {
  /** The top-level object writes `kind: dispatch-settled` (any of its `kind`s, when written twice). */
  privateLine: boolean;
  /** An object deeper in the line writes `kind: dispatch-settled`. */
  settledInside: boolean;
  /** [start, end) of each `dispatchReceipt` member with one comma beside it, in text order. */
  cuts: [number, number][];
};

/**
 * Walks valid JSON text once, without recursion, for the private members at any depth. Keys are
 * read as JSON reads them (`"dispatch\u0052eceipt"` is the private field); a private member's
 * value is skipped unread. A member is cut with the comma (and spaces) before it, or when no kept
 * member comes before it, with the comma after it, so what is left is JSON and every other byte is
 * as written.
 */
function findPrivateMembers(json: string): PrivateMembers {
  type Level = { object: boolean; kept: number; comma: number };
  const levels: Level[] = [];
  const found: PrivateMembers = { privateLine: false, settledInside: false, cuts: [] };
  let expectKey = false;
  for (let at = 0; at < json.length; at++) {
    const code = json.charCodeAt(at);
    const level = levels.at(-1);
    if (code === 0x7b || code === 0x5b) {
      levels.push({ object: code === 0x7b, kept: 0, comma: -1 });
      expectKey = code === 0x7b;
    } else if (code === 0x7d || code === 0x5d) {
      levels.pop();
    } else if (code === 0x2c && level?.object === true) {
      level.comma = at;
      expectKey = true;
    } else if (code === 0x22) {
      const end = closingQuote(json, at);
      if (!expectKey || level?.object !== true) {
        at = end;
        continue;
      }
      expectKey = false;
      const key = readString(json, at, end);
      const valueAt = skipSpace(json, json.indexOf(':', end + 1) + 1);
      if (key === PRIVATE_FIELD) {
        const valueEnd = skipValue(json, valueAt);
        const after = skipSpace(json, valueEnd);
        found.cuts.push(level.kept > 0 ? [skipSpaceBack(json, level.comma), valueEnd] : json.charCodeAt(after) === 0x2c ? [at, skipSpace(json, after + 1)] : [at, valueEnd]);
        at = valueEnd - 1;
        continue;
      }
      level.kept++;
      if (key === 'kind' && json.charCodeAt(valueAt) === 0x22 && readString(json, valueAt, closingQuote(json, valueAt)) === PRIVATE_KIND) {
        if (levels.length === 1) found.privateLine = true;
        else found.settledInside = true;
      }
      at = end;
    }
  }
  return found;
}

/** The JSON string between the quotes at `open` and `close`, as JSON reads it. */
function readString(json: string, open: number, close: number): string {
  const raw = json.slice(open + 1, close);
  return raw.includes('\\') ? (JSON.parse(json.slice(open, close + 1)) as string) : raw;
}

function cutOut(text: string, cuts: readonly [number, number][]): string {
  let out = '';
  let from = 0;
  for (const [start, end] of cuts) {
    out += text.slice(from, start);
    from = end;
  }
  return out + text.slice(from);
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
function skipSpace(json: string, at: number): number {
  for (let code = json.charCodeAt(at); code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d; code = json.charCodeAt(++at));
  return at;
}

/** The index of the first of the spaces that end just before `at`. */
function skipSpaceBack(json: string, at: number): number {
  for (let code = json.charCodeAt(at - 1); code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d; code = json.charCodeAt(--at - 1));
  return at;
}

/** The index just past the JSON value that begins at `at`, in valid JSON text. */
function skipValue(json: string, at: number): number {
  let depth = 0;
  for (; at < json.length; at++) {
    const code = json.charCodeAt(at);
    if (code === 0x22) {
      at = closingQuote(json, at);
      if (depth === 0) return at + 1;
    } else if (code === 0x7b || code === 0x5b) {
      depth++;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
      if (depth === 0) return at + 1;
      // The enclosing container closes: a bare value (number, true, null) ended just before.
      if (depth < 0) return at;
    } else if (depth === 0 && (code === 0x2c || code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d)) {
      return at;
    }
  }
  return at;
}
