import type { LineColumns } from './columns.ts';
import { appendLineOutcome, appendSentColumns, appendStatusColumns, indexNameIn, readInstant } from './columns.ts';
import type { EventFacts, LineOutcome } from './line.ts';
import { FACT_MAX_LENGTH } from './line.ts';
import { PRIVATE_FIELD, PRIVATE_KIND } from './privateData.ts';
import { deriveStatusWord } from './statusWord.ts';

// The lean scan of a line: what readLine says of it, found without building the line's object.
// A log of a million lines is mostly long texts the index never keeps; parsing each into an object
// only to drop it costs the first scan most of its time and all of its garbage. So the scan walks
// the line's JSON text once, skips every string it does not keep with a search for its closing
// quote, checks the grammar of what lies between, and reads only the facts readLine would keep.
// It answers only for the plain line spex writes (one object of strings, numbers, true, false and
// null, no key twice, every fact as readLine wants it); for anything else it says nothing, and the
// line is read whole by readLine, whose rules (and words) stay the only ones. Nor does it answer
// for a line that names spex's private data: such a line is handed to readLine, which takes that
// data out of its bytes first (privateData.ts), and the scan keeps nothing of it.

/** `undefined`: the line is not plain, and must be read by readLine. */
type LeanOutcome = LineOutcome | undefined;

/**
 * The decoded text of a stretch of complete lines, with where its next backslash is: a search
 * from each string to the next backslash could cross the rest of a chunk of megabytes, so it is
 * made once and reused until the scan passes it.
 */
type LeanText = { text: string; slashFrom: number; slashAt: number };

/** Chars that JSON never allows raw inside a string, and that spex never writes outside one. */
const CONTROL = /[\x00-\x09\x0b-\x1f]/;
const CONTROL_CHARS = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).filter((char) => char !== '\n');
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * How many bytes of lines are decoded at once: a text this size is an ordinary young object that
 * the next scavenge frees, where one of a whole 4 MiB segment would wait for a full collection.
 */
const WINDOW_BYTES = 64 * 1024;

/**
 * The complete lines of `bytes` up to its last `\n`, each with its text when its stretch of lines
 * is valid UTF-8 (one decode for all of them); the text is null for a line that must be read from
 * its bytes (the stretch is not UTF-8, or the line holds a control character). Returns how many.
 */
export function forEachLine(bytes: Uint8Array, from: number, onLine: (start: number, end: number, chunk: LeanText | null, textStart: number, textEnd: number) => void): number {
  const last = bytes.lastIndexOf(0x0a);
  if (last < 0 || last < from) return 0;
  let count = 0;
  for (let windowStart = 0; windowStart <= last; ) {
    let windowEnd = windowStart + WINDOW_BYTES >= last ? last : bytes.lastIndexOf(0x0a, windowStart + WINDOW_BYTES);
    // A line longer than the window is a window of its own.
    if (windowEnd < windowStart) windowEnd = bytes.indexOf(0x0a, windowStart + WINDOW_BYTES);
    count += forEachLineOf(bytes, windowStart, windowEnd, onLine);
    windowStart = windowEnd + 1;
  }
  return count;
}

/** The lines of bytes [windowStart, windowEnd], which ends in a `\n`, decoded as one text. */
function forEachLineOf(bytes: Uint8Array, windowStart: number, windowEnd: number, onLine: Parameters<typeof forEachLine>[2]): number {
  let text: string | null = null;
  try {
    text = utf8.decode(bytes.subarray(windowStart, windowEnd + 1));
  } catch {
    text = null;
  }
  const checkEach = text !== null && hasControl(text);
  const chunk: LeanText | null = text === null ? null : { text, slashFrom: 0, slashAt: text.indexOf('\\') };
  // Pure ASCII: a char's index is its byte's. Else the k-th `\n` of the text is the k-th of the bytes.
  const sameIndex = text !== null && text.length === windowEnd - windowStart + 1;
  let lineStart = windowStart;
  let textStart = 0;
  let count = 0;
  for (let newline = bytes.indexOf(0x0a, windowStart); newline !== -1 && newline <= windowEnd; newline = bytes.indexOf(0x0a, lineStart)) {
    let textEnd = newline - windowStart;
    if (text !== null && !sameIndex) textEnd = text.indexOf('\n', textStart);
    const plain = text !== null && !(checkEach && CONTROL.test(text.slice(textStart, textEnd)));
    onLine(lineStart, newline, plain ? chunk : null, textStart, textEnd);
    count++;
    lineStart = newline + 1;
    textStart = textEnd + 1;
  }
  return count;
}

/**
 * Whether a text holds a raw control char other than `\n`: one search for each char is a fast
 * search of memory, where one pass of a pattern of 31 chars reads each char in turn.
 */
function hasControl(text: string): boolean {
  for (const char of CONTROL_CHARS) if (text.includes(char)) return true;
  return false;
}

/** The keys readLine looks at; any other key is skipped, and only checked for being written twice. */
const KEYS = ['ts', 'kind', 'mid', 'text', 'from', 'replyVia', 'status', 'proposal', 'note'] as const;
// Each key's place in KEYS.
const TS = 0;
const KIND = 1;
const MID = 2;
const TEXT = 3;
const FROM = 4;
const REPLY_VIA = 5;
const STATUS = 6;
const PROPOSAL = 7;
const NOTE = 8;

// Where each key's value lies in the line being scanned, and what it is: one table reused for
// every line, so a line leaves nothing behind but its facts.
const ABSENT = 0;
const STRING = 1;
const ESCAPED_STRING = 2;
const NULL = 3;
const OTHER = 4;
const valueType = new Uint8Array(KEYS.length);
const valueAt = new Float64Array(KEYS.length);
const valueEnd = new Float64Array(KEYS.length);

/** Which of KEYS the key between `open` and `close` (its quotes) is; -1 for any other. */
function keyIndex(text: string, open: number, close: number): number {
  const first = text.charCodeAt(open + 1);
  let index = -1;
  switch (close - open - 1) {
    case 2:
      index = TS;
      break;
    case 3:
      index = MID;
      break;
    case 4:
      index = first === 0x6b ? KIND : first === 0x74 ? TEXT : first === 0x66 ? FROM : NOTE;
      break;
    case 6:
      index = STATUS;
      break;
    case 8:
      index = first === 0x72 ? REPLY_VIA : PROPOSAL;
      break;
  }
  return index !== -1 && text.startsWith(KEYS[index]!, open + 1) ? index : -1;
}

/**
 * What readLine would say of the line `text.slice(start, end)`, found without parsing it into an
 * object; undefined when the line is not plain (readLine must read it). The text must be valid
 * UTF-8 decoded, and free of control characters other than in escapes.
 */
export function scanLeanLine(chunk: LeanText, start: number, end: number): LeanOutcome {
  if (!walkLine(chunk, start, end)) return undefined;
  return readOutcome(chunk.text, readKind(chunk.text));
}

/**
 * scanLeanLine, its outcome added to `lines` as the line at bytes [lineStart, lineEnd): a plain
 * `sent` or `status` line goes from its text to the columns, with nothing made on the way. False
 * when the line is not plain (readLine must read it); true when it was added.
 */
export function scanLeanLineInto(chunk: LeanText, start: number, end: number, lines: LineColumns, lineStart: number, lineEnd: number): boolean {
  if (!walkLine(chunk, start, end)) return false;
  const { text } = chunk;
  const kindName = readKind(text);
  if (kindName === 'sent' && appendSent(text, lines, lineStart, lineEnd)) return true;
  if (kindName === 'status' && appendStatus(text, lines, lineStart, lineEnd)) return true;
  const outcome = readOutcome(text, kindName);
  if (outcome === undefined) return false;
  appendLineOutcome(lines, lineStart, lineEnd, outcome);
  return true;
}

/** Walks the line's JSON, leaving where each key's value lies in the tables; false when it is not plain. */
function walkLine(chunk: LeanText, start: number, end: number): boolean {
  const { text } = chunk;
  let at = skipSpaces(text, start, end);
  if (text.charCodeAt(at) !== 0x7b) return false;
  at = skipSpaces(text, at + 1, end);
  if (text.charCodeAt(at) === 0x7d) return false;
  valueType.fill(ABSENT);
  let others: string[] | null = null;
  for (;;) {
    if (text.charCodeAt(at) !== 0x22) return false;
    const keyEnd = closeString(text, at, end);
    if (keyEnd < 0) return false;
    const keySlash = findBackslash(chunk, at + 1);
    if (keySlash !== -1 && keySlash < keyEnd) return false;
    const key = keyIndex(text, at, keyEnd);
    const otherKey = key === -1 ? text.slice(at + 1, keyEnd) : null;
    // A plain line holds the private field only at its top, spelt without an escape: readLine's.
    if (otherKey === PRIVATE_FIELD) return false;
    at = skipSpaces(text, keyEnd + 1, end);
    if (text.charCodeAt(at) !== 0x3a) return false;
    at = skipSpaces(text, at + 1, end);
    const start = at;
    const code = text.charCodeAt(at);
    let type = OTHER;
    if (code === 0x22) {
      const close = closeString(text, at, end);
      if (close < 0) return false;
      const slash = findBackslash(chunk, at + 1);
      type = STRING;
      if (slash !== -1 && slash < close) {
        if (!checkEscapes(chunk, slash, close)) return false;
        type = ESCAPED_STRING;
      }
      at = close + 1;
    } else if (code === 0x6e) {
      if (!text.startsWith('null', at)) return false;
      type = NULL;
      at += 4;
    } else if (code === 0x74) {
      if (!text.startsWith('true', at)) return false;
      at += 4;
    } else if (code === 0x66) {
      if (!text.startsWith('false', at)) return false;
      at += 5;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = at;
      if (!NUMBER.test(text)) return false;
      at = NUMBER.lastIndex;
    } else {
      // An object or array (nested), or not JSON: readLine says which.
      return false;
    }
    if (otherKey === null) {
      if (valueType[key] !== ABSENT) return false;
      valueType[key] = type;
      valueAt[key] = start;
      valueEnd[key] = at;
    } else {
      others ??= [];
      if (others.includes(otherKey)) return false;
      others.push(otherKey);
    }
    at = skipSpaces(text, at, end);
    const next = text.charCodeAt(at);
    if (next === 0x2c) {
      at = skipSpaces(text, at + 1, end);
      continue;
    }
    if (next !== 0x7d) return false;
    if (skipSpaces(text, at + 1, end) !== end) return false;
    break;
  }
  return valueType[KIND] === STRING || valueType[KIND] === ESCAPED_STRING;
}

/** What the walked line is, as readLine says it; undefined when readLine must read it. */
function readOutcome(text: string, kindName: string): LeanOutcome {
  if (kindName === PRIVATE_KIND) return undefined;
  if (kindName === 'status') return readStatus(text);
  if (kindName === 'sent') return readSent(text);
  if (kindName.length > FACT_MAX_LENGTH) return undefined;
  const ts = valueType[TS] === STRING || valueType[TS] === ESCAPED_STRING ? readFact(text, TS, false) : null;
  return parsed({ kind: 'unknown', kindName, ts: ts !== null && ts.length <= FACT_MAX_LENGTH ? ts : null });
}

/**
 * The time of the walked line, when it is written as spex writes it and needs no escape: NaN
 * when it is anything else (the line's outcome is then made, and says it).
 */
function readPlainInstant(text: string): number {
  const at = valueAt[TS]!;
  return valueType[TS] === STRING && valueEnd[TS]! - at === 26 ? readInstant(text, at + 1) : Number.NaN;
}

/**
 * The index in the names of a fact written without an escape, or null (0); -1 when it is written
 * otherwise or the table cannot hold it.
 */
function indexPlainFact(text: string, key: number): number {
  const type = valueType[key];
  if (type === NULL) return 0;
  if (type !== STRING) return -1;
  return indexNameIn(text, valueAt[key]!, valueEnd[key]! - 1);
}

/** A plain `sent` line into the columns, as readSent reads it; false when it must be made as an outcome. */
function appendSent(text: string, lines: LineColumns, lineStart: number, lineEnd: number): boolean {
  const time = readPlainInstant(text);
  if (Number.isNaN(time)) return false;
  const midAt = valueAt[MID]! + 1;
  const midEnd = valueEnd[MID]! - 1;
  if (valueType[MID] !== STRING || midEnd === midAt || midEnd - midAt > FACT_MAX_LENGTH) return false;
  if (valueType[TEXT] !== STRING && valueType[TEXT] !== ESCAPED_STRING) return false;
  const from = valueType[FROM] === ABSENT ? -1 : indexPlainFact(text, FROM);
  const replyVia = valueType[REPLY_VIA] === ABSENT ? 0 : indexPlainFact(text, REPLY_VIA);
  if (from < 0 || replyVia < 0) return false;
  appendSentColumns(lines, lineStart, lineEnd, time, from, replyVia, text, midAt, midEnd);
  return true;
}

/** A plain `status` line into the columns, as readStatus reads it; false when it must be made as an outcome. */
function appendStatus(text: string, lines: LineColumns, lineStart: number, lineEnd: number): boolean {
  const time = readPlainInstant(text);
  if (Number.isNaN(time)) return false;
  const note = valueType[NOTE];
  if (valueType[STATUS] !== STRING || valueEnd[STATUS]! - valueAt[STATUS]! === 2 || valueType[PROPOSAL] === ABSENT) return false;
  if (note !== STRING && note !== ESCAPED_STRING && note !== NULL) return false;
  const status = indexPlainFact(text, STATUS);
  // spex's empty value is '': no proposal, as readStatus reads it.
  const proposal = valueType[PROPOSAL] === STRING && valueEnd[PROPOSAL]! - valueAt[PROPOSAL]! === 2 ? 0 : indexPlainFact(text, PROPOSAL);
  if (status < 0 || proposal < 0) return false;
  appendStatusColumns(lines, lineStart, lineEnd, time, status, proposal, note !== NULL && valueEnd[NOTE]! - valueAt[NOTE]! > 2);
  return true;
}

/** The kind, its two public names told apart without a copy of the name. */
function readKind(text: string): string {
  const at = valueAt[KIND]! + 1;
  const length = valueEnd[KIND]! - at - 1;
  if (valueType[KIND] === STRING && length === 4 && text.startsWith('sent', at)) return 'sent';
  if (valueType[KIND] === STRING && length === 6 && text.startsWith('status', at)) return 'status';
  return readFact(text, KIND, true);
}

function readStatus(text: string): LeanOutcome {
  const ts = factOf(text, TS, false, false);
  const status = factOf(text, STATUS, false, true);
  const proposal = factOf(text, PROPOSAL, true, true);
  const note = valueType[NOTE];
  if (ts === undefined || ts === null || status === undefined || status === null || status === '' || proposal === undefined) return undefined;
  if (note !== STRING && note !== ESCAPED_STRING && note !== NULL) return undefined;
  const proposed = proposal === '' ? null : proposal;
  // A string's JSON is longer than its two quotes exactly when the string is not empty.
  const hasNote = note !== NULL && valueEnd[NOTE]! - valueAt[NOTE]! > 2;
  return parsed({ kind: 'status', ts, status, word: intern(deriveStatusWord(status, proposed)), proposal: proposed, hasNote });
}

function readSent(text: string): LeanOutcome {
  const ts = factOf(text, TS, false, false);
  const mid = factOf(text, MID, false, false);
  const from = factOf(text, FROM, true, true);
  if (ts === undefined || ts === null || mid === undefined || mid === null || mid === '' || from === undefined) return undefined;
  if (valueType[TEXT] !== STRING && valueType[TEXT] !== ESCAPED_STRING) return undefined;
  let replyVia: string | null = null;
  if (valueType[REPLY_VIA] !== ABSENT) {
    const via = factOf(text, REPLY_VIA, true, true);
    if (via === undefined) return undefined;
    replyVia = via;
  }
  return parsed({ kind: 'sent', ts, mid, from, replyVia });
}

function parsed(facts: EventFacts): LineOutcome {
  return { evidence: 'parsed', facts };
}

/**
 * A fact as readLine keeps it: a string of at most FACT_MAX_LENGTH chars, or null where null is
 * allowed; undefined when it is neither (readLine then says why).
 */
function factOf(text: string, key: number, nullable: boolean, repeats: boolean): string | null | undefined {
  const type = valueType[key];
  if (type === NULL) return nullable ? null : undefined;
  if (type !== STRING && type !== ESCAPED_STRING) return undefined;
  const fact = readFact(text, key, repeats);
  return fact.length <= FACT_MAX_LENGTH ? fact : undefined;
}

/**
 * A string value read as JSON reads it, as a string of its own: a slice would keep the whole
 * chunk of text it was cut from, texts and all, alive for as long as the fact is.
 */
function readFact(text: string, key: number, repeats: boolean): string {
  const at = valueAt[key]!;
  const end = valueEnd[key]!;
  if (repeats && valueType[key] === STRING && end - at - 2 <= POOLED_MAX_LENGTH) {
    const pooled = POOL.get(text.slice(at + 1, end - 1));
    if (pooled !== undefined) return pooled;
  }
  const fact = JSON.parse(text.slice(at, end)) as string;
  return repeats && fact.length <= POOLED_MAX_LENGTH ? intern(fact) : fact;
}

/**
 * Facts that repeat (kinds, statuses, senders' ids, replyVia) held once: a million lines from a
 * few hundred senders hold a few hundred strings. Bounded, so a home of distinct values keeps
 * each with its line, as it would without the pool.
 */
const POOL = new Map<string, string>();
const POOL_MAX = 50_000;
const POOLED_MAX_LENGTH = 128;

function intern(value: string): string {
  const pooled = POOL.get(value);
  if (pooled !== undefined) return pooled;
  if (POOL.size < POOL_MAX) POOL.set(value, value);
  return value;
}

/** Where the string opened at `open` closes, before `end`; -1 when it does not. */
function closeString(text: string, open: number, end: number): number {
  let at = text.indexOf('"', open + 1);
  while (at !== -1 && at < end) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

/** Whether every backslash from `slash` up to `close` begins an escape JSON knows. */
function checkEscapes(chunk: LeanText, slash: number, close: number): boolean {
  const { text } = chunk;
  while (slash !== -1 && slash < close) {
    const next = text.charCodeAt(slash + 1);
    if (next === 0x75) {
      HEX4.lastIndex = slash + 2;
      if (slash + 6 > close || !HEX4.test(text)) return false;
      slash = findBackslash(chunk, slash + 6);
      continue;
    }
    // " \ / b f n r t
    if (next !== 0x22 && next !== 0x5c && next !== 0x2f && next !== 0x62 && next !== 0x66 && next !== 0x6e && next !== 0x72 && next !== 0x74) return false;
    slash = findBackslash(chunk, slash + 2);
  }
  return true;
}

/** The index of the first backslash at or after `from`; -1 when there is none. */
function findBackslash(chunk: LeanText, from: number): number {
  if (from < chunk.slashFrom || (chunk.slashAt !== -1 && chunk.slashAt < from)) {
    chunk.slashFrom = from;
    chunk.slashAt = chunk.text.indexOf('\\', from);
  }
  return chunk.slashAt;
}

function skipSpaces(text: string, at: number, end: number): number {
  while (at < end && text.charCodeAt(at) === 0x20) at++;
  return at;
}
