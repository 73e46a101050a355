import { isUtf8 } from 'node:buffer';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createJsonStringDecoder } from '../../shared/jsonStringPieces.ts';
import { createSharedWork } from '../sources/sharedWork.ts';
import { PAGE_TEXT_LIMIT_BYTES, type LargeText } from '../../shared/wire/common.ts';
import type { TextPieces } from './exportParts.ts';

// A text too large to hold (a spex line, a set-agent-comm body of hundreds of megabytes) goes
// out of an export a piece at a time. Before its first byte is sent, it is looked through once, a
// piece at a time, for what must be known first: whether it is UTF-8 (a JSON string, or base64),
// and whatever its kind looks for in it (spex: a name of its private data). That look is shared
// by every export of the same text that wants it at the same time, and kept a little while after:
// ten clients exporting one session read the text once for it, then each reads what it sends.

/** Texts over this size (a spex line, a set-agent-comm body) are large: never read whole, nor held. */
export const LARGE_TEXT_BYTES = 4 * 1024 * 1024;
/**
 * How much of a large text a page or an item reads: its head, up to a page's limit of text, after
 * what comes before the text in its holder (the members of a spex line before its `text`).
 */
export const LARGE_HEAD_READ_BYTES = PAGE_TEXT_LIMIT_BYTES * 2;
/** How much of a large text is read at a time. */
export const PIECE_BYTES = 1024 * 1024;
/** A kind's look sees each piece with this many bytes of the one before it: a name cut across pieces is still seen. */
const OVERLAP_BYTES = 64;
/** Looks kept after they end, for the next export of the same text. */
const KEPT_LOOKS = 16;

/** Reads `length` bytes at `at` of the text (from its start); a failure says why, in the kind's words. */
export type PieceRead = (at: number, length: number) => Uint8Array | { failed: string };

/**
 * What the look through a text found: whether it is UTF-8, whether the kind's look saw what it
 * looks for, and the longest run of backticks in it, for a Markdown fence that nothing in the
 * text can close (a JSON text's `\u0060` counted as one: a spex line's text is its JSON string).
 */
type TextLook = { utf8: boolean; seen: boolean; backticks: number } | { failed: string };

const shareLook = createSharedWork<TextLook>(KEPT_LOOKS);

/**
 * Looks through a text of `size` bytes a piece at a time, yielding to other work between pieces.
 * `key` names the text and its state (its file's identity and range): a look of the same key in
 * progress, or kept, is shared. `lookFor` is given each piece with the end of the one before.
 */
export function lookThrough(key: string, size: number, read: PieceRead, lookFor: ((window: Uint8Array) => boolean) | null, signal: AbortSignal): Promise<TextLook> {
  return shareLook(key, signal, (shared) => readThrough(size, read, lookFor, shared));
}

async function readThrough(size: number, read: PieceRead, lookFor: ((window: Uint8Array) => boolean) | null, signal: AbortSignal): Promise<TextLook> {
  let carry: Uint8Array = new Uint8Array(0);
  let before: Uint8Array = new Uint8Array(0);
  let utf8 = true;
  let seen = false;
  const backticks = createBacktickCount();
  for (let at = 0; at < size; at += PIECE_BYTES) {
    await nextTurn();
    signal.throwIfAborted();
    const piece = read(at, Math.min(PIECE_BYTES, size - at));
    if (!(piece instanceof Uint8Array)) return piece;
    if (lookFor !== null && !seen) {
      seen = lookFor(before.length === 0 ? piece : Buffer.concat([before, piece]));
      before = piece.slice(Math.max(0, piece.length - OVERLAP_BYTES));
    }
    if (utf8) {
      // A character cut at the piece's end is checked with the next piece.
      const bytes = carry.length === 0 ? piece : Buffer.concat([carry, piece]);
      const whole = at + piece.length >= size ? bytes.length : completeCharacters(bytes);
      utf8 = isUtf8(bytes.subarray(0, whole));
      carry = bytes.slice(whole);
    }
    backticks.see(piece);
  }
  return { utf8, seen, backticks: backticks.longest() };
}

/** The longest run of backticks in bytes seen a piece at a time; `\u0060` is one, as a JSON string writes it. */
function createBacktickCount() {
  let run = 0;
  let longest = 0;
  let carry: Uint8Array = new Uint8Array(0);
  return {
    see(piece: Uint8Array): void {
      const bytes = carry.length === 0 ? piece : Buffer.concat([carry, piece]);
      carry = new Uint8Array(0);
      // Most bytes are neither a backtick nor a backslash: the next of each is found natively, once.
      let tick = -1;
      let slash = -1;
      for (let at = 0; at < bytes.length; ) {
        if (tick < at) tick = bytes.indexOf(0x60, at) >>> 0;
        if (slash < at) slash = bytes.indexOf(0x5c, at) >>> 0;
        const next = Math.min(tick, slash, bytes.length);
        if (next > at) {
          run = 0;
          at = next;
          continue;
        }
        if (at === tick) {
          longest = Math.max(longest, ++run);
          at++;
        } else if (at + 6 > bytes.length) {
          carry = bytes.slice(at);
          break;
        } else if (isEscapedBacktick(bytes, at)) {
          longest = Math.max(longest, ++run);
          at += 6;
        } else {
          run = 0;
          at += 2;
        }
      }
    },
    longest: () => longest,
  };
}

function isEscapedBacktick(bytes: Uint8Array, at: number): boolean {
  return bytes[at + 1] === 0x75 && bytes[at + 2] === 0x30 && bytes[at + 3] === 0x30 && bytes[at + 4] === 0x36 && bytes[at + 5] === 0x30;
}

/** How many of the bytes end with a whole character: a lead byte in the last three whose sequence is cut is left for later. */
function completeCharacters(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** The text's pieces as it is sent, read one at a time; a piece that cannot be read ends the export with an error. */
export function readPieces(size: number, read: PieceRead, utf8: boolean): TextPieces {
  return {
    utf8,
    async *read(signal) {
      for (let at = 0; at < size; at += PIECE_BYTES) {
        signal.throwIfAborted();
        const piece = read(at, Math.min(PIECE_BYTES, size - at));
        if (!(piece instanceof Uint8Array)) throw new Error(`the text could not be read again as it was sent: ${piece.failed}`);
        yield piece;
      }
    },
  };
}

/** The mark of a large text whose head a page or an item shows: `shown` is that head. */
export function markLargeText(holder: LargeText['holder'], bytes: number, shown: string | null): LargeText {
  return { holder, bytes, shownBytes: shown === null ? 0 : Buffer.byteLength(shown, 'utf8') };
}

/** Pieces of a JSON string's bytes (from just after its opening quote) as its text's UTF-8, to its closing quote. */
export function decodeJsonPieces(pieces: TextPieces): TextPieces {
  return {
    utf8: pieces.utf8,
    async *read(signal) {
      const decoder = createJsonStringDecoder();
      for await (const piece of pieces.read(signal)) {
        const text = decoder.decode(piece);
        if (text.length > 0) yield text;
        if (decoder.ended()) return;
      }
    },
  };
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0b || byte === 0x0c;

/**
 * Pieces without the white space at their start and their end (a set-agent-comm body is read
 * so): white space is held back until a byte that is not follows it.
 */
export function trimPieces(pieces: TextPieces): TextPieces {
  return {
    utf8: pieces.utf8,
    async *read(signal) {
      let started = false;
      let held: Uint8Array[] = [];
      for await (let piece of pieces.read(signal)) {
        if (!started) {
          let from = 0;
          while (from < piece.length && isSpace(piece[from]!)) from++;
          if (from === piece.length) continue;
          started = true;
          piece = piece.subarray(from);
        }
        let end = piece.length;
        while (end > 0 && isSpace(piece[end - 1]!)) end--;
        if (end === 0) {
          held.push(piece);
          continue;
        }
        yield* held;
        yield piece.subarray(0, end);
        held = end === piece.length ? [] : [piece.subarray(end)];
      }
    },
  };
}
