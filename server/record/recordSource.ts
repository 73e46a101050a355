import { stateRecordMessages } from '../../shared/record/mapStatements.ts';
import type { PendingWindow } from '../../shared/evidence.ts';
import type { SessionFold } from '../../shared/record/session.ts';
import type { RecordSearchHit } from '../../shared/wire/record.ts';
import { createLoopTurns, type LoopTurns } from '../sources/loopTurns.ts';
import type { ListedConversation, Source } from '../sources/source.ts';
import { describeRecordActivity } from './recordActivity.ts';
import { createRecordExport } from './recordExport.ts';
import { describeRecordHit } from './recordMarkdown.ts';
import { createRecordPages } from './recordPages.ts';
import { createRecordReader } from './recordReader.ts';
import { searchRecord } from './recordSearch.ts';
import { createReaderThreads } from './readerThreads.ts';
import { createSearchPool, type SearchPool } from '../search/searchPool.ts';
import type { RecordHeadStart } from './scanStart.ts';
import { createSummaryCache } from './summaryCache.ts';

type RecordSourceOptions = PendingWindow & {
  root: string;
  headStart?: RecordHeadStart | null;
  reconcileIntervalMs?: number;
  onError?: (message: string) => void;
  searchPool?: SearchPool;
  turns?: LoopTurns;
};

/**
 * The record as a source: its reader (index, watcher, notices), its pages, its export and its
 * search. Searches (server/search/) and large entries are read on threads, off the event loop,
 * so that one request never holds up the others.
 */
export function createRecordSource(options: RecordSourceOptions): Source<'record'> & { reader: ReturnType<typeof createRecordReader> } {
  const reader = createRecordReader({
    recordDir: options.root,
    ...(options.headStart !== undefined ? { headStart: options.headStart } : {}),
    ...(options.reconcileIntervalMs !== undefined ? { reconcileIntervalMs: options.reconcileIntervalMs } : {}),
    pendingWindowMs: options.pendingWindowMs,
    ...(options.onError !== undefined ? { onError: options.onError } : {}),
  });
  const threads = createReaderThreads();
  const pool = options.searchPool ?? createSearchPool();
  // Shared: the list, the session pages and the event stream all send the same summaries.
  const summaryOf = createSummaryCache(reader.ref);
  const turns = options.turns ?? createLoopTurns();
  const pages = createRecordPages(reader, summaryOf, threads, turns);
  const exportOf = createRecordExport(reader, summaryOf, threads, turns);

  const listed = (sessionId: string): ListedConversation | null => {
    const fold = reader.fold(sessionId);
    if (fold === null) return null;
    const { summary, json } = summaryOf(fold);
    return { id: sessionId, cwd: summary.cwd, lastAt: summary.lastAt, session: summary.statedSession, sent: summary.counts.sent, received: summary.counts.received, refused: { sent: summary.counts.refused, received: summary.counts.rejected }, degraded: summary.degraded.length > 0, json };
  };

  return {
    reader,
    ref: { kind: 'record', id: reader.ref.id },
    status: () => reader.status(),
    strays: () => reader.looseFiles(),
    version: () => reader.version(),
    *conversations() {
      for (const sessionId of reader.sessionIds()) {
        const conversation = listed(sessionId);
        if (conversation !== null) yield conversation;
      }
    },
    conversation: listed,
    subscribe: (listener) =>
      reader.subscribe((notice) => {
        if (notice.type === 'source') listener(notice);
        else if (notice.type === 'items') listener({ type: 'items', id: notice.sessionId, items: notice.items });
        else listener({ type: 'conversation-changed', id: notice.sessionId });
      }),
    page: pages.page,
    item: pages.item,
    firstLines: pages.firstLines,
    export: exportOf,
    mapFacts: () => stateRecordMessages(reader.ref.id, foldsOf(reader)),
    activity: async (id, query) => describeRecordActivity(reader, id, query),
    views: {},
    search: (query, signal) => searchRecord(reader, pool, query, signal),
    describeSearchHit: (hit) => describeRecordHit(hit as RecordSearchHit),
    stopWork() {
      void threads.close();
      void pool.close();
    },
    start: () => reader.start(),
    async close() {
      await Promise.all([threads.close(), pool.close()]);
      await reader.close();
    },
  };
}

function* foldsOf(reader: ReturnType<typeof createRecordReader>): Generator<SessionFold> {
  for (const sessionId of reader.sessionIds()) {
    const fold = reader.fold(sessionId);
    if (fold !== null) yield fold;
  }
}
