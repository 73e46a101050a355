import type { EventFacts, LineOutcome } from './line.ts';
import { FACT_MAX_LENGTH } from './line.ts';
import type { TimelineItem } from './segment.ts';
import { deriveStatusWord } from './statusWord.ts';

// A segment's lines as columns: a home holds a million lines, and an object for each (its item,
// its facts, its time, its message id) is what the reader's memory and its collector spent most
// on. So each line is a row of numbers: its byte range, its time as epoch ms, its shape, and its
// repeating facts (senders, statuses, proposals, kinds) as indexes in one table of names; the
// message ids of a segment lie end to end in one buffer of bytes. A line the columns cannot say
// exactly (damaged, invalid, a time not in the form spex writes, a fact too long for the table)
// keeps its outcome whole, beside them. The item of a line is made again when a page, a search or
// an export asks, and is the one its outcome would have made.

/** A line of each shape; KEPT: its outcome is held whole in `kept`. */
export const SHAPE_SENT = 1;
export const SHAPE_STATUS = 2;
const SHAPE_UNKNOWN = 3;
export const SHAPE_KEPT = 4;
const SHAPE_MASK = 7;
/** A status line whose note is not empty. */
const NOTED = 8;

export type LineColumns = {
  /** The segment's name within the session folder, as its items carry it. */
  readonly segment: string;
  count: number;
  start: Float64Array;
  end: Float64Array;
  /** Epoch ms of the line's `ts`; NaN when it has none (an unknown kind's) or it is kept whole. */
  time: Float64Array;
  /** SHAPE_*, with NOTED. */
  shape: Uint8Array;
  /** Index in the names of: `from` (sent), `status` (status), the kind's name (unknown). 0: null. */
  name: Uint32Array;
  /** Index in the names of: `replyVia` (sent), `proposal` (status). 0: null. */
  also: Uint32Array;
  /** Where each line's message id begins in `mids`; it ends where the next line's begins. */
  midAt: Uint32Array;
  mids: Uint8Array;
  midsUsed: number;
  /** Outcomes of the lines whose shape is SHAPE_KEPT, by their index. */
  kept: Map<number, LineOutcome>;
  /** The lines held, without the room kept for more: what a reading shows when written out. */
  toJSON(): unknown;
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// The names table: facts that repeat, each held once for the whole process. Index 0 is null.
const names: (string | null)[] = [null];
const nameIndex = new Map<string, number>();
/** A name longer than this, or past this many, leaves its line kept whole: the table holds what repeats. */
const NAME_MAX_LENGTH = 128;
const NAMES_MAX = 200_000;

/** The index of a name in the table, added when new; -1 when the table cannot hold it. */
export function indexName(name: string | null): number {
  if (name === null) return 0;
  const known = nameIndex.get(name);
  if (known !== undefined) return known;
  if (name.length > NAME_MAX_LENGTH || names.length >= NAMES_MAX) return -1;
  names.push(name);
  nameIndex.set(name, names.length - 1);
  return names.length - 1;
}

/**
 * indexName for a JSON string without an escape, its quotes at `open` and `close` in a larger
 * text: a name first met is kept as a copy, so the table never holds the text it was cut from.
 */
export function indexNameIn(text: string, open: number, close: number): number {
  const length = close - open - 1;
  if (length > NAME_MAX_LENGTH) return -1;
  // A name met before is found by a few of its chars and a comparison in place, with no copy cut
  // for the lookup: ids differ in their last chars, and statuses in their length and first ones.
  const slot = length === 0 ? 0 : (length * 31 + text.charCodeAt(open + 1) * 7 + text.charCodeAt(close - 1) * 131 + text.charCodeAt(close - 2) * 17 + text.charCodeAt(close - 3)) & (RECENT_SLOTS - 1);
  const recent = recentNames[slot]!;
  if (recent !== 0) {
    const name = names[recent]!;
    if (name.length === length && text.startsWith(name, open + 1)) return recent;
  }
  let known = nameIndex.get(text.slice(open + 1, close));
  if (known === undefined) known = indexName(JSON.parse(text.slice(open, close + 1)) as string);
  if (known > 0) recentNames[slot] = known;
  return known;
}

/** Names met lately, by a few of their chars: most lines name a name met on a line before. */
const RECENT_SLOTS = 4096;
const recentNames = new Uint32Array(RECENT_SLOTS);

/** The index of a name already in the table; -1 when it is not. */
export function findName(name: string): number {
  return nameIndex.get(name) ?? -1;
}

export function nameAt(index: number): string | null {
  return names[index] ?? null;
}

export function createLineColumns(segment: string, capacity = 16): LineColumns {
  return {
    segment,
    count: 0,
    start: new Float64Array(capacity),
    end: new Float64Array(capacity),
    time: new Float64Array(capacity),
    shape: new Uint8Array(capacity),
    name: new Uint32Array(capacity),
    also: new Uint32Array(capacity),
    midAt: new Uint32Array(capacity),
    mids: new Uint8Array(capacity * 16),
    midsUsed: 0,
    kept: new Map(),
    toJSON: describeColumns,
  };
}

function describeColumns(this: LineColumns): unknown {
  const rows = <T extends Float64Array | Uint32Array | Uint8Array>(column: T) => Array.from(column.subarray(0, this.count));
  return {
    segment: this.segment,
    count: this.count,
    start: rows(this.start),
    end: rows(this.end),
    time: rows(this.time),
    shape: rows(this.shape),
    name: rows(this.name),
    also: rows(this.also),
    midAt: rows(this.midAt),
    mids: decoder.decode(this.mids.subarray(0, this.midsUsed)),
    kept: [...this.kept],
  };
}

/** Room for one more line, and `midBytes` more bytes of ids. */
function makeRoom(lines: LineColumns, midBytes: number): number {
  const at = lines.count;
  if (at === lines.start.length) resizeColumns(lines, Math.max(16, at * 2));
  if (lines.midsUsed + midBytes > lines.mids.length) {
    const mids = new Uint8Array(Math.max(lines.mids.length * 2, lines.midsUsed + midBytes));
    mids.set(lines.mids.subarray(0, lines.midsUsed));
    lines.mids = mids;
  }
  lines.midAt[at] = lines.midsUsed;
  lines.count = at + 1;
  return at;
}

function resizeColumns(lines: LineColumns, capacity: number): void {
  const grow = <T extends Float64Array | Uint32Array | Uint8Array>(column: T, make: (n: number) => T): T => {
    const next = make(capacity);
    next.set(column.subarray(0, lines.count));
    return next;
  };
  lines.start = grow(lines.start, (n) => new Float64Array(n));
  lines.end = grow(lines.end, (n) => new Float64Array(n));
  lines.time = grow(lines.time, (n) => new Float64Array(n));
  lines.shape = grow(lines.shape, (n) => new Uint8Array(n));
  lines.name = grow(lines.name, (n) => new Uint32Array(n));
  lines.also = grow(lines.also, (n) => new Uint32Array(n));
  lines.midAt = grow(lines.midAt, (n) => new Uint32Array(n));
}

/** Lets go of the room kept for lines to come: a closed segment gets none. */
export function trimLineColumns(lines: LineColumns): void {
  if (lines.start.length > lines.count) resizeColumns(lines, lines.count);
  if (lines.mids.length > lines.midsUsed) lines.mids = lines.mids.slice(0, lines.midsUsed);
}

/** Adds a `sent` line whose facts are already indexes, and its message id: `text` from `from` to `to`. */
export function appendSentColumns(lines: LineColumns, start: number, end: number, time: number, from: number, replyVia: number, text: string, midFrom: number, midTo: number): void {
  const at = makeRoom(lines, (midTo - midFrom) * 3);
  lines.start[at] = start;
  lines.end[at] = end;
  lines.time[at] = time;
  lines.shape[at] = SHAPE_SENT;
  lines.name[at] = from;
  lines.also[at] = replyVia;
  const { mids } = lines;
  let used = lines.midsUsed;
  for (let i = midFrom; i < midTo; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) {
      // Not ASCII: the id is encoded whole, from where it began.
      used = lines.midsUsed + encoder.encodeInto(text.slice(midFrom, midTo), mids.subarray(lines.midsUsed)).written;
      break;
    }
    mids[used++] = code;
  }
  lines.midsUsed = used;
}

/** Adds a `status` line whose facts are already indexes. */
export function appendStatusColumns(lines: LineColumns, start: number, end: number, time: number, status: number, proposal: number, hasNote: boolean): void {
  const at = makeRoom(lines, 0);
  lines.start[at] = start;
  lines.end[at] = end;
  lines.time[at] = time;
  lines.shape[at] = SHAPE_STATUS | (hasNote ? NOTED : 0);
  lines.name[at] = status;
  lines.also[at] = proposal;
}

/** Adds a line's outcome: in the columns where they say it exactly, else kept whole. */
export function appendLineOutcome(lines: LineColumns, start: number, end: number, outcome: LineOutcome): void {
  if (outcome.evidence === 'parsed' && appendFacts(lines, start, end, outcome.facts)) return;
  const at = makeRoom(lines, 0);
  lines.start[at] = start;
  lines.end[at] = end;
  lines.time[at] = Number.NaN;
  lines.shape[at] = SHAPE_KEPT;
  lines.name[at] = 0;
  lines.also[at] = 0;
  lines.kept.set(at, outcome);
}

function appendFacts(lines: LineColumns, start: number, end: number, facts: EventFacts): boolean {
  switch (facts.kind) {
    case 'sent': {
      const time = readInstantOf(facts.ts);
      const from = indexName(facts.from);
      const replyVia = indexName(facts.replyVia);
      if (Number.isNaN(time) || from < 0 || replyVia < 0 || facts.mid.length > FACT_MAX_LENGTH) return false;
      appendSentColumns(lines, start, end, time, from, replyVia, facts.mid, 0, facts.mid.length);
      return true;
    }
    case 'status': {
      const time = readInstantOf(facts.ts);
      const status = indexName(facts.status);
      const proposal = indexName(facts.proposal);
      if (Number.isNaN(time) || status < 0 || proposal < 0 || facts.word !== deriveStatusWord(facts.status, facts.proposal)) return false;
      appendStatusColumns(lines, start, end, time, status, proposal, facts.hasNote);
      return true;
    }
    case 'unknown': {
      const time = facts.ts === null ? Number.NaN : readInstantOf(facts.ts);
      const kindName = indexName(facts.kindName);
      if ((facts.ts !== null && Number.isNaN(time)) || kindName <= 0) return false;
      const at = makeRoom(lines, 0);
      lines.start[at] = start;
      lines.end[at] = end;
      lines.time[at] = time;
      lines.shape[at] = SHAPE_UNKNOWN;
      lines.name[at] = kindName;
      lines.also[at] = 0;
      return true;
    }
  }
}

/** The item of line `index`, made as its outcome made it. */
export function readLineItem(lines: LineColumns, index: number): TimelineItem {
  const { segment } = lines;
  const start = lines.start[index]!;
  const end = lines.end[index]!;
  const shape = lines.shape[index]! & SHAPE_MASK;
  if (shape === SHAPE_KEPT) {
    const outcome = lines.kept.get(index)!;
    return outcome.evidence === 'parsed' ? { segment, start, end, evidence: 'parsed', facts: outcome.facts } : { segment, start, end, ...outcome };
  }
  return { segment, start, end, evidence: 'parsed', facts: readLineFacts(lines, index) };
}

function readLineFacts(lines: LineColumns, index: number): EventFacts {
  const time = lines.time[index]!;
  const shape = lines.shape[index]!;
  switch (shape & SHAPE_MASK) {
    case SHAPE_SENT:
      return { kind: 'sent', ts: formatInstant(time), mid: readMid(lines, index), from: nameAt(lines.name[index]!), replyVia: nameAt(lines.also[index]!) };
    case SHAPE_STATUS: {
      const status = nameAt(lines.name[index]!)!;
      const proposal = nameAt(lines.also[index]!);
      return { kind: 'status', ts: formatInstant(time), status, word: deriveStatusWord(status, proposal), proposal, hasNote: (shape & NOTED) !== 0 };
    }
    default:
      return { kind: 'unknown', kindName: nameAt(lines.name[index]!)!, ts: Number.isNaN(time) ? null : formatInstant(time) };
  }
}

function readMid(lines: LineColumns, index: number): string {
  const from = lines.midAt[index]!;
  const to = index + 1 < lines.count ? lines.midAt[index + 1]! : lines.midsUsed;
  return decoder.decode(lines.mids.subarray(from, to));
}

/** Every line's item from `from` on, in file order. */
export function listLineItems(lines: LineColumns, from = 0): TimelineItem[] {
  const items: TimelineItem[] = [];
  for (let index = from; index < lines.count; index++) items.push(readLineItem(lines, index));
  return items;
}

/** What a line is, as its item says, without making the item: its evidence and kind. */
export function readLineShape(lines: LineColumns, index: number): number {
  return lines.shape[index]! & SHAPE_MASK;
}

/**
 * The time of a `ts` exactly as spex writes it (`Date#toISOString`: `2026-11-30T17:18:57.126Z`,
 * a year from 0100 to 9999), as epoch ms; NaN for any other text, which stays a text. Such times
 * sort as their texts do, so an order of numbers is the order of the texts.
 */
export function readInstant(text: string, at: number): number {
  if (text.charCodeAt(at + 10) !== 0x54 || text.charCodeAt(at + 13) !== 0x3a || text.charCodeAt(at + 16) !== 0x3a || text.charCodeAt(at + 19) !== 0x2e || text.charCodeAt(at + 23) !== 0x5a) {
    return Number.NaN;
  }
  // A log's lines fall on a few days: each day's date is read once.
  if (!text.startsWith(dayText, at)) {
    const day = readDay(text, at);
    if (Number.isNaN(day)) return Number.NaN;
    dayText = text.slice(at, at + 10);
    dayTime = day;
  }
  const hour = readDigits(text, at + 11, 2);
  const minute = readDigits(text, at + 14, 2);
  const second = readDigits(text, at + 17, 2);
  const ms = readDigits(text, at + 20, 3);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return Number.NaN;
  return dayTime + ((hour * 60 + minute) * 60 + second) * 1000 + ms;
}

// The day last read: its date as written (`2026-11-30`), and its first ms.
let dayText = '1970-01-01';
let dayTime = 0;

/** The first ms of the day written `YYYY-MM-DD` at `at`; NaN when it is no such day. */
function readDay(text: string, at: number): number {
  if (text.charCodeAt(at + 4) !== 0x2d || text.charCodeAt(at + 7) !== 0x2d) return Number.NaN;
  const year = readDigits(text, at, 4);
  const month = readDigits(text, at + 5, 2);
  const day = readDigits(text, at + 8, 2);
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return Number.NaN;
  return Date.UTC(year, month - 1, day);
}

/** readInstant of a whole string. */
export function readInstantOf(ts: string): number {
  return ts.length === 24 ? readInstant(ts, 0) : Number.NaN;
}

export function formatInstant(time: number): string {
  return new Date(time).toISOString();
}

/** The number written in `length` decimal digits at `at`; -1 when any is not a digit. */
function readDigits(text: string, at: number, length: number): number {
  let value = 0;
  for (let i = 0; i < length; i++) {
    const digit = text.charCodeAt(at + i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
