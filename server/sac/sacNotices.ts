import type { LiveItem, SourceRef } from '../../shared/wire/common.ts';
import { firstLineOf } from '../../shared/firstLine.ts';
import type { RoomFiles } from '../../shared/sac/seat.ts';
import { createNoticeGatherer } from '../sources/noticeGatherer.ts';
import type { SourceNotice } from '../sources/source.ts';
import { createLiveItems } from './sacLiveItems.ts';
import type { FlowProjection } from './sacProjection.ts';
import type { SacReader } from './sacReader.ts';
import { readSeatRange } from './storeOpen.ts';

type SacNoticesContext = {
  ref: SourceRef;
  root: string;
  reader: SacReader;
  flows: Pick<FlowProjection, 'readText'>;
  publish: (notice: SourceNotice) => void;
};

/**
 * What a sac source tells as its store changes: the seats whose summary changed and the rooms
 * whose files changed are gathered into one notice, each changed seat's new and changed items
 * told with it.
 */
export function createSacNotices(context: SacNoticesContext) {
  const { root, reader, flows, publish } = context;
  /** Seats whose summary changed since the last notice. */
  const dirty = new Set<string>();
  /** Rooms whose files changed since the last notice: their new and changed items are told with it. */
  const roomsChanged = new Set<string>();

  const liveItems = createLiveItems({
    ref: context.ref,
    firstLineOf(room, seat, entry) {
      const { text } = flows.readText(entry, room, seat, true);
      return text === null ? null : firstLineOf(text);
    },
    beginsHeader(room, seat, start) {
      const file = reader.seatFile(room, seat);
      if (file === null) return false;
      const length = Math.min(3, file.reading.size - start);
      const read = readSeatRange(root, file.relative, file.mark === null ? null : { dev: file.mark.dev, ino: file.mark.ino }, start, length, start + length);
      return read.type === 'bytes' && read.bytes.length > 0 && '## '.startsWith(read.bytes.toString('latin1'));
    },
  });

  const notices = createNoticeGatherer<never>(() => {
    const ids = [...dirty];
    dirty.clear();
    const items = collectLiveItems();
    for (const id of ids) {
      publish({ type: 'conversation-changed', id });
      const told = items.get(id);
      items.delete(id);
      if (told !== undefined) publish({ type: 'items', id, items: told });
    }
    // A seat told of no change (its summary was not asked for again) still has its items told.
    for (const [id, told] of items) publish({ type: 'items', id, items: told });
  });

  function collectLiveItems(): Map<string, LiveItem[]> {
    if (roomsChanged.size === 0) return new Map();
    const rooms: RoomFiles[] = [];
    let gone = false;
    for (const room of roomsChanged) {
      const files = reader.room(room);
      if (files === null) gone = true;
      else rooms.push(files);
    }
    roomsChanged.clear();
    if (gone) liveItems.forgetRoomsBut(new Set(reader.rooms().map((files) => files.room)));
    return liveItems.collect(rooms);
  }

  return {
    /** Whether a seat's summary changed since the last notice. */
    isDirty: (seat: string): boolean => dirty.has(seat),
    /** Rooms whose files changed and seats whose summary changed: told together at the next notice. */
    gather(rooms: readonly string[], seats: readonly string[]): void {
      for (const room of rooms) roomsChanged.add(room);
      for (const seat of seats) dirty.add(seat);
      if (dirty.size > 0 || roomsChanged.size > 0) notices.gather();
    },
    /** What the first scan read is not told item by item: it is what the files held when reading began. */
    takeAsTold(): void {
      liveItems.takeAsTold(reader.rooms());
    },
    close: (): void => notices.close(),
  };
}
