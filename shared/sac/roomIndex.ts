import { collectDegraded, type DegradedReason } from './degraded.ts';
import { readEntryTo } from './seatColumns.ts';
import { CLOSED_PARSED, countEntries, type SeatFileReading } from './seatFile.ts';

// A room's index: what every seat's summary needs of the room, counted once for the room and
// kept up to date as its files grow (sac-channels-format: What a reader must do). A seat's
// summary is derived from the indexes of its rooms, so a list of thousands of seats costs the
// seats and the rooms, never every seat times its rooms' entries. A seat's page still folds the
// rooms it shows (room.ts): the index holds counts, never entries.

/** What the index knows of one seat file of the room. */
type FileIndex = {
  reading: SeatFileReading;
  /** Entries read so far. */
  entries: number;
  /** Entries by the list of addressees they give (a shared list: see seatFile's readAddressees). */
  byTo: Map<readonly string[], number>;
  /** Closed entries that are torn writes. */
  closedTorn: number;
  /** The latest instant an entry names; -Infinity when none does. */
  maxInstant: number;
  /**
   * The instants its entries name, in order, when they are not in order in the file (or some
   * entry names none); null while the file's own column of instants is in order and complete.
   */
  sorted: Float64Array | null;
  sortedCount: number;
  /** Stretches of the file by evidence, as a room's counts count them. */
  pending: number;
  torn: number;
  changed: number;
  strayText: number;
};

export type RoomIndex = {
  room: string;
  /** Bumped at each change: what is derived from the index holds while its version does. */
  version: number;
  /** By seat, in the order of the files last given. */
  files: Map<string, FileIndex>;
  entries: number;
  byTo: Map<readonly string[], number>;
  seats: number;
  neverWrote: number;
  pending: number;
  torn: number;
  changed: number;
  strayText: number;
  /** The latest instant an entry of the room names; -Infinity when none does. */
  maxInstant: number;
  /** The reasons its files give (no store file's), as collectDegraded gives them. */
  degraded: DegradedReason[];
};

export function createRoomIndex(room: string): RoomIndex {
  return { room, version: 0, files: new Map(), entries: 0, byTo: new Map(), seats: 0, neverWrote: 0, pending: 0, torn: 0, changed: 0, strayText: 0, maxInstant: -Infinity, degraded: [] };
}

/**
 * Brings the index to these readings of the room's files (all of them, in the reader's order).
 * A file read again is taken up from where its last reading ended; a file no longer there leaves.
 * Returns whether anything changed.
 */
export function updateRoomIndex(index: RoomIndex, readings: readonly SeatFileReading[]): boolean {
  let changed = readings.length !== index.files.size;
  const next = new Map<string, FileIndex>();
  let position = 0;
  const order = [...index.files.keys()];
  for (const reading of readings) {
    const known = index.files.get(reading.seat);
    if (order[position++] !== reading.seat) changed = true;
    if (known !== undefined && known.reading === reading) {
      next.set(reading.seat, known);
      continue;
    }
    changed = true;
    next.set(reading.seat, known !== undefined && followsOn(known, reading) ? extendFile(known, reading) : extendFile(createFileIndex(reading), reading));
  }
  if (!changed) return false;
  index.files = next;
  sumFileIndexes(index, readings);
  index.version++;
  return true;
}

/** How many of the file's entries name an instant later than `instant` (sac's cursor: unread). */
export function countLater(file: FileIndex, instant: number): number {
  if (file.sorted === null) {
    const column = file.reading.entries.instant;
    return column.length - findUpperBound(column, column.length, instant);
  }
  return file.sortedCount - findUpperBound(file.sorted, file.sortedCount, instant);
}

function findUpperBound(sorted: Float64Array, length: number, value: number): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function createFileIndex(reading: SeatFileReading): FileIndex {
  return { reading, entries: 0, byTo: new Map(), closedTorn: 0, maxInstant: -Infinity, sorted: null, sortedCount: 0, pending: 0, torn: 0, changed: 0, strayText: 0 };
}

/** Whether `reading` holds every entry the indexed reading held, as it held them: it was read on from it. */
function followsOn(file: FileIndex, reading: SeatFileReading): boolean {
  const had = file.entries;
  if (countEntries(reading) < had) return false;
  if (had === 0) return true;
  const before = file.reading.entries;
  const now = reading.entries;
  return before === now || (now.start[had - 1] === before.start[had - 1] && Object.is(now.instant[had - 1], before.instant[had - 1]) && readEntryTo(now, had - 1) === readEntryTo(before, had - 1));
}

/** The file index taken on to `reading`: the entries it did not hold yet are added; the last one held is closed now, perhaps. */
function extendFile(file: FileIndex, reading: SeatFileReading): FileIndex {
  const columns = reading.entries;
  const n = columns.start.length;
  const had = file.entries;
  // The entry that was open when last indexed may have closed since: its state counts now.
  for (let i = Math.max(0, had - 1); i < n - 1; i++) if (columns.state[i] !== CLOSED_PARSED) file.closedTorn++;
  countByAddressees(file.byTo, columns, had, n);
  let sorted = file.sorted;
  let sortedCount = file.sortedCount;
  for (let i = had; i < n; i++) {
    const instant = columns.instant[i]!;
    if (instant > file.maxInstant) file.maxInstant = instant;
    if (sorted === null) {
      // The column serves as long as it is in order and every entry names an instant.
      if (!Number.isNaN(instant) && (i === 0 || instant >= columns.instant[i - 1]!)) continue;
      sorted = new Float64Array(Math.max(16, n * 2));
      sortedCount = 0;
      for (let j = 0; j < i; j++) sorted[sortedCount++] = columns.instant[j]!;
    }
    if (Number.isNaN(instant)) continue;
    if (sortedCount === sorted.length) {
      const grown = new Float64Array(sorted.length * 2);
      grown.set(sorted);
      sorted = grown;
    }
    const at = findUpperBound(sorted, sortedCount, instant);
    sorted.copyWithin(at + 1, at, sortedCount);
    sorted[at] = instant;
    sortedCount++;
  }
  file.sorted = sorted;
  file.sortedCount = sortedCount;
  file.entries = n;
  file.reading = reading;
  countStretches(file);
  return file;
}

/**
 * Counts entries [from, to) by their addressees: a file's first read (hundreds of entries, a few
 * lists) counted by place in its lists, and the counts added to the map once a list, rather than
 * a map's look-up an entry (a tenth of the first list of a million-entry store's seats).
 */
function countByAddressees(byTo: Map<readonly string[], number>, columns: SeatFileReading['entries'], from: number, to: number): void {
  const lists = columns.lists;
  if (to - from < lists.length * 4) {
    for (let i = from; i < to; i++) {
      const list = readEntryTo(columns, i);
      byTo.set(list, (byTo.get(list) ?? 0) + 1);
    }
    return;
  }
  const counts = new Uint32Array(lists.length);
  for (let i = from; i < to; i++) counts[columns.to[i]!]!++;
  for (let place = 0; place < counts.length; place++) {
    const count = counts[place]!;
    if (count > 0) byTo.set(lists[place]!, (byTo.get(lists[place]!) ?? 0) + count);
  }
}

/** The file's stretches by evidence: its closed entries are counted as they close, the rest from the reading. */
function countStretches(file: FileIndex): void {
  const reading = file.reading;
  const n = file.entries;
  const strayText = (n > 0 ? reading.entries.start[0]! : reading.offset) > 0 ? 1 : 0;
  const tail = reading.size > reading.offset ? 1 : 0;
  file.strayText = strayText;
  if (reading.problem?.code === 'changed-after-read') {
    file.pending = 0;
    file.torn = 0;
    file.changed = strayText + n + tail;
    return;
  }
  // A last entry with no body and the tail after it are one write (seatFile's takesTail): one stretch.
  const waits = n > 0 && !reading.scan.bodyHasText ? 1 : tail;
  const torn = reading.scan.tornAt !== null;
  file.changed = 0;
  file.pending = torn ? 0 : waits;
  file.torn = file.closedTorn + (torn ? waits : 0);
}

function sumFileIndexes(index: RoomIndex, readings: readonly SeatFileReading[]): void {
  index.entries = 0;
  index.byTo = new Map();
  index.seats = index.files.size;
  index.neverWrote = 0;
  index.pending = 0;
  index.torn = 0;
  index.changed = 0;
  index.strayText = 0;
  index.maxInstant = -Infinity;
  let degraded = false;
  for (const file of index.files.values()) {
    index.entries += file.entries;
    for (const [to, count] of file.byTo) index.byTo.set(to, (index.byTo.get(to) ?? 0) + count);
    if (file.reading.size === 0) index.neverWrote++;
    index.pending += file.pending;
    index.torn += file.torn;
    index.changed += file.changed;
    index.strayText += file.strayText;
    if (file.maxInstant > index.maxInstant) index.maxInstant = file.maxInstant;
    degraded ||= file.torn > 0 || file.strayText > 0 || file.reading.problem !== null;
  }
  index.degraded = degraded ? collectDegraded(readings) : [];
}
