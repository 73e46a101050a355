import { resolveFocus, resolvePresence, type Focus, type Presence } from './declared.ts';
import { collectDegraded, mergeDegraded, selectSeatReasons, type DegradedReason } from './degraded.ts';
import { deriveLiveness, type Liveness, type ProcessCheck } from './liveness.ts';
import { findFirst } from './lookup.ts';
import { classifyRoom, foldRoom, mergeByPlace, type FlowItem, type RoomFold, type RoomKind } from './room.ts';
import { countLater, type RoomIndex } from './roomIndex.ts';
import { seatFilePath } from './layout.ts';
import { countUnread, readMemberReading, type MemberReading } from './roster.ts';
import { compareWithSacCursor, findSacCursor, type SacCursor } from './sacCursor.ts';
import type { SeatFileReading } from './seatFile.ts';
import { classifyAddressing, parseSeatName, type Addressing, type SeatName } from './seatName.ts';
import type { RegistryFacts, StoreFacts, StoreFileReading } from './storeFiles.ts';
import { parseInstant } from './time.ts';

// A seat as a conversation (sac-channels-format: What a reader must do): what it sent, what it
// received in the rooms it belongs to, whom each entry was addressed to, and what sac's cursor
// marks read. The seat's session is the registry's full id; the id in its name joins nothing.

/** A room's seat files, as the reader read them. */
export type RoomFiles = { room: string; files: readonly SeatFileReading[] };

/** Why a seat is in a room: members.json says so, the registry's seat record does, or it has a file there. */
export type Membership = 'members' | 'registry' | 'file';

type SeatRoom = {
  room: string;
  because: Membership[];
  /** members.json says the seat left the room (`sac part`). */
  left: boolean;
  kind: RoomKind;
};

type SeatSession = { state: 'known'; session: string } | { state: 'unknown'; why: string };
type SeatProject = { project: string; from: 'registry' | 'agent-name' };

export type SentItem = { room: string; flow: FlowItem };

export type ReceivedItem = {
  room: string;
  flow: FlowItem;
  /** For an entry: to this seat, to its agent, to everyone, or to someone else (shown on demand). */
  addressing: Addressing | null;
  /** For an entry: written by another seat of the same agent (a sibling session). */
  sibling: boolean;
  /**
   * For an entry: what sac's cursor marks it. `backlog`: past the cursor of a seat whose session
   * is gone (derived), which sac's rule does not count as unread ("a closed session is not behind,
   * it is gone"), as the roster says of the seat.
   */
  sacCursor: SacCursor | 'backlog' | null;
};

type SeatCounts = {
  sent: number;
  received: number;
  toSeat: number;
  toAgent: number;
  toEveryone: number;
  toOthers: number;
  /** Received entries past sac's cursor: unread, or, for a seat whose session is gone, its backlog (see ReceivedItem.sacCursor). */
  unread: number;
};

/**
 * The received entries a seat's page shows at first: those addressed to someone else are shown
 * only on demand, and counted apart wherever the received ones are counted.
 */
export function receivedShownAtFirst(counts: Pick<SeatCounts, 'received' | 'toOthers'>): number {
  return counts.received - counts.toOthers;
}

export type SeatView = {
  name: SeatName;
  session: SeatSession;
  project: SeatProject;
  rooms: SeatRoom[];
  /** The seat's own files' stretches in every room, in time order. */
  sent: SentItem[];
  /** Other seats' stretches in the rooms it belongs to, in time order. */
  received: ReceivedItem[];
  /** It has files, and every one is empty: it joined and never wrote. */
  neverWrote: boolean;
  focus: Focus;
  presence: Presence;
  liveness: Liveness;
  counts: SeatCounts;
  degraded: DegradedReason[];
};

/** The seat's full session id, from the registry. */
export function resolveSession(seat: string, registry: StoreFileReading<RegistryFacts>): SeatSession {
  if (registry.state === 'unknown') return { state: 'unknown', why: registry.why };
  const record = registry.state === 'read' ? findFirst(registry.facts.seats, 'seat', seat) : undefined;
  if (record === undefined) return { state: 'unknown', why: 'not in registry.json; the id in a seat’s name is a prefix and joins nothing' };
  if (record.session === null) return { state: 'unknown', why: 'registry.json records no session for it (a remote seat, or one checked in without a session id)' };
  return { state: 'known', session: record.session };
}

/** The seat's project: its agent's `project` (working directory) in the registry, else the agent name. */
export function resolveProject(seat: string, registry: StoreFileReading<RegistryFacts>): SeatProject {
  const name = parseSeatName(seat);
  if (registry.state === 'read') {
    const agent = findFirst(registry.facts.seats, 'seat', seat)?.agent ?? name.base;
    const project = findFirst(registry.facts.agents, 'agent', agent)?.project ?? null;
    if (project !== null) return { project, from: 'registry' };
  }
  return { project: name.agent, from: 'agent-name' };
}

type ProjectGroup = SeatProject & { seats: string[] };

/** Seats grouped by project, projects in name order, seats in the order given. */
export function groupSeatsByProject(seats: readonly string[], registry: StoreFileReading<RegistryFacts>): ProjectGroup[] {
  const groups = new Map<string, ProjectGroup>();
  for (const seat of seats) {
    const project = resolveProject(seat, registry);
    const key = `${project.from}\n${project.project}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { ...project, seats: [seat] });
    else group.seats.push(seat);
  }
  return [...groups.values()].sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : a.from < b.from ? -1 : 1));
}

/** Every seat the store knows: seat files in any room, registry seats and members.json seats, in name order. */
export function listSeats(rooms: readonly RoomFiles[], store: Pick<StoreFacts, 'registry' | 'members'>): string[] {
  const seats = new Set<string>();
  for (const room of rooms) for (const file of room.files) seats.add(file.seat);
  if (store.registry.state === 'read') for (const record of store.registry.facts.seats) seats.add(record.seat);
  if (store.members.state === 'read') for (const record of store.members.facts.seats) seats.add(record.seat);
  return [...seats].sort();
}

/** The rooms a seat belongs to, and why: members.json, the registry's seat record, or a file there. */
export function findSeatRooms(seat: string, rooms: readonly RoomFiles[], store: Pick<StoreFacts, 'registry' | 'members' | 'rooms'>): SeatRoom[] {
  return findSeatRoomsWith(
    seat,
    rooms.filter((room) => room.files.some((file) => file.seat === seat)).map((room) => room.room),
    store,
  );
}

/** The same, from the rooms that hold a file of the seat. */
function findSeatRoomsWith(seat: string, withFile: readonly string[], store: Pick<StoreFacts, 'registry' | 'members' | 'rooms'>): SeatRoom[] {
  const found = new Map<string, Membership[]>();
  const add = (room: string, why: Membership) => {
    const because = found.get(room);
    if (because === undefined) found.set(room, [why]);
    else if (!because.includes(why)) because.push(why);
  };
  const members = store.members.state === 'read' ? findFirst(store.members.facts.seats, 'seat', seat) : undefined;
  for (const room of members?.rooms ?? []) add(room, 'members');
  if (store.registry.state === 'read') for (const room of findFirst(store.registry.facts.seats, 'seat', seat)?.rooms ?? []) add(room, 'registry');
  for (const room of withFile) add(room, 'file');
  return [...found.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([room, because]) => ({ room, because, left: members?.left.includes(room) ?? false, kind: classifyRoom(room, store.rooms) }));
}

/** A room's fold, as foldRoom gives it; a shell passes one that keeps each room's fold while it is unchanged. */
type FoldRoomOf = (room: string, files: readonly SeatFileReading[], rooms: StoreFacts['rooms']) => RoomFold;

/**
 * Folds a seat: `rooms` are all the rooms of the store with their seat files; `now` the wall clock
 * (epoch ms); `machine` what the reader found of the registry's writer pids here. `foldRoomOf` lets a
 * store of thousands of seats fold each room once, not once per seat in it.
 */
export function foldSeat(
  seat: string,
  rooms: readonly RoomFiles[],
  store: StoreFacts,
  now: number,
  machine: ProcessCheck,
  foldRoomOf: FoldRoomOf = foldRoom,
): SeatView {
  const name = parseSeatName(seat);
  const seatRooms = findSeatRooms(seat, rooms, store);
  const filesOf = new Map(rooms.map((room) => [room.room, room.files]));

  // A room of thousands of entries has a few writers: each writer's name is read once.
  const bases = new Map<string, string>();
  const baseOf = (writer: string) => {
    let base = bases.get(writer);
    if (base === undefined) bases.set(writer, (base = parseSeatName(writer).base));
    return base;
  };
  const sentByRoom: SentItem[][] = [];
  const receivedByRoom: ReceivedItem[][] = [];
  const considered: SeatFileReading[] = [];
  const counts: SeatCounts = { sent: 0, received: 0, toSeat: 0, toAgent: 0, toEveryone: 0, toOthers: 0, unread: 0 };
  const liveness = deriveLiveness(seat, store.registry, now, machine);
  // Every room holding a file of the seat is one of its rooms, so its rooms hold all it sent.
  for (const { room } of seatRooms) {
    const files = filesOf.get(room) ?? [];
    considered.push(...files);
    const fold = foldRoomOf(room, files, store.rooms);
    const seen = findSacCursor(room, seat, store.cursors);
    const sent: SentItem[] = [];
    const received: ReceivedItem[] = [];
    for (const flow of fold.items) {
      if (flow.seat === seat) {
        sent.push({ room, flow });
        if (flow.item.type === 'entry') counts.sent++;
        continue;
      }
      if (flow.item.type !== 'entry') {
        received.push({ room, flow, addressing: null, sibling: false, sacCursor: null });
        continue;
      }
      const addressing = classifyAddressing(flow.item.facts.to, seat, name);
      const sacCursor = compareWithSacCursor(seen, flow.seat, flow.item.facts.time);
      received.push({ room, flow, addressing, sibling: baseOf(flow.seat) === name.base, sacCursor: sacCursor === 'unread' && liveness.word === 'gone' ? 'backlog' : sacCursor });
      counts.received++;
      if (sacCursor === 'unread') counts.unread++;
      if (addressing === 'to-seat') counts.toSeat++;
      else if (addressing === 'to-agent') counts.toAgent++;
      else if (addressing === 'to-everyone') counts.toEveryone++;
      else counts.toOthers++;
    }
    sentByRoom.push(sent);
    receivedByRoom.push(received);
  }

  const own = considered.filter((file) => file.seat === seat);
  const ownFiles = new Set(own.map((file) => seatFilePath(file.room, seat)));
  return {
    name,
    session: resolveSession(seat, store.registry),
    project: resolveProject(seat, store.registry),
    rooms: seatRooms,
    sent: mergeByPlace(sentByRoom, (item) => item.flow.place),
    received: mergeByPlace(receivedByRoom, (item) => item.flow.place),
    neverWrote: own.length > 0 && own.every((file) => file.size === 0),
    focus: resolveFocus(seat, store.focus, now),
    presence: resolvePresence(seat, store.presence, now),
    liveness,
    counts,
    degraded: selectSeatReasons(collectDegraded(considered, store), ownFiles),
  };
}

/** A seat's sidebar row: what its fold would count, derived from its rooms' indexes alone. */
export type SeatSummary = {
  name: SeatName;
  session: SeatSession;
  project: SeatProject;
  rooms: SeatRoom[];
  neverWrote: boolean;
  focus: Focus;
  presence: Presence;
  liveness: Liveness;
  /** As the fold counts them, and the stretches of its own files that are pending or torn. */
  counts: SeatCounts & { pending: number; torn: number };
  /** How far sac's cursor has it read of its rooms, in the roster's words: a gone seat's backlog is not unread. */
  reading: MemberReading;
  /** The latest instant an entry of its rooms names; null when none does. */
  lastInstant: number | null;
  degraded: DegradedReason[];
};

/** The rooms' indexes a shell keeps, and which rooms hold a file of a seat. */
type RoomIndexes = {
  indexOf(room: string): RoomIndex | null;
  roomsWithFileOf(seat: string): readonly string[];
};

/**
 * A seat's summary from its rooms' indexes: what foldSeat counts (and its page shows), at the
 * cost of the seat's rooms and the few lists of addressees and writers in each, not of their entries.
 */
export function summarizeSeat(seat: string, indexes: RoomIndexes, store: StoreFacts, now: number, machine: ProcessCheck): SeatSummary {
  const name = parseSeatName(seat);
  const seatRooms = findSeatRoomsWith(seat, indexes.roomsWithFileOf(seat), store);
  const counts = { sent: 0, received: 0, toSeat: 0, toAgent: 0, toEveryone: 0, toOthers: 0, unread: 0, pending: 0, torn: 0 };
  let last = -Infinity;
  let ownFiles = 0;
  let ownWrote = false;
  const degraded: DegradedReason[][] = [];
  const ownPaths = new Set<string>();
  let behind: number | string = 0;
  for (const { room } of seatRooms) {
    const index = indexes.indexOf(room);
    if (typeof behind === 'number') {
      const count = countUnread(room, seat, index, store);
      behind = typeof count === 'string' ? count : behind + count;
    }
    if (index === null) continue;
    const own = index.files.get(seat);
    if (own !== undefined) {
      ownFiles++;
      ownWrote ||= own.reading.size !== 0;
      ownPaths.add(seatFilePath(room, seat));
      counts.pending += own.pending;
      counts.torn += own.torn;
    }
    const sent = own?.entries ?? 0;
    counts.sent += sent;
    counts.received += index.entries - sent;
    for (const [to, count] of index.byTo) {
      const received = count - (own?.byTo.get(to) ?? 0);
      if (received === 0) continue;
      const addressing = classifyAddressing(to, seat, name);
      if (addressing === 'to-seat') counts.toSeat += received;
      else if (addressing === 'to-agent') counts.toAgent += received;
      else if (addressing === 'to-everyone') counts.toEveryone += received;
      else counts.toOthers += received;
    }
    const seen = findSacCursor(room, seat, store.cursors);
    if (seen !== null) {
      for (const [writer, file] of index.files) {
        if (writer === seat) continue;
        const read = seen.get(writer);
        if (read === undefined) {
          counts.unread += file.entries;
          continue;
        }
        const instant = parseInstant(read);
        if (instant !== null) counts.unread += countLater(file, instant);
      }
    }
    if (index.maxInstant > last) last = index.maxInstant;
    degraded.push(index.degraded);
  }
  const liveness = deriveLiveness(seat, store.registry, now, machine);
  return {
    name,
    session: resolveSession(seat, store.registry),
    project: resolveProject(seat, store.registry),
    rooms: seatRooms,
    neverWrote: ownFiles > 0 && !ownWrote,
    focus: resolveFocus(seat, store.focus, now),
    presence: resolvePresence(seat, store.presence, now),
    liveness,
    counts,
    reading: readMemberReading(behind, liveness),
    lastInstant: Number.isFinite(last) ? last : null,
    degraded: selectSeatReasons(mergeDegraded(degraded, store), ownPaths),
  };
}
