import { resolve } from 'node:path';
import type { LiveItem, SourceStatus } from '../../shared/wire/common.ts';
import { firstLineOf } from '../../shared/firstLine.ts';
import { findFirst } from '../../shared/sac/lookup.ts';
import { stateSacMessages } from '../../shared/sac/mapStatements.ts';
import { summarizeSeat, type RoomFiles } from '../../shared/sac/seat.ts';
import { sacSeatSummarySchema, type SacSearchHit, type SacSeatSummary } from '../../shared/wire/sac.ts';
import { createNoticeGatherer } from '../sources/noticeGatherer.ts';
import { sourceRefOf } from '../sources/sourceRef.ts';
import type { ListedConversation, Source, SourceNotice } from '../sources/source.ts';
import { createSacExport, describeSacHit } from './sacExport.ts';
import { createSacFolds } from './sacFolds.ts';
import { createLiveItems } from './sacLiveItems.ts';
import { createSacPages } from './sacPages.ts';
import { createFlowProjection, projectSummary } from './sacProjection.ts';
import { createSacReader } from './sacReader.ts';
import { searchSac } from './sacSearch.ts';
import { createSearchPool, type SearchPool } from '../search/searchPool.ts';
import { readSeatRange } from './storeOpen.ts';

// A set-agent-comm store as a source: seats are its conversations (grouped by the registry's
// project), rooms a view of their own. Its reader reads the files; sacFolds.ts keeps what is
// folded from them, sacProjection.ts says it in the wire's words, sacPages.ts answers with it.

type SacSourceOptions = { root: string; onError?: (message: string) => void; searchPool?: SearchPool };

/** A summary older than this is folded again: a focus turns stale and a quiet presence ends with time. */
const SUMMARY_MAX_AGE_MS = 60_000;

export function createSacSource(options: SacSourceOptions): Source<'sac'> {
  const root = resolve(options.root);
  const ref = sourceRefOf('sac', root);
  const pool = options.searchPool ?? createSearchPool();
  const listeners = new Set<(notice: SourceNotice) => void>();
  /** Seats whose summary changed since the last notice. */
  const dirty = new Set<string>();
  /** Rooms whose files changed since the last notice: their new and changed items are told with it. */
  const roomsChanged = new Set<string>();
  let allDirty = true;
  const summaries = new Map<string, { listed: ListedConversation; at: number }>();

  const publish = (notice: SourceNotice) => {
    for (const listener of listeners) listener(notice);
  };
  const statusNow = (): SourceStatus => {
    const status = reader.status();
    return { ...ref, root, state: status.state, why: status.why, indexing: status.indexing };
  };
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

  const reader = createSacReader({
    root,
    ...(options.onError !== undefined ? { onError: options.onError } : {}),
    onStatus: () => {
      // What the first scan read is not told item by item: it is what the files held when reading began.
      if (reader.status().indexing.state === 'ready') liveItems.takeAsTold(reader.rooms());
      publish({ type: 'source', source: statusNow() });
    },
    onChange(change) {
      // A room gone (archived) takes the seats it had with it: they are looked up as last listed.
      const before = folds.layoutBefore();
      const layout = folds.currentLayout();
      const seats = layout.seats;
      let touched: readonly string[];
      if (change.store) {
        touched = seats;
        allDirty = true;
      } else {
        const store = reader.store();
        if (change.rooms.length > 0 && (store.members.state !== 'read' || store.registry.state !== 'read')) touched = seats;
        else {
          const inRooms = new Set<string>();
          for (const room of change.rooms) {
            for (const seat of layout.seatsOf.get(room) ?? []) inRooms.add(seat);
            for (const seat of before?.seatsOf.get(room) ?? []) inRooms.add(seat);
          }
          touched = seats.filter((seat) => inRooms.has(seat) || !summaries.has(seat));
        }
        for (const seat of touched) summaries.delete(seat);
      }
      if (reader.status().indexing.state !== 'ready') return;
      for (const room of change.rooms) roomsChanged.add(room);
      for (const seat of touched) dirty.add(seat);
      if (dirty.size > 0 || roomsChanged.size > 0) notices.gather();
    },
  });

  const folds = createSacFolds(reader);
  const flows = createFlowProjection(reader, root, ref, folds.wakeRoomOf);
  const liveItems = createLiveItems({
    ref,
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

  function listedOf(seat: string): ListedConversation {
    const cached = summaries.get(seat);
    if (cached !== undefined && !allDirty && !dirty.has(seat) && Date.now() - cached.at < SUMMARY_MAX_AGE_MS) return cached.listed;
    const store = reader.store();
    const seatSummary = summarizeSeat(seat, folds.indexes, store, Date.now(), folds.processStates(store));
    const registry = store.registry;
    const lastSeen = registry.state === 'read' ? (findFirst(registry.facts.seats, 'seat', seat)?.lastSeen ?? null) : null;
    const summary = sacSeatSummarySchema.parse(projectSummary(ref, seatSummary, lastSeen));
    const listed: ListedConversation = {
      id: seat,
      cwd: summary.project.project,
      lastAt: summary.lastAt,
      session: summary.session.state === 'known' ? summary.session.session : null,
      sent: summary.counts.sent,
      received: summary.counts.received,
      degraded: summary.degraded.length > 0,
      json: JSON.stringify(summary),
    };
    summaries.set(seat, { listed, at: Date.now() });
    return listed;
  }
  const summaryOf = (seat: string) => JSON.parse(listedOf(seat).json) as SacSeatSummary;

  function conversations(): ListedConversation[] {
    const seats = folds.currentSeats();
    const list = seats.map(listedOf);
    allDirty = false;
    const known = new Set(seats);
    for (const seat of summaries.keys()) if (!known.has(seat)) summaries.delete(seat);
    return list;
  }

  const pages = createSacPages({ ref, reader, folds, flows, summaryOf });
  const exportOf = createSacExport({
    ref,
    root,
    reader,
    flows,
    foldSeat: (seat) => (folds.currentSeats().includes(seat) ? { view: folds.foldSeatNow(seat), summary: summaryOf(seat) } : null),
    summaryOf,
  });

  return {
    ref,
    status: statusNow,
    strays: () => reader.strays(),
    version: () => `${reader.version()}`,
    conversations,
    conversation: (id) => (folds.currentSeats().includes(id) ? listedOf(id) : null),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    page: pages.seatPage,
    item: pages.itemOf,
    export: exportOf,
    views: { rooms: pages.rooms },
    mapFacts: () => stateSacMessages(ref.id, reader.rooms(), reader.store()),
    search: (query, signal) => searchSac(reader, pool, root, ref, query, signal),
    describeSearchHit: (hit) => describeSacHit(hit as SacSearchHit),
    // Its searches run on the search threads: they are ended, not waited for.
    stopWork: () => void pool.close(),
    start: () => reader.start(),
    async close() {
      notices.close();
      listeners.clear();
      await Promise.all([pool.close(), reader.close()]);
    },
  };
}
