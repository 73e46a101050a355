import type { EvidenceState } from '../evidence.ts';
import { formatTime } from './time.ts';
import { ENTRY_TYPES, header, readHeaderAt, shareAddressees, TIME_AS_WRITTEN, TYPE_WORDS, type EntryFacts } from './entryHeader.ts';
import { allocateColumns, appendEntries, beginAdded, endAdded, makeRoom, NO_ENTRIES, placeLists, readEntryTo, type EntryColumns } from './seatColumns.ts';

// One seat file (`channels/<room>/<seat>.md`), read incrementally: sac appends to it and never
// rewrites it (sac-channels-format: Entries). Each append is one write of `\n` (unless the file
// is empty), the header and `\n`, the trimmed body and `\n`. So an entry ends where the next
// header begins, and the last entry of a file is open: what follows the last `\n` may still be
// part of its body. The core holds facts and byte ranges; texts are read again from the bytes.
// A store holds millions of entries, so a reading keeps them as columns of numbers and shared
// names (no object and no string of its own per entry), and finds headers by their bytes: only a
// line that begins with `## ` can be one, and only such a line is decoded. What a header line
// says, and reading one from its bytes, is entryHeader.ts's; the columns, seatColumns.ts's.

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
  /** Bytes after the last `\n` that are not the last entry's (see takesTail): a line still being written (pending), or a torn write (damaged). */
  | { type: 'tail'; start: number; end: number; evidence: EvidenceState; why: string | null };

export type SeatFileEntry = Extract<SeatFileItem, { type: 'entry' }>;

/** A problem with the file itself, rather than with a stretch of it. */
type SeatFileProblem =
  /** Shrank, or bytes already read changed: sac only appends, so something else rewrote it. Sticky. */
  | { code: 'changed-after-read'; why: string }
  /** The reader could not read it; what was read before is kept. Cleared by the next read. */
  | { code: 'unreadable'; why: string }
  /** The reader would not read it, and says why (the same file as a secret; a name that is not UTF-8). */
  | { code: 'withheld'; why: string };


/** A closed entry's state; the last entry's is the scan's (it is open). */
export const CLOSED_PARSED = 0;
const CLOSED_NO_BODY = 1;
const CLOSED_NOT_SEPARATED = 2;

type SeatFileScan = {
  /** The last line read was empty: sac writes one before every header but the first. */
  lastLineEmpty: boolean;
  /** The open entry's body holds more than white space. */
  bodyHasText: boolean;
  /** The offset at which the caller said the pending window passed: what still waits there is torn. */
  tornAt: number | null;
};

/** What the core knows of one seat file between reads: facts and offsets, no text. */
export class SeatFileReading {
  readonly room: string;
  readonly seat: string;
  /** Bytes parsed: up to and including the last `\n`. The next read begins here. */
  readonly offset: number;
  /** Bytes seen: `offset` and the tail after it. 0: the seat joined and never wrote. */
  readonly size: number;
  readonly entries: EntryColumns;
  readonly problem: SeatFileProblem | null;
  /** What the scan carries from one read to the next. */
  readonly scan: SeatFileScan;

  constructor(room: string, seat: string, offset: number, size: number, entries: EntryColumns, problem: SeatFileProblem | null, scan: SeatFileScan) {
    this.room = room;
    this.seat = seat;
    this.offset = offset;
    this.size = size;
    this.entries = entries;
    this.problem = problem;
    this.scan = scan;
  }

  /** In file order: stray text, entries, then the tail. Made on each call: a fold of thousands reads the columns. */
  get items(): SeatFileItem[] {
    return listItems(this);
  }
}

export function createSeatFileReading(room: string, seat: string): SeatFileReading {
  return new SeatFileReading(room, seat, 0, 0, NO_ENTRIES, null, { lastLineEmpty: false, bodyHasText: false, tornAt: null });
}

const WHY_STRAY = 'text before the first header: not an entry';
export const WHY_TORN_TAIL = 'a line left unterminated beyond the time a write is given to complete: a write cut short (torn); unknown evidence';
export const WHY_PENDING_TAIL = 'a line still being written';
export const WHY_PENDING_BODY = 'a header whose body is still being written';
export const WHY_TORN_BODY = 'a header whose body has no whole line beyond the time a write is given to complete: a write cut short (torn), shown as far as it was written; unknown evidence';
export const WHY_NO_BODY = 'a header with no body, and a later entry after it: its write was cut short (torn); unknown evidence';
export const WHY_NOT_SEPARATED =
  'the next entry begins right after its last line, without the empty line sac writes between entries: a write was cut short here (torn), and what its body ends with may be the cut write; unknown evidence';

const NEWLINE = 0x0a;
const HASH = 0x23;
const SPACE = 0x20;
// The byte-order mark stays: sac reads files as UTF-8 with it, and a header after one is no header.
const text = new TextDecoder('utf-8', { ignoreBOM: true });

type ReadOptions = {
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
    return setProblem(previous, { code: 'unreadable', why: `bytes from ${from} were read, but bytes from ${previous.offset} were needed` });
  }
  if (from + bytes.length < previous.size) {
    return noteSeatFileChanged(previous, `the file shrank from ${previous.size} to ${from + bytes.length} bytes after it was read`);
  }
  // A plain view of the bytes: a subclass's (a Buffer's) indexOf takes a slower way to the same answer.
  const data = new Uint8Array(bytes.buffer, bytes.byteOffset + (previous.offset - from), bytes.length - (previous.offset - from));
  const base = previous.offset;
  const complete = data.lastIndexOf(NEWLINE) + 1;
  const had = previous.entries.start.length;
  const added = beginAdded();
  const lists = placeLists(previous.entries.lists);
  let open = had > 0;
  let bodyHasText = previous.scan.bodyHasText;
  let lastLineEmpty = previous.scan.lastLineEmpty;
  /** The state the previous read's open entry closed in, when this read closed it. */
  let closedState = -1;
  let regionStart = 0;

  // Lines [regionStart, end) hold no header: the open entry's body, or stray text before the first.
  const takeLines = (end: number) => {
    if (end === regionStart) return;
    if (open && !bodyHasText) bodyHasText = hasText(data, regionStart, end);
    lastLineEmpty = end - 1 === regionStart || data[end - 2] === NEWLINE;
  };

  let candidate = complete >= 3 && data[0] === HASH && data[1] === HASH && data[2] === SPACE ? 0 : findHeaderLine(data, 0, complete);
  while (candidate !== -1) {
    const lineEnd = data.indexOf(NEWLINE, candidate);
    if (readHeaderAt(data, candidate, lineEnd)) {
      takeLines(candidate);
      if (open) {
        const state = !bodyHasText ? CLOSED_NO_BODY : !lastLineEmpty ? CLOSED_NOT_SEPARATED : CLOSED_PARSED;
        if (added.count === 0) closedState = state;
        else added.columns.state[added.count - 1] = state;
      }
      makeRoom(added);
      const at = added.count++;
      const index = had + at;
      const columns = added.columns;
      columns.start[at] = base + candidate;
      columns.headerLength[at] = lineEnd + 1 - candidate;
      columns.instant[at] = header.instant;
      columns.zone[at] = header.zone;
      columns.word[at] = header.word;
      columns.state[at] = CLOSED_PARSED;
      columns.to[at] = lists.placeOf(header.to);
      if (header.re !== null) added.re.push([index, header.re]);
      if (header.zone === TIME_AS_WRITTEN) added.written.push([index, header.written!]);
      open = true;
      bodyHasText = false;
      lastLineEmpty = false;
      regionStart = lineEnd + 1;
    }
    candidate = findHeaderLine(data, lineEnd, complete);
  }
  takeLines(complete);

  const offset = base + complete;
  const size = base + data.length;
  const awaits = size > offset || (open && !bodyHasText);
  // Torn stays torn while nothing new completes, even as the tail grows (as a damaged record file
  // stays damaged while it does not parse); a new complete line starts a new wait.
  let tornAt = previous.scan.tornAt === offset ? offset : null;
  if (options.pendingWindowPassed === true && awaits) tornAt = offset;
  added.lists = lists.lists();
  const entries = added.count === 0 ? previous.entries : appendEntries(previous.entries, added, closedState);
  endAdded(added);
  return new SeatFileReading(previous.room, previous.seat, offset, size, entries, null, { lastLineEmpty, bodyHasText, tornAt });
}

/**
 * The start of the next line after `from` that begins with `## ` and ends before `complete`; -1 if
 * none. Looked for by its `#`, rarer in a seat file than line ends: the line ends between are not visited.
 */
function findHeaderLine(data: Uint8Array, from: number, complete: number): number {
  let at = from;
  for (;;) {
    at = data.indexOf(HASH, at);
    if (at === -1 || at >= complete) return -1;
    if (data[at - 1] === NEWLINE && data[at + 1] === HASH && data[at + 2] === SPACE) return at;
    at++;
  }
}


/** Whether lines hold more than white space, as String.prototype.trim sees white space. */
function hasText(data: Uint8Array, start: number, end: number): boolean {
  let wide = false;
  for (let i = start; i < end; i++) {
    const byte = data[i]!;
    if (byte >= 0x80) wide = true;
    else if (byte !== 0x20 && (byte < 0x09 || byte > 0x0d)) return true;
  }
  if (!wide) return false;
  // White space beyond ASCII (a no-break space): decoded a piece at a time, never a 100 MB body at once.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for (let at = start; at < end; at += 1 << 16) {
    const piece = data.subarray(at, Math.min(end, at + (1 << 16)));
    if (/\S/.test(decoder.decode(piece, { stream: at + (1 << 16) < end }))) return true;
  }
  return false;
}

function setProblem(reading: SeatFileReading, problem: SeatFileProblem): SeatFileReading {
  return new SeatFileReading(reading.room, reading.seat, reading.offset, reading.size, reading.entries, problem, reading.scan);
}

/** How many entries a reading holds. */
export function countEntries(reading: SeatFileReading): number {
  return reading.entries.start.length;
}

/** Entry i's time, as written. */
function readEntryTime(reading: SeatFileReading, index: number): string {
  const columns = reading.entries;
  const zone = columns.zone[index]!;
  return zone === TIME_AS_WRITTEN ? columns.written.get(index)! : formatTime(columns.instant[index]!, zone);
}

/** What entry i's header says. */
function readEntryFacts(reading: SeatFileReading, index: number): EntryFacts {
  const columns = reading.entries;
  const instant = columns.instant[index]!;
  const word = columns.word[index]!;
  return {
    time: readEntryTime(reading, index),
    instant: Number.isNaN(instant) ? null : instant,
    type: ENTRY_TYPES[word % 4]!,
    typeWord: TYPE_WORDS[word]!,
    to: readEntryTo(columns, index),
    re: columns.re.get(index) ?? null,
  };
}

/**
 * Where entry i ends: where the next header begins, or, for the last, where the parsed bytes end;
 * for a last entry that takes the tail (takesTail), where the file ends.
 */
function readEntryEnd(reading: SeatFileReading, index: number): number {
  if (index + 1 < reading.entries.start.length) return reading.entries.start[index + 1]!;
  return takesTail(reading) ? reading.size : reading.offset;
}

/**
 * Whether the bytes after the last `\n` belong to the last entry: it has no body yet, so they are
 * what its one write (header and body together) has put down so far. One write, one stretch: it
 * is pending, or torn, once, never as an entry and a tail of its own.
 */
function takesTail(reading: SeatFileReading): boolean {
  return reading.size > reading.offset && reading.entries.start.length > 0 && !reading.scan.bodyHasText;
}

/** Entry i's evidence, and why when it is not plainly parsed. */
export function readEntryEvidence(reading: SeatFileReading, index: number): { evidence: EvidenceState; why: string | null } {
  if (reading.problem?.code === 'changed-after-read') return { evidence: 'changed', why: `changed after it was read: ${reading.problem.why}` };
  if (index === reading.entries.start.length - 1) {
    if (reading.scan.bodyHasText) return PARSED;
    return reading.scan.tornAt !== null ? { evidence: 'damaged', why: WHY_TORN_BODY } : { evidence: 'pending', why: WHY_PENDING_BODY };
  }
  const state = reading.entries.state[index]!;
  return state === CLOSED_PARSED ? PARSED : { evidence: 'damaged', why: state === CLOSED_NO_BODY ? WHY_NO_BODY : WHY_NOT_SEPARATED };
}

const PARSED = { evidence: 'parsed' as EvidenceState, why: null };

/** Entry i as an item. */
export function readEntry(reading: SeatFileReading, index: number): SeatFileEntry {
  const start = reading.entries.start[index]!;
  const { evidence, why } = readEntryEvidence(reading, index);
  return {
    type: 'entry',
    start,
    end: readEntryEnd(reading, index),
    bodyStart: start + reading.entries.headerLength[index]!,
    facts: readEntryFacts(reading, index),
    evidence,
    why,
    open: index === reading.entries.start.length - 1,
  };
}

/** Where the stray text before the first header ends; 0 when there is none. */
export function strayTextEnd(reading: SeatFileReading): number {
  return reading.entries.start.length > 0 ? reading.entries.start[0]! : reading.offset;
}

/** The stretches of a reading as objects, in file order: stray text, entries, then the tail. */
function listItems(reading: SeatFileReading): SeatFileItem[] {
  const changedWhy = reading.problem?.code === 'changed-after-read' ? `changed after it was read: ${reading.problem.why}` : null;
  const items: SeatFileItem[] = [];
  const strayEnd = strayTextEnd(reading);
  if (strayEnd > 0) items.push({ type: 'stray-text', start: 0, end: strayEnd, evidence: changedWhy === null ? 'stray' : 'changed', why: changedWhy ?? WHY_STRAY });
  for (let i = 0; i < reading.entries.start.length; i++) items.push(readEntry(reading, i));
  const tail = readTail(reading);
  if (tail !== null) items.push(tail);
  return items;
}

/** The bytes after the last `\n` as an item, without making the others; null when there are none. */
export function readTail(reading: SeatFileReading): Extract<SeatFileItem, { type: 'tail' }> | null {
  if (reading.size <= reading.offset || takesTail(reading)) return null;
  const changedWhy = reading.problem?.code === 'changed-after-read' ? `changed after it was read: ${reading.problem.why}` : null;
  const torn = reading.scan.tornAt !== null;
  return {
    type: 'tail',
    start: reading.offset,
    end: reading.size,
    evidence: changedWhy !== null ? 'changed' : torn ? 'damaged' : 'pending',
    why: changedWhy ?? (torn ? WHY_TORN_TAIL : WHY_PENDING_TAIL),
  };
}

/**
 * The stretches a degraded reason rests on, in file order: stray text (whatever its evidence),
 * and torn writes (damaged entries and tails), without making the items.
 */
export function listDegradedRanges(reading: SeatFileReading): { code: 'stray-text' | 'torn-entry'; start: number; end: number }[] {
  const ranges: { code: 'stray-text' | 'torn-entry'; start: number; end: number }[] = [];
  const strayEnd = strayTextEnd(reading);
  if (strayEnd > 0) ranges.push({ code: 'stray-text', start: 0, end: strayEnd });
  if (reading.problem?.code === 'changed-after-read') return ranges;
  const n = reading.entries.start.length;
  const state = reading.entries.state;
  for (let i = 0; i < n - 1; i++) if (state[i] !== CLOSED_PARSED) ranges.push({ code: 'torn-entry', start: reading.entries.start[i]!, end: reading.entries.start[i + 1]! });
  if (reading.scan.tornAt === null) return ranges;
  if (n > 0 && !reading.scan.bodyHasText) ranges.push({ code: 'torn-entry', start: reading.entries.start[n - 1]!, end: readEntryEnd(reading, n - 1) });
  else if (reading.size > reading.offset) ranges.push({ code: 'torn-entry', start: reading.offset, end: reading.size });
  return ranges;
}

/**
 * Whether something in the file is pending: a tail, or a last header with no body yet. The caller
 * times the pending window while this holds, and says when it passed.
 */
export function awaitsWriter(reading: SeatFileReading): boolean {
  if (reading.problem?.code === 'changed-after-read' || reading.scan.tornAt !== null) return false;
  return reading.size > reading.offset || (reading.entries.start.length > 0 && !reading.scan.bodyHasText);
}

/**
 * The caller found the file shrunk, or bytes it had read changed (by a fingerprint of them): sac
 * only appends, so something else rewrote it. What each entry said when read is kept, in its
 * place; its evidence becomes `changed`, because the bytes at its range may now say something else.
 */
export function noteSeatFileChanged(reading: SeatFileReading, why: string): SeatFileReading {
  if (reading.problem?.code === 'changed-after-read') return reading;
  return setProblem(reading, { code: 'changed-after-read', why });
}

/** The reader could not read the file now; what was read before is kept as it was. */
export function noteSeatFileUnreadable(reading: SeatFileReading, why: string): SeatFileReading {
  if (reading.problem?.code === 'changed-after-read') return reading;
  return setProblem(reading, { code: 'unreadable', why });
}

/** The reader would not read the file, for `why`: listed, its evidence unknown, never nothing. */
export function noteSeatFileWithheld(reading: SeatFileReading, why: string): SeatFileReading {
  if (reading.problem?.code === 'changed-after-read') return reading;
  return setProblem(reading, { code: 'withheld', why });
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
  const entries: SeatFileEntry[] = [];
  for (let i = 0; i < reading.entries.start.length; i++) entries.push(readEntry(reading, i));
  return entries;
}

/**
 * A seat file's first reading as a scan thread hands it over (structured-cloned; its numeric
 * columns' one buffer transferred, not copied): everything a reading keeps, in plain values.
 */
export type PackedSeatFileReading = {
  offset: number;
  size: number;
  entries: number;
  /** The columns' buffer; null when there are no entries. */
  columns: ArrayBuffer | null;
  /** Whether the columns are wide (see EntryColumns). */
  wide: boolean;
  lists: (readonly string[])[];
  re: [number, string][];
  written: [number, string][];
  scan: SeatFileScan;
};

/**
 * Reads a whole seat file (from its first byte) for a scan thread: its reading packed, with the
 * buffer to transfer; null when something in it awaits the writer (a tail, a header with no body
 * yet), whose wait only the reader that times it can judge: it reads that file itself.
 */
export function packSeatFileReading(bytes: Uint8Array): { offset: number; value: PackedSeatFileReading; transfer: ArrayBuffer[] } | null {
  const reading = readSeatFile(createSeatFileReading('', ''), bytes, 0);
  if (awaitsWriter(reading)) return null;
  const n = countEntries(reading);
  const columns = n === 0 ? null : (reading.entries.instant.buffer as ArrayBuffer);
  const { lists, re, written } = reading.entries;
  const value: PackedSeatFileReading = { offset: reading.offset, size: reading.size, entries: n, columns, wide: reading.entries.start instanceof Float64Array, lists: [...lists], re: [...re], written: [...written], scan: reading.scan };
  return { offset: reading.offset, value, transfer: columns === null ? [] : [columns] };
}

/** A reading a scan thread packed (packSeatFileReading), as the seat file's reading: its lists shared with every other file's. */
export function adoptSeatFileReading(room: string, seat: string, packed: PackedSeatFileReading): SeatFileReading {
  const entries: EntryColumns =
    packed.columns === null
      ? NO_ENTRIES
      : { ...allocateColumns(packed.entries, packed.wide, packed.columns), lists: packed.lists.map(shareAddressees), re: new Map(packed.re), written: new Map(packed.written) };
  return new SeatFileReading(room, seat, packed.offset, packed.size, entries, null, packed.scan);
}
