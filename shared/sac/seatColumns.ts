import { EVERYONE } from './entryHeader.ts';

// A seat file's entries as columns, and how one read's entries join them (seatFile.ts reads the
// bytes and fills them). A store holds millions of entries: they are kept as numbers in typed
// arrays and shared names, with no object and no string of their own per entry.

/**
 * A file's entries as columns: entry i's facts are the i-th of each, in file order. Numbers only,
 * all in one buffer a read (a first scan keeps thousands of files' columns: one allocation a file,
 * and no object or pointer an entry, leave the collector and the allocator next to nothing to do);
 * names are the file's few distinct lists, and the rarer texts are kept by entry. The columns are
 * narrow (20 bytes an entry) while every number fits them: a file under 4 GiB, headers under
 * 64 KiB, fewer than 65,536 lists; past that, wide (28 bytes). A fresh page costs more than the
 * scan of its entries' bytes, so the bytes a million entries keep are most of what they cost.
 */
export type EntryColumns = {
  /** Where each header begins. */
  start: Float64Array | Uint32Array;
  /** The header line's bytes with its `\n`: the body begins after them. */
  headerLength: Uint32Array | Uint16Array;
  /** The instant its time names; NaN when it names none. */
  instant: Float64Array;
  /** How its time's zone is written (see readZone), or TIME_AS_WRITTEN. */
  zone: Int16Array;
  /** Its type word's place in TYPE_WORDS. */
  word: Uint8Array;
  /** How it closed (seatFile.ts: CLOSED_PARSED, CLOSED_NO_BODY or CLOSED_NOT_SEPARATED); the last entry's is CLOSED_PARSED until it closes. */
  state: Uint8Array;
  /** Its addressees, as their place in `lists`. */
  to: Uint32Array | Uint16Array;
  /** The file's distinct lists of addressees, each shared and frozen; the first is everyone's (empty). */
  lists: readonly (readonly string[])[];
  /** The time each answer answers, as written, by entry: an entry not here answers none. */
  re: Map<number, string>;
  /** The time as written, by entry, for each zone of TIME_AS_WRITTEN. */
  written: Map<number, string>;
};

/** A file with no entries: one for every reading. */
export const NO_ENTRIES: EntryColumns = { ...allocateColumns(0, false), lists: [EVERYONE], re: new Map(), written: new Map() };

type NumericColumns = Pick<EntryColumns, 'start' | 'instant' | 'headerLength' | 'to' | 'zone' | 'word' | 'state'>;
const COLUMN_KEYS = ['start', 'instant', 'headerLength', 'to', 'zone', 'word', 'state'] as const;

/** What the narrow columns hold at most: a start, a header's length, a place in the lists. */
const NARROW_START = 2 ** 32;
const NARROW_SHORT = 2 ** 16;

/**
 * The numeric columns of `n` entries, in one buffer (widest first, so each view is aligned), wide
 * or narrow (see EntryColumns): a new one, or one handed over.
 */
export function allocateColumns(n: number, wide: boolean, buffer = new ArrayBuffer(n * (wide ? 28 : 20))): NumericColumns {
  const Start = wide ? Float64Array : Uint32Array;
  const Short = wide ? Uint32Array : Uint16Array;
  const startAt = n * 8;
  const headerLengthAt = startAt + n * Start.BYTES_PER_ELEMENT;
  const toAt = headerLengthAt + n * Short.BYTES_PER_ELEMENT;
  const zoneAt = toAt + n * Short.BYTES_PER_ELEMENT;
  return {
    instant: new Float64Array(buffer, 0, n),
    start: new Start(buffer, startAt, n),
    headerLength: new Short(buffer, headerLengthAt, n),
    to: new Short(buffer, toAt, n),
    zone: new Int16Array(buffer, zoneAt, n),
    word: new Uint8Array(buffer, zoneAt + n * 2, n),
    state: new Uint8Array(buffer, zoneAt + n * 3, n),
  };
}

/** Entry i's addressees: empty when it is to everyone. Shared and frozen. */
export function readEntryTo(columns: EntryColumns, index: number): readonly string[] {
  return columns.lists[columns.to[index]!]!;
}

/**
 * Entries found by one read, before they join the columns: their numbers in typed columns of
 * room for `room` entries, kept from read to read (one read runs to its end before another
 * begins), so that a read makes no array an entry nor a buffer a column, and joins them to the
 * file's columns by copying bytes. `to` is already each entry's place in `lists`.
 */
type Added = { count: number; room: number; columns: NumericColumns; lists: readonly (readonly string[])[]; re: [number, string][]; written: [number, string][] };
const ADDED_ROOM = 1024;
/** Past this many entries, a read's room is not kept for the next: a rare long file does not hold its size. */
const ADDED_ROOM_KEPT = 65_536;
let scratch: Added = { count: 0, room: ADDED_ROOM, columns: allocateColumns(ADDED_ROOM, true), lists: [], re: [], written: [] };

/** The read's room for the entries it finds, emptied. */
export function beginAdded(): Added {
  const added = scratch;
  added.count = 0;
  added.re = [];
  added.written = [];
  return added;
}

/** The read is over: a room grown past ADDED_ROOM_KEPT is let go. */
export function endAdded(added: Added): void {
  if (added.room > ADDED_ROOM_KEPT) scratch = { ...added, room: ADDED_ROOM, columns: allocateColumns(ADDED_ROOM, true) };
}

/** One more entry's room in the read's columns: twice the room, the entries so far copied over. */
export function makeRoom(added: Added): void {
  if (added.count < added.room) return;
  const room = added.room * 2;
  const columns = allocateColumns(room, true);
  for (const key of COLUMN_KEYS) columns[key].set(added.columns[key].subarray(0, added.count) as never);
  added.columns = columns;
  added.room = room;
}

/** A file's columns with a read's entries after them; `closedState` the previous last entry's, when the read closed it (-1 if not). */
export function appendEntries(columns: EntryColumns, added: Added, closedState: number): EntryColumns {
  const had = columns.start.length;
  const next = allocateColumns(had + added.count, needsWideColumns(columns, added));
  for (const key of COLUMN_KEYS) {
    next[key].set(columns[key] as never);
    next[key].set(added.columns[key].subarray(0, added.count) as never, had);
  }
  if (closedState !== -1) next.state[had - 1] = closedState;
  return { ...next, lists: added.lists, re: extendByEntry(columns.re, added.re), written: extendByEntry(columns.written, added.written) };
}

/** Whether a file's columns with these entries added must be wide: a number does not fit the narrow ones. */
function needsWideColumns(columns: EntryColumns, added: Added): boolean {
  if (columns.start instanceof Float64Array && columns.start.length > 0) return true;
  // Starts grow entry by entry: the last is the largest.
  if (added.columns.start[added.count - 1]! >= NARROW_START || added.lists.length > NARROW_SHORT) return true;
  const headerLength = added.columns.headerLength;
  for (let i = 0; i < added.count; i++) if (headerLength[i]! >= NARROW_SHORT) return true;
  return false;
}

/**
 * A file's lists of addressees as one read adds to them: each entry's list by its place, the
 * first being everyone's. The file's lists are copied only when a read finds a new one (a
 * reading never changes once made).
 */
export function placeLists(known: readonly (readonly string[])[]) {
  let lists = known;
  let placeOf: Map<readonly string[], number> | null = null;
  let last: readonly string[] = EVERYONE;
  let lastPlace = 0;
  return {
    placeOf(list: readonly string[]): number {
      if (list === last) return lastPlace;
      if (list === EVERYONE) return 0;
      placeOf ??= new Map(lists.map((each, at) => [each, at]));
      let place = placeOf.get(list);
      if (place === undefined) {
        if (lists === known) lists = [...lists];
        place = (lists as (readonly string[])[]).push(list) - 1;
        placeOf.set(list, place);
      }
      last = list;
      lastPlace = place;
      return place;
    },
    lists: () => lists,
  };
}

/** A by-entry map with more entries; the same map when there are none (a reading never changes once made). */
function extendByEntry(known: Map<number, string>, more: [number, string][]): Map<number, string> {
  if (more.length === 0) return known;
  const next = new Map(known);
  for (const [index, value] of more) next.set(index, value);
  return next;
}
