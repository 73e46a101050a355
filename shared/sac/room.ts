import { collectDegraded, type DegradedReason } from './degraded.ts';
import type { SeatFileEntry, SeatFileItem, SeatFileReading } from './seatFile.ts';
import type { RoomsFacts, StoreFileReading } from './storeFiles.ts';
import { mergeSorted } from '../mergeSorted.ts';

// A room as a view of its own (sac-channels-format: What a reader must do): every stretch of
// every seat file in the room, in time order as `sac history` orders it: by the instant each
// entry's header names, so an entry relayed late but dated first comes first, and where that
// differs from the order of its file it is said in place. Equal instants keep file order and are
// said to be equal, never guessed apart.

/** An entry's identity: its seat's file in the room, and where its header begins. */
type EntryRef = { seat: string; start: number };

/**
 * Where an entry's `re` leads: to the entries of the room with exactly that time as written (as
 * sac compares it). Several: ambiguous, all listed; none: the answered entry is not in the room.
 */
type ReLink = { state: 'resolved' | 'ambiguous' | 'unresolved'; entries: EntryRef[] };

export type FlowItem = {
  /** The seat whose file holds it: the writer. */
  seat: string;
  item: SeatFileItem;
  /**
   * The instant it is placed at: an entry's own; else that of the entry before it in its file
   * (an entry whose time names no instant, a tail), or after it (stray text). -Infinity or
   * Infinity when its file has no entry to go by.
   */
  place: number;
  /** How it got its place: its own time, or its neighbour's in its file. */
  placedBy: 'time' | 'file-order';
  /** For an entry with an instant: how many entries of the room name the same instant (1: only it). */
  sharesTime: number;
  /**
   * For an entry: written after an entry of its own file whose time is later (relayed late, or a
   * clock set back). It is placed by its own time all the same, so the flow's order differs from its file's.
   */
  timeGoesBack: boolean;
  re: ReLink | null;
};

export type RoomKind =
  | { kind: 'room' }
  /** A room of two (rooms.json `pair`): a direct conversation. */
  | { kind: 'pair'; pair: [string, string] }
  /** rooms.json could not be read: whether it is a room of two is unknown. */
  | { kind: 'unknown'; why: string };

type RoomCounts = {
  entries: number;
  /** Seat files in the room. */
  seats: number;
  /** Seat files of 0 bytes: seats that joined and never wrote. */
  neverWrote: number;
  pending: number;
  torn: number;
  changed: number;
  strayText: number;
  /** Entries whose time names the same instant as another entry's. */
  sharingTime: number;
};

export type RoomFold = {
  room: string;
  kind: RoomKind;
  /** The seats with a file in the room, in file order (by file name, as sac lists them). */
  seats: string[];
  items: FlowItem[];
  counts: RoomCounts;
  degraded: DegradedReason[];
};

/** Seat files in the order sac lists them: by file name, compared by UTF-16 code units. */
export function sortSeatFiles<T extends { seat: string }>(readings: readonly T[]): T[] {
  return readings.slice().sort((a, b) => {
    const x = `${a.seat}.md`;
    const y = `${b.seat}.md`;
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** Whether rooms.json says the room is a room of two. */
export function classifyRoom(room: string, rooms: StoreFileReading<RoomsFacts>): RoomKind {
  if (rooms.state === 'unknown') return { kind: 'unknown', why: rooms.why };
  if (rooms.state === 'absent') return { kind: 'room' };
  const pair = rooms.facts.rooms.find((record) => record.room === room)?.pair ?? null;
  return pair === null ? { kind: 'room' } : { kind: 'pair', pair };
}

/** Folds a room's seat files (all of them, any order) into its flow. */
export function foldRoom(room: string, readings: readonly SeatFileReading[], rooms: StoreFileReading<RoomsFacts>): RoomFold {
  const files = sortSeatFiles(readings);
  const items = sortByPlace(files.map((reading) => placeItems(reading)));

  const byInstant = new Map<number, number>();
  const byTime = new Map<string, EntryRef[]>();
  for (const flow of items) {
    if (flow.item.type !== 'entry') continue;
    const { instant, time } = flow.item.facts;
    if (instant !== null) byInstant.set(instant, (byInstant.get(instant) ?? 0) + 1);
    const ref = { seat: flow.seat, start: flow.item.start };
    const same = byTime.get(time);
    if (same === undefined) byTime.set(time, [ref]);
    else same.push(ref);
  }

  const counts: RoomCounts = { entries: 0, seats: files.length, neverWrote: 0, pending: 0, torn: 0, changed: 0, strayText: 0, sharingTime: 0 };
  for (const reading of files) if (reading.size === 0) counts.neverWrote++;
  for (const flow of items) {
    const item = flow.item;
    if (item.type === 'entry') {
      counts.entries++;
      if (item.facts.instant !== null) flow.sharesTime = byInstant.get(item.facts.instant)!;
      if (flow.sharesTime > 1) counts.sharingTime++;
      if (item.facts.re !== null) {
        const entries = byTime.get(item.facts.re) ?? [];
        flow.re = { state: entries.length === 0 ? 'unresolved' : entries.length === 1 ? 'resolved' : 'ambiguous', entries };
      }
    } else if (item.type === 'stray-text') counts.strayText++;
    if (item.evidence === 'pending') counts.pending++;
    else if (item.evidence === 'damaged') counts.torn++;
    else if (item.evidence === 'changed') counts.changed++;
  }

  return { room, kind: classifyRoom(room, rooms), seats: files.map((reading) => reading.seat), items, counts, degraded: collectDegraded(files, { rooms }) };
}

/** A file's items with the places they take in the room, in file order. */
function placeItems(reading: SeatFileReading): FlowItem[] {
  const flows: FlowItem[] = [];
  let previous = -Infinity;
  let seenEntry = false;
  let latest = -Infinity;
  for (const item of reading.items) {
    const flow: FlowItem = { seat: reading.seat, item, place: previous, placedBy: 'file-order', sharesTime: 1, timeGoesBack: false, re: null };
    if (item.type === 'entry') {
      const instant = item.facts.instant;
      if (instant !== null) {
        flow.place = instant;
        flow.placedBy = 'time';
        flow.timeGoesBack = instant < latest;
        latest = Math.max(latest, instant);
      }
      seenEntry = true;
      previous = flow.place;
    } else if (item.type === 'tail' && !seenEntry) {
      // The first write of a file, still being written (or torn): the newest thing it holds.
      flow.place = Infinity;
    }
    flows.push(flow);
  }
  // Stray text comes before a file's first header: it takes that entry's place.
  const first = flows[0];
  if (first?.item.type === 'stray-text') first.place = flows.find((flow) => flow.item.type === 'entry')?.place ?? -Infinity;
  return flows;
}

/** Every file's items by place, as `sac history` sorts a room: equal places keep the order of the files, then of each file. */
function sortByPlace(sequences: readonly (readonly FlowItem[])[]): FlowItem[] {
  // Most files are in time order: those are merged, and only a file whose times go back is sorted first.
  const sorted = sequences.map((sequence) => (isInOrder(sequence) ? sequence : sequence.slice().sort((a, b) => (a.place < b.place ? -1 : a.place > b.place ? 1 : 0))));
  return mergeByPlace(sorted, (flow) => flow.place);
}

function isInOrder(sequence: readonly FlowItem[]): boolean {
  for (let i = 1; i < sequence.length; i++) if (sequence[i]!.place < sequence[i - 1]!.place) return false;
  return true;
}

/**
 * Merges ordered sequences by place: each sequence keeps its own order, and at equal places the
 * earlier sequence goes first. A room may hold hundreds of seat files (one per session).
 */
export function mergeByPlace<T>(sequences: readonly (readonly T[])[], placeOf: (item: T) => number): T[] {
  return mergeSorted(sequences, (a, b) => placeOf(a) < placeOf(b)).take(Infinity);
}

/** The entry an EntryRef names, in a fold. */
export function findEntry(fold: RoomFold, ref: EntryRef): (FlowItem & { item: SeatFileEntry }) | null {
  const flow = fold.items.find((candidate) => candidate.seat === ref.seat && candidate.item.type === 'entry' && candidate.item.start === ref.start);
  return (flow as (FlowItem & { item: SeatFileEntry }) | undefined) ?? null;
}
