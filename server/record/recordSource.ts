import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { RecordSearchHit, SourceRef } from '../../shared/api.ts';
import type { ListedConversation, Source } from '../sources/source.ts';
import { createRecordActivity } from './recordActivity.ts';
import { createRecordExport } from './recordExport.ts';
import { describeRecordHit } from './recordMarkdown.ts';
import { createRecordPages } from './recordPages.ts';
import { createRecordReader } from './recordReader.ts';
import { searchRecord } from './recordSearch.ts';
import { createReaderThreads } from './readerThreads.ts';
import type { RecordHeadStart } from './scanStart.ts';
import { createSummaryCache } from './summaryCache.ts';

type RecordSourceOptions = {
  root: string;
  headStart?: RecordHeadStart | null;
  reconcileIntervalMs?: number;
  onError?: (message: string) => void;
};

/**
 * The record as a source: its reader (index, watcher, notices), its pages and its search.
 * Searches and large entries are read on reader threads of its own, off the event loop, so that
 * one request never holds up the others.
 */
export function createRecordSource(options: RecordSourceOptions): Source & { reader: ReturnType<typeof createRecordReader> } {
  const reader = createRecordReader({
    recordDir: options.root,
    ...(options.headStart !== undefined ? { headStart: options.headStart } : {}),
    ...(options.reconcileIntervalMs !== undefined ? { reconcileIntervalMs: options.reconcileIntervalMs } : {}),
    ...(options.onError !== undefined ? { onError: options.onError } : {}),
  });
  const threads = createReaderThreads();
  // Shared: the list, the session pages and the event stream all send the same summaries.
  const summaryOf = createSummaryCache(reader.ref);
  const pages = createRecordPages(reader, summaryOf, threads);
  const exports = createRecordExport(reader, summaryOf, threads);
  const answerActivity = createRecordActivity(reader);

  const listed = (sessionId: string): ListedConversation | null => {
    const fold = reader.fold(sessionId);
    if (fold === null) return null;
    const { summary, json } = summaryOf(fold);
    return { id: sessionId, cwd: summary.cwd, lastAt: summary.lastAt, degraded: summary.degraded.length > 0, json };
  };

  return {
    reader,
    ref: reader.ref,
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
    answerConversation: (id, request, reply) => pages.answerSession(id, request, reply),
    answerItem: (id, item, request, reply) => pages.answerFile(id, item, request, reply),
    answerExport: (id, format, request, reply) => exports.answerExport(id, format, request, reply),
    answerActivity,
    search: (query, signal) => searchRecord(reader, threads, query, signal),
    describeSearchHit: (hit) => describeRecordHit(hit as RecordSearchHit),
    stopWork: () => void threads.close(),
    start: () => reader.start(),
    async close() {
      await threads.close();
      await reader.close();
    },
  };
}

/**
 * The record's id on the wire: stable for a record directory (its absolute path), so a link
 * that names it still holds after a restart, and distinct for two directories.
 */
export function recordSourceRef(recordDir: string): SourceRef {
  const digest = createHash('sha256').update(resolve(recordDir)).digest('hex');
  return { kind: 'record', id: `record-${digest.slice(0, 8)}` };
}
