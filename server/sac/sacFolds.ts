import type { ProcessCheck } from '../../shared/sac/liveness.ts';
import { classifyRoom, foldRoom, type RoomFold } from '../../shared/sac/room.ts';
import { findRoomSeats } from '../../shared/sac/roster.ts';
import { createRoomIndex, updateRoomIndex, type RoomIndex } from '../../shared/sac/roomIndex.ts';
import { foldSeat, listSeats, type RoomFiles, type SeatView } from '../../shared/sac/seat.ts';
import type { SeatFileReading } from '../../shared/sac/seatFile.ts';
import type { StoreFacts } from '../../shared/sac/storeFiles.ts';
import type { WakeRoom } from '../../shared/sac/wakes.ts';
import { checkProcesses } from './processes.ts';
import type { SacReader } from './sacReader.ts';

// What the set-agent-comm source folds from what its reader read, kept while what it rests on is
// unchanged: the store's layout (its seats, and which rooms each is in), each room's index and a
// few rooms' folds, a seat's fold, and whether each writer's process runs.

/** Room folds kept for the pages that show them; a store of 100 rooms of 10,000 entries is not kept folded whole. */
const ROOM_FOLDS_KEPT = 16;

/** What is listed of the store: its seats, and which rooms each is in. Kept while no room or seat file comes or goes. */
export type Layout = { key: number; store: StoreFacts; seats: string[]; withFile: Map<string, string[]>; seatsOf: Map<string, Set<string>> };

export type SacFolds = ReturnType<typeof createSacFolds>;

export function createSacFolds(reader: SacReader) {
  const roomFolds = new Map<string, { files: RoomFiles; rooms: StoreFacts['rooms']; fold: RoomFold }>();
  const roomIndexes = new Map<string, { files: RoomFiles; index: RoomIndex }>();
  let layoutNow: Layout | null = null;

  function currentLayout(): Layout {
    const store = reader.store();
    const key = reader.layout();
    if (layoutNow !== null && layoutNow.key === key && layoutNow.store === store) return layoutNow;
    const rooms = reader.rooms();
    const withFile = new Map<string, string[]>();
    const seatsOf = new Map<string, Set<string>>();
    const add = (room: string, seat: string) => {
      let seats = seatsOf.get(room);
      if (seats === undefined) seatsOf.set(room, (seats = new Set()));
      seats.add(seat);
    };
    for (const room of rooms) {
      for (const file of room.files) {
        const list = withFile.get(file.seat);
        if (list === undefined) withFile.set(file.seat, [room.room]);
        else list.push(room.room);
        add(room.room, file.seat);
      }
    }
    // Seats declared in a room are changed by it too (members.json, the registry).
    if (store.members.state === 'read') for (const record of store.members.facts.seats) for (const room of record.rooms) add(room, record.seat);
    if (store.registry.state === 'read') for (const record of store.registry.facts.seats) for (const room of record.rooms) add(room, record.seat);
    layoutNow = { key, store, seats: listSeats(rooms, store), withFile, seatsOf };
    return layoutNow;
  }

  function currentSeats(): string[] {
    return currentLayout().seats;
  }

  /** A room's index, brought up to what the reader read: only files read since are taken up. */
  function indexOfRoom(room: string): RoomIndex | null {
    const files = reader.room(room);
    if (files === null) {
      roomIndexes.delete(room);
      return null;
    }
    let kept = roomIndexes.get(room);
    if (kept === undefined) roomIndexes.set(room, (kept = { files, index: createRoomIndex(room) }));
    else if (kept.files === files && kept.index.version > 0) return kept.index;
    updateRoomIndex(kept.index, files.files);
    kept.files = files;
    return kept.index;
  }

  const indexes = { indexOf: indexOfRoom, roomsWithFileOf: (seat: string) => currentLayout().withFile.get(seat) ?? [] };

  const foldRoomCached = (room: string, files: readonly SeatFileReading[], rooms: StoreFacts['rooms']): RoomFold => {
    const roomFiles = reader.room(room);
    const cached = roomFolds.get(room);
    if (roomFiles !== null && roomFiles.files === files) {
      if (cached !== undefined && cached.files === roomFiles && cached.rooms === rooms) {
        // The most recently used is kept last, and the least recently used leaves first.
        roomFolds.delete(room);
        roomFolds.set(room, cached);
        return cached.fold;
      }
      const fold = foldRoom(room, files, rooms);
      roomFolds.delete(room);
      roomFolds.set(room, { files: roomFiles, rooms, fold });
      if (roomFolds.size > ROOM_FOLDS_KEPT) roomFolds.delete(roomFolds.keys().next().value!);
      return fold;
    }
    return foldRoom(room, files, rooms);
  };

  let roomsNow: { version: number; rooms: RoomFiles[] } | null = null;
  function foldSeatNow(seat: string): SeatView {
    const store = reader.store();
    const version = reader.version();
    if (roomsNow === null || roomsNow.version !== version) roomsNow = { version, rooms: reader.rooms() };
    return foldSeat(seat, roomsNow.rooms, store, Date.now(), processStates(store), foldRoomCached);
  }

  const wakeRooms = new Map<string, { files: RoomFiles | null; store: StoreFacts; at: number; wakeRoom: WakeRoom }>();
  /** What a room's entries are woken against, kept while its files and the store files are unchanged (and a second, for quiet's end). */
  function wakeRoomOf(room: string): WakeRoom {
    const store = reader.store();
    const files = reader.room(room);
    const kept = wakeRooms.get(room);
    if (kept !== undefined && kept.files === files && kept.store === store && Date.now() - kept.at < 1_000) return kept.wakeRoom;
    const seats = files?.files.map((file) => file.seat) ?? [];
    const wakeRoom: WakeRoom = { members: findRoomSeats(room, seats, store), kind: classifyRoom(room, store.rooms), presence: store.presence, now: Date.now() };
    if (wakeRooms.size > ROOM_FOLDS_KEPT * 4) wakeRooms.clear();
    wakeRooms.set(room, { files, store, at: Date.now(), wakeRoom });
    return wakeRoom;
  }

  let processes: { at: number; registry: StoreFacts['registry']; machine: ProcessCheck } | null = null;
  /** Whether a pid runs is asked again after a second, not once per seat of a list of thousands. */
  function processStates(store: StoreFacts): ProcessCheck {
    if (processes === null || processes.registry !== store.registry || Date.now() - processes.at > 1_000) {
      processes = { at: Date.now(), registry: store.registry, machine: checkProcesses(store) };
    }
    return processes.machine;
  }

  return {
    /** The layout as last listed: a room gone takes the seats it had with it, looked up as they were. */
    layoutBefore: () => layoutNow,
    currentLayout,
    currentSeats,
    indexes,
    foldRoomCached,
    /** A room's fold as its flow and its row show it; null when there is no such room. */
    foldRoomNow(room: string): RoomFold | null {
      const files = reader.room(room);
      return files === null ? null : foldRoomCached(room, files.files, reader.store().rooms);
    },
    wakeRoomOf,
    /** Whether a room's fold is kept: its row is then made from it rather than folded again. */
    isKept: (files: RoomFiles) => roomFolds.get(files.room)?.files === files,
    foldSeatNow,
    processStates,
  };
}
