import { resolveFocus, resolvePresence, type Focus, type Presence } from './declared.ts';
import { deriveLiveness, type Liveness, type ProcessCheck } from './liveness.ts';
import { countLater, type RoomIndex } from './roomIndex.ts';
import { findSacCursor } from './sacCursor.ts';
import type { Membership } from './seat.ts';
import type { StoreFacts } from './storeFiles.ts';
import { parseInstant } from './time.ts';

// A room's roster, as `sac admin` shows who is subscribed to a room "and whether they are
// reading": every member, not only the seats with a file (members.json and the registry's rooms
// per seat are the declarations; a file is proof of having been there). How far each has read is
// sac's cursor's word, never the session's; and "a closed session is not behind, it is gone":
// a gone seat's backlog is said apart and never counted as unread.

/** Why a seat is a member: declared (members.json, the registry, rooms.json's pair) or a file of it in the room. */
type RosterMembership = Membership | 'pair';

export type RosterSeat = {
  seat: string;
  because: RosterMembership[];
  /** members.json says it left the room (`sac part`): listed, and woken by nothing. */
  left: boolean;
};

/** How far sac's cursor has the member read of the others' entries in the room. */
export type MemberReading =
  | { state: 'caught-up' }
  | { state: 'behind'; unread: number }
  /** Its session is gone (derived): what its cursor has not reached is a backlog, not unread. */
  | { state: 'gone'; backlog: number }
  | { state: 'unknown'; why: string };

export type RoomMember = RosterSeat & {
  /** Its seat file in the room: none, one of 0 bytes (joined and never wrote), or one it wrote in. */
  file: 'none' | 'empty' | 'written';
  liveness: Liveness;
  presence: Presence;
  focus: Focus;
  reading: MemberReading;
};

/** The seats of a room: declared in members.json, the registry's seat records or rooms.json's pair, or with a file there; by name. */
export function findRoomSeats(room: string, withFile: Iterable<string>, store: Pick<StoreFacts, 'members' | 'registry' | 'rooms'>): RosterSeat[] {
  const found = new Map<string, RosterSeat>();
  const add = (seat: string, why: RosterMembership) => {
    let member = found.get(seat);
    if (member === undefined) found.set(seat, (member = { seat, because: [], left: false }));
    if (!member.because.includes(why)) member.because.push(why);
  };
  if (store.members.state === 'read') {
    for (const record of store.members.facts.seats) {
      if (record.rooms.includes(room)) add(record.seat, 'members');
      if (record.left.includes(room)) {
        if (!found.has(record.seat)) found.set(record.seat, { seat: record.seat, because: [], left: true });
        else found.get(record.seat)!.left = true;
      }
    }
  }
  if (store.registry.state === 'read') for (const record of store.registry.facts.seats) if (record.rooms.includes(room)) add(record.seat, 'registry');
  if (store.rooms.state === 'read') for (const seat of store.rooms.facts.rooms.find((record) => record.room === room)?.pair ?? []) add(seat, 'pair');
  for (const seat of withFile) add(seat, 'file');
  // A seat that left and is named nowhere else is not a member; one with a file there still wrote in it.
  return [...found.values()].filter((member) => member.because.length > 0).sort((a, b) => (a.seat < b.seat ? -1 : a.seat > b.seat ? 1 : 0));
}

/** Every member of a room with its liveness, presence, focus and how far sac's cursor has it read. */
export function listRoomMembers(room: string, index: RoomIndex | null, store: StoreFacts, now: number, machine: ProcessCheck): RoomMember[] {
  const files = index?.files ?? new Map();
  return findRoomSeats(room, files.keys(), store).map((member) => {
    const own = files.get(member.seat);
    const liveness = deriveLiveness(member.seat, store.registry, now, machine);
    const reading = readMemberReading(countUnread(room, member.seat, index, store), liveness);
    return {
      ...member,
      file: own === undefined ? 'none' : own.reading.size === 0 ? 'empty' : 'written',
      liveness,
      presence: resolvePresence(member.seat, store.presence, now),
      focus: resolveFocus(member.seat, store.focus, now),
      reading,
    };
  });
}

/**
 * How far sac's cursor has a seat read, as a word, from what it has not reached (a string: why
 * that cannot be told) and the seat's liveness: "a closed session is not behind, it is gone".
 * The roster and the seat's summary both say it so, and the browser only shows it.
 */
export function readMemberReading(count: number | string, liveness: Liveness): MemberReading {
  if (typeof count === 'string') return { state: 'unknown', why: count };
  if (liveness.word === 'gone') return { state: 'gone', backlog: count };
  return count === 0 ? { state: 'caught-up' } : { state: 'behind', unread: count };
}

/** The others' entries of the room that sac's cursor for the seat has not reached (sac's `inbox`); a string says why it cannot be told. */
export function countUnread(room: string, seat: string, index: RoomIndex | null, store: StoreFacts): number | string {
  const seen = findSacCursor(room, seat, store.cursors);
  if (seen === null) return 'cursors.json cannot say what sac’s cursor for it has read';
  let unread = 0;
  for (const [writer, file] of index?.files ?? []) {
    if (writer === seat) continue;
    const read = seen.get(writer);
    if (read === undefined) {
      unread += file.entries;
      continue;
    }
    const instant = parseInstant(read);
    if (instant === null) return `its cursor’s time for ${writer} names no instant, so sac’s comparison cannot be repeated`;
    unread += countLater(file, instant);
  }
  return unread;
}

