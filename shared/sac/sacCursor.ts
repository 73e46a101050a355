import { findFirst } from './lookup.ts';
import { parseSeatName } from './seatName.ts';
import type { CursorsFacts, StoreFileReading } from './storeFiles.ts';
import { parseInstant } from './time.ts';

// sac's cursor (cursors.json): what `inbox` has handed a seat of each writer in a room. It is
// sac's word on what was delivered for reading, never what the session read.

/**
 * Whether sac's cursor for this seat marks an entry read (`cursors.json`): labelled as sac's
 * cursor, never as "read by the session". unknown: no cursors could be read, or a time names no
 * instant, so sac's own comparison cannot be repeated.
 */
export type SacCursor = 'read' | 'unread' | 'unknown';

/**
 * Said of a received entry past the cursor of a seat whose session is gone (seat.ts marks it
 * `backlog`), on its page and in its export: sac's rule counts it as a backlog, never as unread.
 */
export const BACKLOG_WORDS = 'past sac’s cursor: backlog, its session is gone';

/** Every key of cursors.json that an invalid record's key continues (`<key>.<writer>`), once per list. */
const invalidPrefixes = new WeakMap<readonly { key: string }[], Set<string>>();

function hasInvalidUnder(invalid: readonly { key: string }[], key: string): boolean {
  let prefixes = invalidPrefixes.get(invalid);
  if (prefixes === undefined) {
    prefixes = new Set();
    for (const record of invalid) for (let at = record.key.indexOf('.'); at !== -1; at = record.key.indexOf('.', at + 1)) prefixes.add(record.key.slice(0, at));
    invalidPrefixes.set(invalid, prefixes);
  }
  return prefixes.has(key);
}

/**
 * What sac's cursor for a seat in a room has read of each writer (sac's `inbox`): the seat's own
 * cursor, else (for a seat with an id) its agent's bare one, else nothing read. null: unknown.
 */
export function findSacCursor(room: string, seat: string, cursors: StoreFileReading<CursorsFacts>): Map<string, string> | null {
  if (cursors.state === 'unknown') return null;
  if (cursors.state === 'absent') return new Map();
  const base = parseSeatName(seat).base;
  const find = (key: string) => findFirst(cursors.facts.cursors, 'key', key);
  const cursor = find(`${room}::${seat}`) ?? (seat === base ? undefined : find(`${room}::${base}`));
  if (cursor === undefined) {
    // A record sac would have read but this reader could not: unknown rather than unread.
    if (findFirst(cursors.invalid, 'key', `${room}::${seat}`) !== undefined) return null;
    return new Map();
  }
  if (hasInvalidUnder(cursors.invalid, cursor.key)) return null;
  return new Map(cursor.read.map((read) => [read.writer, read.time]));
}

/** sac's rule: unread when nothing of the writer was read, or the entry is later than what was. */
export function compareWithSacCursor(seen: Map<string, string> | null, writer: string, time: string): SacCursor {
  if (seen === null) return 'unknown';
  const last = seen.get(writer);
  if (last === undefined) return 'unread';
  const entry = parseInstant(time);
  const read = parseInstant(last);
  if (entry === null || read === null) return 'unknown';
  return entry > read ? 'unread' : 'read';
}

