import { useQueries, useQuery } from '@tanstack/react-query';
import { MAX_PAGE_LIMIT } from '../../../shared/wire/common.ts';
import type { SessionItemWire, SessionResponse } from '../../../shared/wire/record.ts';
import { ApiError, KEEP_ENTRIES_AS_SENT, fetchPageAround, fetchSessionPage } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';

// A session's items come in pages by position in the session's order; only the pages on screen
// are fetched, so a session of 100,000 entries costs what a screenful costs.

const PAGE_SIZE = 200;

type SessionPages = {
  /** The item at a position, when its page is here. */
  itemAt(index: number): SessionItemWire | undefined;
  /** The newest answer among the pages asked for: the session's total and summary. */
  latest: SessionResponse | null;
  /** When that answer came (the query's dataUpdatedAt), to tell it from older ones. */
  latestAt: number;
  error: Error | null;
};

/**
 * The pages asked for; and, while `head` is set, a one-item answer that gives the session's total,
 * so that the first page asked for is the one the view opens on (for a followed session, its last).
 */
export function useSessionPages(sessionId: string, pageIndexes: number[], head: boolean, filter = ''): SessionPages {
  const filterQuery = new URLSearchParams(filter);
  const results = useQueries({
    queries: [
      ...pageIndexes.map((pageIndex) => ({
        queryKey: queryKeys.sessionPage(sessionId, pageIndex, PAGE_SIZE, filter) as readonly unknown[],
        queryFn: ({ signal }: { signal: AbortSignal }) => fetchSessionPage(sessionId, pageIndex * PAGE_SIZE, PAGE_SIZE, signal, filterQuery),
        ...KEEP_ENTRIES_AS_SENT,
      })),
      ...(head ? [{ queryKey: queryKeys.sessionHead(sessionId, filter), queryFn: ({ signal }: { signal: AbortSignal }) => fetchSessionPage(sessionId, 0, 1, signal, filterQuery), ...KEEP_ENTRIES_AS_SENT }] : []),
    ],
  });
  const byPage = new Map<number, SessionResponse>();
  let latest: SessionResponse | null = null;
  let latestAt = -1;
  let error: Error | null = null;
  results.forEach((result, i) => {
    if (result.data !== undefined) {
      if (i < pageIndexes.length) byPage.set(pageIndexes[i]!, result.data);
      if (result.dataUpdatedAt > latestAt) {
        latestAt = result.dataUpdatedAt;
        latest = result.data;
      }
    }
    error ??= result.error;
  });
  return {
    itemAt: (index) => byPage.get(Math.floor(index / PAGE_SIZE))?.items[index % PAGE_SIZE],
    latest,
    latestAt,
    error,
  };
}

export function pagesFor(indexes: number[]): number[] {
  const pages = new Set<number>();
  for (const index of indexes) pages.add(Math.floor(index / PAGE_SIZE));
  return [...pages].sort((a, b) => a - b);
}

/**
 * Where a file sits in the session's order (with its filter), for a link to one entry; null when
 * it is not there, 'filtered-out' when it is there and the filter leaves it out.
 */
export function useEntryIndex(sessionId: string, file: string | null, filter = '') {
  const filterQuery = new URLSearchParams(filter);
  return useQuery<number | 'filtered-out' | null>({
    queryKey: ['around', sessionId, file ?? '', filter],
    enabled: file !== null,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      let around: SessionResponse;
      try {
        around = await fetchPageAround(sessionId, file!, PAGE_SIZE, signal, filterQuery);
      } catch (error) {
        // The server answers a file it does not hold in the session with a 404: an answer, not a failure.
        if (error instanceof ApiError && error.status === 404) return filter !== '' && /filter/.test(error.message) ? 'filtered-out' : null;
        throw error;
      }
      const found = findFile(around.items, file!);
      if (found >= 0) return around.page.offset + found;
      // A server that does not know `around` answers with the first page: look through them all.
      for (let offset = around.items.length; offset < around.page.total; offset += MAX_PAGE_LIMIT) {
        const page = await fetchSessionPage(sessionId, offset, MAX_PAGE_LIMIT, signal, filterQuery);
        const index = findFile(page.items, file!);
        if (index >= 0) return offset + index;
      }
      return null;
    },
  });
}

function findFile(items: SessionItemWire[], file: string): number {
  return items.findIndex((item) => item.type !== 'gap' && item.file === file);
}
