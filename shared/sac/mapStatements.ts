import type { MapFacts, MapStatement, Party } from '../map/party.ts';
import { findSeatRooms, listSeats, resolveSession, type RoomFiles } from './seat.ts';
import { readEntryTo } from './seatColumns.ts';
import { countEntries } from './seatFile.ts';
import { classifyAddressing } from './seatName.ts';
import type { StoreFacts } from './storeFiles.ts';

// A set-agent-comm store's statements for the map (shared/map/party.ts): each entry is a message
// from the seat whose file holds it (the writer, stated from the sender's side), to each seat its
// `to` names in the room, by seat or by agent as sac addresses them (seatName.ts), or, with no
// `to`, to every other member of the room: a broadcast, one statement per member. A seat is the
// session the registry gives it (its full `session`); the id in a seat's name joins nothing, so a
// seat without one is a node as written, and so is an addressee that is no seat.

/** What a sac store states of who talks to whom. `source`: the store's id. */
export function stateSacMessages(source: string, rooms: readonly RoomFiles[], store: Pick<StoreFacts, 'registry' | 'members' | 'rooms'>): MapFacts {
  const seats = listSeats(rooms, store);
  const known = new Set(seats);
  const partyOf = new Map<string, Party>();
  const membersOf = new Map<string, string[]>();
  for (const seat of seats) {
    const session = resolveSession(seat, store.registry);
    partyOf.set(seat, session.state === 'known' ? { type: 'session', id: session.session } : { type: 'as-written', source, as: seat, idClaimed: false });
    for (const room of findSeatRooms(seat, rooms, store)) {
      if (room.left) continue;
      const members = membersOf.get(room.room);
      if (members === undefined) membersOf.set(room.room, [seat]);
      else members.push(seat);
    }
  }
  const parties: MapFacts['parties'] = seats.map((seat) => ({ party: partyOf.get(seat)!, conversation: seat }));

  const statements: MapStatement[] = [];
  for (const { room, files } of rooms) {
    const members = membersOf.get(room) ?? [];
    for (const file of files) {
      const writer = file.seat;
      const from = partyOf.get(writer)!;
      const columns = file.entries;
      for (let index = 0; index < countEntries(file); index++) {
        const to = readEntryTo(columns, index);
        const instant = columns.instant[index]!;
        const base = { from, instant: Number.isNaN(instant) ? null : instant, seenFrom: 'sender' as const, refused: null, conversation: writer, key: `channels/${room}/${writer}.md:${columns.start[index]!}` };
        if (to.length === 0) {
          for (const member of members) if (member !== writer) statements.push({ ...base, to: partyOf.get(member)!, broadcast: true });
          continue;
        }
        for (const receiver of findReceivers(to, members, writer, known, source)) statements.push({ ...base, to: typeof receiver === 'string' ? partyOf.get(receiver)! : receiver, broadcast: false });
      }
    }
  }
  return { parties, statements };
}

/**
 * The seats (or parties as written) an entry's `to` reaches: the members of the room it names by
 * seat or agent (never the writer), else a seat of the store of that name, else the name as written.
 */
function findReceivers(to: readonly string[], members: readonly string[], writer: string, known: ReadonlySet<string>, source: string): (string | Party)[] {
  const found = new Set<string>();
  const written: Party[] = [];
  for (const addressee of to) {
    const reached = members.filter((member) => member !== writer && classifyAddressing([addressee], member) !== 'to-others');
    if (reached.length > 0) for (const member of reached) found.add(member);
    else if (known.has(addressee)) found.add(addressee);
    else written.push({ type: 'as-written', source, as: addressee, idClaimed: false });
  }
  return [...found, ...written];
}
