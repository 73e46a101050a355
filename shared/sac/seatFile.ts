import type { EvidenceState } from '../record/evidence.ts';
import { parseInstant } from './time.ts';

// One seat file (`channels/<room>/<seat>.md`), read incrementally: sac appends to it and never
// rewrites it (sac-channels-format: Entries). Each append is one write of `\n` (unless the file
// is empty), the header and `\n`, the trimmed body and `\n`. So an entry ends where the next
// header begins, and the last entry of a file is open: what follows the last `\n` may still be
// part of its body. The core holds facts and byte ranges; texts are read again from the bytes.

/** sac's entry header, exactly as its `store.mjs` defines it (sac-channels-format: Entries). */
export const ENTRY_HEADER =
  /^## (\d{4}-\d{2}-\d{2}T[\d:.]+(?:[+-]\d{2}:\d{2}|Z)?) — (QUESTION|ANSWER|FACT|REQUEST|KÉRDÉS|VÁLASZ|TÉNY|KÉRÉS)(?:\s*→\s*([^\n(]+?))?(?:\s*\(re: ([^)]*)\))?\s*$/;

export const ENTRY_TYPES = ['QUESTION', 'ANSWER', 'FACT', 'REQUEST'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/** The older, Hungarian names of the four types: still on disk, read as the type they stand for. */
const LEGACY_TYPES: Readonly<Record<string, EntryType>> = { KÉRDÉS: 'QUESTION', VÁLASZ: 'ANSWER', TÉNY: 'FACT', KÉRÉS: 'REQUEST' };

/** What an entry's header says. No text: the body is read again from its byte range. */
export type EntryFacts = {
  /** The time as written: local, with the writer's offset. */
  time: string;
  /** The instant it names (epoch ms), for ordering; null when it names none (see parseInstant). */
  instant: number | null;
  /** The type the header stands for. */
  type: EntryType;
  /** The type word as written: the type itself, or its older name (`KÉRDÉS`). */
  typeWord: string;
  /** Addressees as written (seats, agent names, `agent@host`), trimmed; empty: to everyone. */
  to: string[];
  /** The time of the entry this one answers, as written. */
  re: string | null;
};

/** Reads one line (without its `\n`) as a header, as sac's `parse` does; null if it is not one. */
export function readHeader(line: string): EntryFacts | null {
  const match = ENTRY_HEADER.exec(line);
  if (match === null) return null;
  const time = match[1]!;
  const typeWord = match[2]!;
  // sac's parseTo: split on commas, trim, drop empties and repeats.
  const to = match[3] === undefined ? [] : [...new Set(match[3].split(',').map((name) => name.trim()).filter((name) => name !== ''))];
  const re = match[4]?.trim() || null;
  return { time, instant: parseInstant(time), type: LEGACY_TYPES[typeWord] ?? (typeWord as EntryType), typeWord, to, re };
}

/** What one stretch of a seat file's bytes is. Ranges are byte offsets in the file, end exclusive. */
export type SeatFileItem =
  /** Text before the first header: not an entry; evidence `stray` (or `changed`). */
  | { type: 'stray-text'; start: number; end: number; evidence: EvidenceState; why: string | null }
  | {
      type: 'entry';
      start: number;
      /** Where the next header begins, or the end of what was read for the last entry. */
      end: number;
      /** After the header line; the body runs to `end` and its text is readBodyText of those bytes. */
      bodyStart: number;
      facts: EntryFacts;
      /** parsed; pending or damaged (torn) while it has no body; changed when the file was rewritten. */
      evidence: EvidenceState;
      why: string | null;
      /** The file's last entry: its body may still grow until the next header begins. */
      open: boolean;
    }
  /** Bytes after the last `\n`: a line still being written (pending), or a torn write (damaged). */
  | { type: 'tail'; start: number; end: number; evidence: EvidenceState; why: string | null };

export type SeatFileEntry = Extract<SeatFileItem, { type: 'entry' }>;

/** A problem with the file itself, rather than with a stretch of it. */
export type SeatFileProblem =
  /** Shrank, or bytes already read changed: sac only appends, so something else rewrote it. Sticky. */
  | { code: 'changed-after-read'; why: string }
  /** The reader could not read it; what was read before is kept. Cleared by the next read. */
  | { code: 'unreadable'; why: string };

/** What the core knows of one seat file between reads: facts and offsets, no text. */
export type SeatFileReading = {
  room: string;
  seat: string;
  /** Bytes parsed: up to and including the last `\n`. The next read begins here. */
  offset: number;
  /** Bytes seen: `offset` and the tail after it. 0: the seat joined and never wrote. */
  size: number;
  /** In file order: stray text, entries, then the tail. */
  items: SeatFileItem[];
  problem: SeatFileProblem | null;
  /** What the scan carries from one read to the next. */
  scan: {
    /** The last line read was empty: sac writes one before every header but the first. */
    lastLineEmpty: boolean;
    /** The open entry's body holds more than white space. */
    bodyHasText: boolean;
    /** The offset at which the caller said the pending window passed: what still waits there is torn. */
    tornAt: number | null;
  };
};

export function createSeatFileReading(room: string, seat: string): SeatFileReading {
  return { room, seat, offset: 0, size: 0, items: [], problem: null, scan: { lastLineEmpty: false, bodyHasText: false, tornAt: null } };
}

const WHY_TORN_TAIL = 'a line left unterminated past the pending window: a write cut short (torn); unknown evidence';
const WHY_PENDING_TAIL = 'a line still being written';
const WHY_PENDING_BODY = 'a header whose body is still being written';
const WHY_TORN_BODY = 'a header with no body past the pending window: a write cut short (torn); unknown evidence';
const WHY_NO_BODY = 'a header with no body, and a later entry after it: its write was cut short (torn); unknown evidence';
const WHY_NOT_SEPARATED =
  'the next entry begins right after its last line, without the empty line sac writes between entries: a write was cut short here (torn), and what its body ends with may be the cut write; unknown evidence';

const NEWLINE = 0x0a;
const HASH = 0x23;
const SPACE = 0x20;
// The byte-order mark stays: sac reads files as UTF-8 with it, and a header after one is no header.
const text = new TextDecoder('utf-8', { ignoreBOM: true });

export type ReadOptions = {
  /**
   * The caller's word that the pending window has passed (10 s after the file's mtime or first
   * sight, timed by the caller): whatever still waits for the writer is a torn write.
   */
  pendingWindowPassed?: boolean;
};

/**
 * Reads a seat file's bytes from `from` to its end (the caller reads from `reading.offset`; a tail
 * left pending is read again). Parses complete lines only; the bytes after the last `\n` are the
 * tail. Never throws: a file found shorter than what was seen is changed after read, and a
 * reading that changed after read reads nothing more (its bytes are never taken as new data).
 */
export function readSeatFile(previous: SeatFileReading, bytes: Uint8Array, from: number, options: ReadOptions = {}): SeatFileReading {
  if (previous.problem?.code === 'changed-after-read') return previous;
  if (from > previous.offset) {
    return { ...previous, problem: { code: 'unreadable', why: `bytes from ${from} were read, but bytes from ${previous.offset} were needed` } };
  }
  if (from + bytes.length < previous.size) {
    return noteSeatFileChanged(previous, `the file shrank from ${previous.size} to ${from + bytes.length} bytes after it was read`);
  }
  const data = bytes.subarray(previous.offset - from);
  const complete = data.lastIndexOf(NEWLINE) + 1;
  const items = previous.items.slice();
  if (items.at(-1)?.type === 'tail') items.pop();
  const scan = { ...previous.scan };
  let open = items.at(-1)?.type === 'entry' && (items.at(-1) as SeatFileEntry).open ? (items.pop() as SeatFileEntry) : null;

  let lineStart = 0;
  while (lineStart < complete) {
    const lineEnd = data.indexOf(NEWLINE, lineStart);
    const at = previous.offset + lineStart;
    const facts = startsAsHeader(data, lineStart, lineEnd) ? readHeader(text.decode(data.subarray(lineStart, lineEnd))) : null;
    if (facts !== null) {
      if (open !== null) items.push(closeEntry(open, at, scan));
      open = { type: 'entry', start: at, end: at, bodyStart: previous.offset + lineEnd + 1, facts, evidence: 'parsed', why: null, open: true };
      scan.bodyHasText = false;
      scan.lastLineEmpty = false;
    } else {
      if (open !== null) scan.bodyHasText ||= hasText(data, lineStart, lineEnd);
      else growStrayText(items, previous.offset + lineEnd + 1);
      scan.lastLineEmpty = lineEnd === lineStart;
    }
    lineStart = lineEnd + 1;
  }

  const offset = previous.offset + complete;
  const size = previous.offset + data.length;
  const awaits = size > offset || (open !== null && !scan.bodyHasText);
  // Torn stays torn while nothing new completes, even as the tail grows (as a damaged record file
  // stays damaged while it does not parse); a new complete line starts a new wait.
  if (scan.tornAt !== offset) scan.tornAt = null;
  if (options.pendingWindowPassed === true && awaits) scan.tornAt = offset;
  const torn = scan.tornAt !== null;
  if (open !== null) {
    const waiting = !scan.bodyHasText;
    items.push({ ...open, end: offset, evidence: waiting ? (torn ? 'damaged' : 'pending') : 'parsed', why: waiting ? (torn ? WHY_TORN_BODY : WHY_PENDING_BODY) : null });
  }
  if (size > offset) items.push({ type: 'tail', start: offset, end: size, evidence: torn ? 'damaged' : 'pending', why: torn ? WHY_TORN_TAIL : WHY_PENDING_TAIL });
  return { room: previous.room, seat: previous.seat, offset, size, items, problem: null, scan };
}

/** An entry whose end is now known: the next header begins at `end`. */
function closeEntry(open: SeatFileEntry, end: number, scan: SeatFileReading['scan']): SeatFileEntry {
  // sac never writes an empty body, and each later append begins on an empty line: either missing
  // means a write stopped part way and the next one went on after it.
  if (!scan.bodyHasText) return { ...open, end, open: false, evidence: 'damaged', why: WHY_NO_BODY };
  if (!scan.lastLineEmpty) return { ...open, end, open: false, evidence: 'damaged', why: WHY_NOT_SEPARATED };
  return { ...open, end, open: false, evidence: 'parsed', why: null };
}

function growStrayText(items: SeatFileItem[], end: number): void {
  const first = items[0];
  if (first?.type === 'stray-text') items[0] = { ...first, end };
  else items.push({ type: 'stray-text', start: 0, end, evidence: 'stray', why: 'text before the first header: not an entry' });
}

function startsAsHeader(data: Uint8Array, start: number, end: number): boolean {
  return end - start >= 3 && data[start] === HASH && data[start + 1] === HASH && data[start + 2] === SPACE;
}

/** Whether a line holds more than white space, as String.prototype.trim sees white space. */
function hasText(data: Uint8Array, start: number, end: number): boolean {
  let wide = false;
  for (let i = start; i < end; i++) {
    const byte = data[i]!;
    if (byte >= 0x80) wide = true;
    else if (byte !== 0x20 && (byte < 0x09 || byte > 0x0d)) return true;
  }
  return wide && /\S/.test(text.decode(data.subarray(start, end)));
}

/**
 * Whether something in the file is pending: a tail, or a last header with no body yet. The caller
 * times the pending window while this holds, and says when it passed.
 */
export function awaitsWriter(reading: SeatFileReading): boolean {
  return reading.items.at(-1)?.evidence === 'pending';
}

/**
 * The caller found the file shrunk, or bytes it had read changed (by a fingerprint of them): sac
 * only appends, so something else rewrote it. What each entry said when read is kept, in its
 * place; its evidence becomes `changed`, because the bytes at its range may now say something else.
 */
export function noteSeatFileChanged(reading: SeatFileReading, why: string): SeatFileReading {
  if (reading.problem?.code === 'changed-after-read') return reading;
  const changedWhy = `changed after it was read: ${why}`;
  return {
    ...reading,
    items: reading.items.map((item) => ({ ...item, evidence: 'changed', why: changedWhy })),
    problem: { code: 'changed-after-read', why },
  };
}

/** The reader could not read the file now; what was read before is kept as it was. */
export function noteSeatFileUnreadable(reading: SeatFileReading, why: string): SeatFileReading {
  if (reading.problem?.code === 'changed-after-read') return reading;
  return { ...reading, problem: { code: 'unreadable', why } };
}

/** The text of an entry's body, from the bytes of its range `[bodyStart, end)`: its lines, trimmed. */
export function readBodyText(bytes: Uint8Array): string {
  return text.decode(bytes).trim();
}

/** Stray text or a tail, from the bytes of its range, as written. */
export function readRawText(bytes: Uint8Array): string {
  return text.decode(bytes);
}

/** The entries of a reading, in file order. */
export function listEntries(reading: SeatFileReading): SeatFileEntry[] {
  return reading.items.filter((item): item is SeatFileEntry => item.type === 'entry');
}
