import type { SourceRef } from '../../shared/wire/common.ts';
import { listKnownRooms, type RoomFolder } from '../../shared/sac/knownRooms.ts';
import { foldRoom, type FlowItem, type RoomFold } from '../../shared/sac/room.ts';
import { listRoomMembers } from '../../shared/sac/roster.ts';
import { deriveWakes } from '../../shared/sac/wakes.ts';
import type { ReceivedItem, RoomFiles } from '../../shared/sac/seat.ts';
import type { StoreFacts } from '../../shared/sac/storeFiles.ts';
import type { SacItemResponse, SacRoomResponse, SacRoomsResponse, SacRoomSummary, SacSeatResponse, SacSeatSummary } from '../../shared/wire/sac.ts';
import { mapInSteps, type LoopTurns } from '../sources/loopTurns.ts';
import { NotHere, type Answer, type FirstLine } from '../sources/source.ts';
import { firstLineOf } from '../../shared/firstLine.ts';
import type { SacFolds } from './sacFolds.ts';
import { projectMembers, projectRoomSummary, type FlowProjection } from './sacProjection.ts';
import type { SacReader } from './sacReader.ts';

// What a set-agent-comm store answers: a seat's Sent | Received (its conversation's page), one
// stretch whole, and the view only this kind has, its rooms and one room's flow.

type PagesOf = {
  ref: SourceRef & { kind: 'sac' };
  reader: SacReader;
  folds: SacFolds;
  flows: FlowProjection;
  /** A seat's summary as listed now. */
  summaryOf(seat: string): SacSeatSummary;
  turns: LoopTurns;
};

/** A page's items read a slice a step (server/sources/loopTurns.ts): each reads its stretch of a seat file again. */
const PAGE_STEP_ITEMS = 16;

export function createSacPages({ ref, reader, folds, flows, summaryOf, turns }: PagesOf) {
  const roomRows = new Map<string, { files: RoomFiles; rooms: StoreFacts['rooms']; row: SacRoomSummary }>();
  const noSeat = (seat: string) => new NotHere(`no seat ${JSON.stringify(seat)} in this set-agent-comm store`);

  async function seatPage(seat: string, page: { others: '0' | '1'; limit: number }): Promise<Answer<SacSeatResponse>> {
    if (!folds.currentSeats().includes(seat)) return noSeat(seat);
    const others = page.others === '1';
    const view = folds.foldSeatNow(seat);
    const received = view.received.filter((item) => others || item.addressing !== 'to-others');
    const seatNow = summaryOf(seat);
    const sent = await mapInSteps(view.sent.slice(-page.limit), turns, 'answer', PAGE_STEP_ITEMS, (slice) => slice.map((item) => flows.projectFlow(item.room, item.flow, null, true)));
    const receivedOnPage = await mapInSteps(received.slice(-page.limit), turns, 'answer', PAGE_STEP_ITEMS, (slice) => slice.map((item) => flows.projectFlow(item.room, item.flow, item, true)));
    return {
      schema: 'rec.sac-seat/1',
      seat: seatNow,
      others,
      sent,
      received: receivedOnPage,
      limit: page.limit,
      sentTotal: view.sent.length,
      receivedTotal: received.length,
    };
  }

  async function itemOf(seat: string, itemId: string): Promise<Answer<SacItemResponse>> {
    const noItem = new NotHere(`the seat ${JSON.stringify(seat)} has no such item in this set-agent-comm store`);
    const place = readItemKey(itemId);
    if (place === null) return noItem;
    const { room, writer, start } = place;
    const fold = folds.foldRoomNow(room);
    const flow = fold?.items.find((candidate) => candidate.seat === writer && candidate.item.start === start);
    if (flow === undefined) return noItem;
    // The item is asked for from a seat's page: its addressing and sac's cursor are the seat's.
    let received: ReceivedItem | null = null;
    if (writer !== seat && folds.currentSeats().includes(seat)) {
      received = folds.foldSeatNow(seat).received.find((candidate) => candidate.room === room && candidate.flow.seat === writer && candidate.flow.item.start === flow.item.start) ?? null;
    }
    return { schema: 'rec.sac-item/1', item: flows.projectFlow(room, flow, received, false) };
  }

  /**
   * The first line of each item named by its key, read as a page reads it, a slice a step. A key
   * names its room and its writer's file, so it is answered from the store, as itemOf answers it.
   */
  async function firstLinesOf(itemIds: readonly string[], signal: AbortSignal): Promise<Map<string, FirstLine>> {
    const rooms = new Map<string, Map<string, FlowItem>>();
    const flowOf = (room: string, writer: string, start: number) => {
      let inRoom = rooms.get(room);
      if (inRoom === undefined) rooms.set(room, (inRoom = new Map((folds.foldRoomNow(room)?.items ?? []).map((flow) => [`${flow.seat}:${flow.item.start}`, flow]))));
      return inRoom.get(`${writer}:${start}`);
    };
    const read = await mapInSteps(itemIds, turns, 'answer', PAGE_STEP_ITEMS, (slice) => {
      signal.throwIfAborted();
      return slice.map((itemId): FirstLine => {
        const place = readItemKey(itemId);
        const flow = place === null ? undefined : flowOf(place.room, place.writer, place.start);
        if (place === null || flow === undefined) return { none: 'no such item in this set-agent-comm store now' };
        if (flow.item.type !== 'entry' || flow.item.evidence !== 'parsed') return { none: flow.item.why ?? `not read: ${flow.item.evidence}` };
        const { text } = flows.readText(flow.item, place.room, place.writer, true);
        return text === null ? { none: 'the entry could not be read now' } : { line: firstLineOf(text) };
      });
    });
    return new Map(itemIds.map((itemId, index) => [itemId, read[index]!]));
  }

  /** A room's members as they are now: liveness and quiet move with time, so they are not kept with its row. */
  function membersOf(room: string) {
    const store = reader.store();
    return listRoomMembers(room, folds.indexes.indexOf(room), store, Date.now(), folds.processStates(store));
  }

  /** A room sac's records name with no folder read here: its members, and no entries. */
  function unreadRoomOf(room: string): { fold: RoomFold; folder: RoomFolder } | null {
    if (reader.room(room) !== null) return null;
    const store = reader.store();
    const known = listKnownRooms([], reader.archived(), store).find((candidate) => candidate.room === room);
    return known === undefined ? null : { fold: foldRoom(room, [], store.rooms), folder: known.folder };
  }

  function roomSummaries(): SacRoomSummary[] {
    const store = reader.store();
    const rooms = reader.rooms();
    const unread = listKnownRooms(rooms.map((files) => files.room), reader.archived(), store).filter((known) => known.folder.state !== 'present');
    const rows = rooms.map((files) => {
      const members = membersOf(files.room);
      const kept = roomRows.get(files.room);
      if (kept !== undefined && kept.files === files && kept.rooms === store.rooms) return { ...kept.row, members: projectMembers(members) };
      // A room's row is made from its fold once per change of the room, and the fold is not kept for it.
      const row = projectRoomSummary(ref, folds.isKept(files) ? folds.foldRoomCached(files.room, files.files, store.rooms) : foldRoom(files.room, files.files, store.rooms), members);
      roomRows.set(files.room, { files, rooms: store.rooms, row });
      return row;
    });
    const known = new Set(rooms.map((files) => files.room));
    for (const room of roomRows.keys()) if (!known.has(room)) roomRows.delete(room);
    for (const { room, folder } of unread) rows.push(projectRoomSummary(ref, foldRoom(room, [], store.rooms), membersOf(room), folder));
    return rows.sort((a, b) => (a.room < b.room ? -1 : a.room > b.room ? 1 : 0));
  }

  /** The rooms view: every room, and one room's flow, its newest `limit` items. */
  const rooms = {
    list: async (): Promise<Answer<SacRoomsResponse>> => ({ schema: 'rec.sac-rooms/1', source: ref, rooms: roomSummaries() }),
    async one(room: string, query: { flow: 'all' | 'waking'; limit: number }): Promise<Answer<SacRoomResponse>> {
      const fold = folds.foldRoomNow(room);
      if (fold === null) {
        const unread = unreadRoomOf(room);
        if (unread === null) return new NotHere(`no room ${JSON.stringify(room)} in this set-agent-comm store`);
        return { schema: 'rec.sac-room/1', room: projectRoomSummary(ref, unread.fold, membersOf(room), unread.folder), items: [], flow: query.flow, limit: query.limit, total: 0 };
      }
      const wakeRoom = folds.wakeRoomOf(room);
      // sac admin's flow filter: the entries that wake a seat, as sac's rule derives it. What is
      // not a whole entry (a write under way or cut short, stray text) stays in its place, as the
      // record's filters keep a damaged file: whom it woke, if anyone, is unknown, not nobody.
      const items = query.flow === 'waking' ? fold.items.filter((flow) => (deriveWakes(flow, wakeRoom)?.seats.length ?? 1) > 0) : fold.items;
      return {
        schema: 'rec.sac-room/1',
        room: projectRoomSummary(ref, fold, membersOf(room)),
        items: items.slice(-query.limit).map((flow) => flows.projectFlow(room, flow, null, true)),
        flow: query.flow,
        limit: query.limit,
        total: items.length,
      };
    },
  };

  /** A room read here as it is now, its flow and its summary, for its export; null: no folder of it is read. */
  function roomNow(room: string): { items: FlowItem[]; summary: SacRoomSummary } | null {
    const fold = folds.foldRoomNow(room);
    return fold === null ? null : { items: fold.items, summary: projectRoomSummary(ref, fold, membersOf(room)) };
  }

  return { seatPage, itemOf, firstLinesOf, rooms, roomNow };
}

/** An item's key, `channels/<room>/<writer>.md:<start>`: the stretch of its writer's file that begins at `start`. */
function readItemKey(itemId: string): { room: string; writer: string; start: number } | null {
  const match = /^channels\/([^/]+)\/(.+)\.md:(\d+)$/.exec(itemId);
  return match === null ? null : { room: match[1]!, writer: match[2]!, start: Number(match[3]) };
}
