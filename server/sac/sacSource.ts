import { resolve } from 'node:path';
import type { PendingWindow } from '../../shared/evidence.ts';
import type { SourceStatus } from '../../shared/wire/common.ts';
import { findFirst } from '../../shared/sac/lookup.ts';
import { stateSacMessages } from '../../shared/sac/mapStatements.ts';
import { receivedShownAtFirst, summarizeSeat } from '../../shared/sac/seat.ts';
import { sacSeatSummarySchema, type SacSearchHit, type SacSeatSummary } from '../../shared/wire/sac.ts';
import { sourceRefOf } from '../sources/sourceRef.ts';
import type { ListedConversation, Source, SourceNotice } from '../sources/source.ts';
import { createSacExport, describeSacHit } from './sacExport.ts';
import { createSacFolds } from './sacFolds.ts';
import { createSacNotices } from './sacNotices.ts';
import { createSacPages } from './sacPages.ts';
import { createFlowProjection, projectSummary } from './sacProjection.ts';
import { createSacReader } from './sacReader.ts';
import { searchSac } from './sacSearch.ts';
import { createSearchPool, type SearchPool } from '../search/searchPool.ts';
import { createLoopTurns, type LoopTurns } from '../sources/loopTurns.ts';

// A set-agent-comm store as a source: seats are its conversations (grouped by the registry's
// project), rooms a view of their own. Its reader reads the files; sacFolds.ts keeps what is
// folded from them, sacProjection.ts says it in the wire's words, sacPages.ts answers with it.

type SacSourceOptions = PendingWindow & { root: string; onError?: (message: string) => void; searchPool?: SearchPool; turns?: LoopTurns };

/** A summary older than this is folded again: a focus turns stale and a quiet presence ends with time. */
const SUMMARY_MAX_AGE_MS = 60_000;

export function createSacSource(options: SacSourceOptions): Source<'sac'> {
  const root = resolve(options.root);
  const ref = sourceRefOf('sac', root);
  const pool = options.searchPool ?? createSearchPool();
  const turns = options.turns ?? createLoopTurns();
  const listeners = new Set<(notice: SourceNotice) => void>();
  let allDirty = true;
  const summaries = new Map<string, { listed: ListedConversation; at: number }>();

  const publish = (notice: SourceNotice) => {
    for (const listener of listeners) listener(notice);
  };
  const statusNow = (): SourceStatus => {
    const status = reader.status();
    return { ...ref, root, state: status.state, why: status.why, indexing: status.indexing };
  };
  const reader = createSacReader({
    root,
    pendingWindowMs: options.pendingWindowMs,
    ...(options.onError !== undefined ? { onError: options.onError } : {}),
    onStatus: () => {
      // What the first scan read is not told item by item: it is what the files held when reading began.
      if (reader.status().indexing.state === 'ready') notices.takeAsTold();
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
      notices.gather(change.rooms, touched);
    },
  });

  const folds = createSacFolds(reader);
  const flows = createFlowProjection(reader, root, ref, folds.wakeRoomOf);
  const notices = createSacNotices({ ref, root, reader, flows, publish });

  function listedOf(seat: string): ListedConversation {
    const cached = summaries.get(seat);
    if (cached !== undefined && !allDirty && !notices.isDirty(seat) && Date.now() - cached.at < SUMMARY_MAX_AGE_MS) return cached.listed;
    const store = reader.store();
    const seatSummary = summarizeSeat(seat, folds.indexes, store, Date.now(), folds.processStates(store));
    const registry = store.registry;
    const lastSeen = registry.state === 'read' ? (findFirst(registry.facts.seats, 'seat', seat)?.lastSeen ?? null) : null;
    const summary = sacSeatSummarySchema.parse(projectSummary(ref, seatSummary, lastSeen));
    const listed: ListedConversation = {
      id: seat,
      cwd: summary.project.project,
      lastAt: summary.lastAt,
      session: summary.statedSession,
      sent: summary.counts.sent,
      received: receivedShownAtFirst(summary.counts),
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

  const pages = createSacPages({ ref, reader, folds, flows, summaryOf, turns });
  const exportOf = createSacExport({
    ref,
    root,
    reader,
    flows,
    foldSeat: (seat) => (folds.currentSeats().includes(seat) ? { view: folds.foldSeatNow(seat), summary: summaryOf(seat) } : null),
    summaryOf,
    roomNow: pages.roomNow,
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
    // A key names its room and its writer's file: answered from the store, whichever seat asks.
    firstLines: (_seat, keys, signal) => pages.firstLinesOf(keys, signal),
    export: exportOf.seat,
    views: { rooms: { ...pages.rooms, export: exportOf.room } },
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
