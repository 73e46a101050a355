import { composeInstant, parseInstant, readOffset, readZone, ZONE_MINUS_ZERO, ZONE_Z } from './time.ts';

// The grammar of a seat file's entry header (sac-channels-format: Entries): sac's own pattern,
// the facts a header states, the addressee lists it names (shared: a store's entries are
// addressed to a few seats and agents), and a header read from its bytes, as a first scan of a
// million entries reads it (seatFile.ts finds the lines; this reads one).

/** sac's entry header, exactly as its `store.mjs` defines it (sac-channels-format: Entries). */
export const ENTRY_HEADER =
  /^## (\d{4}-\d{2}-\d{2}T[\d:.]+(?:[+-]\d{2}:\d{2}|Z)?) — (QUESTION|ANSWER|FACT|REQUEST|KÉRDÉS|VÁLASZ|TÉNY|KÉRÉS)(?:\s*→\s*([^\n(]+?))?(?:\s*\(re: ([^)]*)\))?\s*$/;

/** What follows the type word in ENTRY_HEADER, alone: a header whose beginning is known is finished by it. */
const HEADER_TAIL = /^(?:\s*→\s*([^\n(]+?))?(?:\s*\(re: ([^)]*)\))?\s*$/;

export const ENTRY_TYPES = ['QUESTION', 'ANSWER', 'FACT', 'REQUEST'] as const;
type EntryType = (typeof ENTRY_TYPES)[number];

/** The type words a header may carry; the older, Hungarian ones stand for the type of the same place in the first four. */
export const TYPE_WORDS = ['QUESTION', 'ANSWER', 'FACT', 'REQUEST', 'KÉRDÉS', 'VÁLASZ', 'TÉNY', 'KÉRÉS'] as const;
const TYPE_WORD_BYTES = TYPE_WORDS.map((word) => new TextEncoder().encode(word));

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
  /** Addressees as written (seats, agent names, `agent@host`), trimmed; empty: to everyone. Shared and frozen. */
  to: readonly string[];
  /** The time of the entry this one answers, as written. */
  re: string | null;
};

/** Reads one line (without its `\n`) as a header, as sac's `parse` does; null if it is not one. */
export function readHeader(line: string): EntryFacts | null {
  const match = ENTRY_HEADER.exec(line);
  if (match === null) return null;
  const time = match[1]!;
  const word = TYPE_WORDS.indexOf(match[2] as (typeof TYPE_WORDS)[number]);
  return { time, instant: parseInstant(time), type: ENTRY_TYPES[word % 4]!, typeWord: TYPE_WORDS[word]!, to: readAddressees(match[3]), re: match[4]?.trim() || null };
}

export const EVERYONE: readonly string[] = Object.freeze([]);
/** Lists of addressees, one per distinct list: a store's entries are addressed to a few seats and agents. */
const addresseeLists = new Map<string, readonly string[]>();
/** The same, by the text a header gives them in. */
const addresseesWritten = new Map<string, readonly string[]>();
const INTERNED_MAX = 20_000;

/** sac's parseTo: split on commas, trim, drop empties and repeats. One shared, frozen list per distinct list. */
function readAddressees(written: string | undefined): readonly string[] {
  if (written === undefined) return EVERYONE;
  let list = addresseesWritten.get(written);
  if (list !== undefined) return list;
  list = shareAddressees([...new Set(written.split(',').map((name) => name.trim()).filter((name) => name !== ''))]);
  if (addresseesWritten.size >= INTERNED_MAX) addresseesWritten.clear();
  addresseesWritten.set(written, list);
  return list;
}

/** The one shared, frozen list of these names (in this order). */
export function shareAddressees(names: readonly string[]): readonly string[] {
  const key = names.join('\n');
  let list = addresseeLists.get(key);
  if (list === undefined) {
    list = names.length === 0 ? EVERYONE : Object.freeze([...names]);
    // A store of ever new lists is not kept whole: past a bound, later lists are shared less.
    if (addresseeLists.size >= INTERNED_MAX) addresseeLists.clear();
    addresseeLists.set(key, list);
  }
  return list;
}

/** A time not in the writer's form: its text is kept (see EntryColumns.written). */
export const TIME_AS_WRITTEN = -32768;

// The byte-order mark stays: sac reads files as UTF-8 with it, and a header after one is no header.
const text = new TextDecoder('utf-8', { ignoreBOM: true });

/** The header readHeaderAt found last: one, reused, so that a million headers make no object each. */
export const header = { instant: Number.NaN, zone: 0, word: 0, to: EVERYONE, re: null as string | null, written: null as string | null };

const EM_DASH = [0x20, 0xe2, 0x80, 0x94, 0x20];

/**
 * Reads the line [start, end) of `data` (it begins with `## `) as a header into `header`; false
 * if it is not one. A header in the form sac's writer writes is read from its bytes, and only what
 * follows its type word is decoded and matched (by the end of sac's own pattern, which is all that
 * is left to match once its time and type are known); any other line is decoded and matched whole.
 */
export function readHeaderAt(data: Uint8Array, start: number, end: number): boolean {
  const t = start + 3;
  // `2026-11-30T17:18:53.482` then `Z` or `+02:00`.
  if (end - t < 24 + 5 + 4) return readHeaderSlowly(data, start, end);
  const year = readDigits(data, t, 4);
  const month = readDigits(data, t + 5, 2);
  const day = readDigits(data, t + 8, 2);
  const hour = readDigits(data, t + 11, 2);
  const minute = readDigits(data, t + 14, 2);
  const second = readDigits(data, t + 17, 2);
  const ms = readDigits(data, t + 20, 3);
  if (
    year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || ms < 0 ||
    data[t + 4] !== 0x2d || data[t + 7] !== 0x2d || data[t + 10] !== 0x54 || data[t + 13] !== 0x3a || data[t + 16] !== 0x3a || data[t + 19] !== 0x2e
  ) {
    return readHeaderSlowly(data, start, end);
  }
  let zone: number;
  let offset: number | null;
  let at = t + 23;
  const sign = data[at];
  if (sign === 0x5a) {
    zone = ZONE_Z;
    offset = 0;
    at += 1;
  } else if ((sign === 0x2b || sign === 0x2d) && data[at + 3] === 0x3a) {
    const hours = readDigits(data, at + 1, 2);
    const minutes = readDigits(data, at + 4, 2);
    offset = hours < 0 || minutes < 0 ? null : readOffset(sign === 0x2d, hours, minutes);
    if (offset === null) return readHeaderSlowly(data, start, end);
    zone = offset === 0 && sign === 0x2d ? ZONE_MINUS_ZERO : offset;
    at += 6;
  } else {
    return readHeaderSlowly(data, start, end);
  }
  for (let i = 0; i < EM_DASH.length; i++) if (data[at + i] !== EM_DASH[i]) return readHeaderSlowly(data, start, end);
  at += EM_DASH.length;
  const word = matchTypeWord(data, at, end);
  if (word === -1) return readHeaderSlowly(data, start, end);
  const midnight = findDayStart(year, month, day);
  if (midnight === null || hour > 23 || minute > 59 || second > 59) return readHeaderSlowly(data, start, end);
  const instant = midnight + ((hour * 60 + minute) * 60 + second) * 1000 + ms - offset * 60_000;
  at += TYPE_WORD_BYTES[word]!.length;
  header.instant = instant;
  header.zone = zone;
  header.word = word;
  header.written = null;
  if (at === end) {
    header.to = EVERYONE;
    header.re = null;
    return true;
  }
  // What follows the type word of one header is mostly that of many (` → web-app`): known bytes are not decoded again.
  const key = hashBytes(data, at, end);
  const known = tails.get(key);
  if (known !== undefined && compareBytes(known.bytes, data, at, end)) {
    header.to = known.to;
    header.re = null;
    return true;
  }
  // The time and the type match only one way, so the line is a header exactly when the rest is
  // what sac's pattern allows after a type word.
  const match = HEADER_TAIL.exec(text.decode(data.subarray(at, end)));
  if (match === null) return false;
  header.to = readAddressees(match[1]);
  header.re = match[2]?.trim() || null;
  if (header.re === null && match[2] === undefined) {
    if (tails.size >= INTERNED_MAX) tails.clear();
    tails.set(key, { bytes: data.slice(at, end), to: header.to });
  }
  return true;
}

/** The instant of a day's local midnight at offset 0 (composeInstant's), kept for the day last asked: a file's entries come day by day. */
let lastDay = { key: -1, start: null as number | null };
function findDayStart(year: number, month: number, day: number): number | null {
  const key = (year * 100 + month) * 100 + day;
  if (key !== lastDay.key) lastDay = { key, start: composeInstant(year, month, day, 0, 0, 0, 0, 0) };
  return lastDay.start;
}

/** What followed the type word of headers with no `re`, by a hash of its bytes. */
const tails = new Map<number, { bytes: Uint8Array; to: readonly string[] }>();

/** FNV-1a of bytes [start, end). */
function hashBytes(data: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ data[i]!, 0x01000193);
  return hash >>> 0;
}

function compareBytes(bytes: Uint8Array, data: Uint8Array, start: number, end: number): boolean {
  if (bytes.length !== end - start) return false;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== data[start + i]) return false;
  return true;
}

function readHeaderSlowly(data: Uint8Array, start: number, end: number): boolean {
  const facts = readHeader(text.decode(data.subarray(start, end)));
  if (facts === null) return false;
  const zone = facts.instant === null ? null : readZone(facts.time);
  header.instant = facts.instant ?? Number.NaN;
  header.zone = zone ?? TIME_AS_WRITTEN;
  header.written = zone === null ? facts.time : null;
  header.word = TYPE_WORDS.indexOf(facts.typeWord as (typeof TYPE_WORDS)[number]);
  header.to = facts.to;
  header.re = facts.re;
  return true;
}

/** The decimal number of `count` ASCII digits at `at`; -1 if one is not a digit. */
function readDigits(data: Uint8Array, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = data[i]! - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Which type word the bytes at `at` begin with (none is the beginning of another); -1 if none. */
function matchTypeWord(data: Uint8Array, at: number, end: number): number {
  for (let word = 0; word < TYPE_WORD_BYTES.length; word++) {
    const bytes = TYPE_WORD_BYTES[word]!;
    if (data[at] !== bytes[0] || at + bytes.length > end) continue;
    let same = true;
    for (let i = 1; i < bytes.length && same; i++) same = data[at + i] === bytes[i];
    if (same) return word;
  }
  return -1;
}
