import { availableParallelism } from 'node:os';
import { SearchRefused } from '../sources/source.ts';
import type { FoundText, SearchReply, SearchRequest, TextQuery } from './searchThread.ts';
import { ThreadsBusy, ThreadsClosed, createLane, threadScript } from './threadLane.ts';

// The one place every kind's search runs: on search threads, off the event loop, RE2 matching
// (shared/textMatch.ts), within the search's budget, stopped with its client. A kind gathers its
// candidates from its index (newest first) and names its searcher, the module that reads one
// candidate's text and matches it; the pool hands them to a thread a slice at a time.

/**
 * Searches at once: one per core beside the event loop's, at most two. On two cores, two
 * searches side by side take as long as one after the other, and the event loop gets less.
 */
export const SEARCH_THREADS = Math.min(2, Math.max(1, availableParallelism() - 1));
/**
 * Searches that wait for a thread; more are refused (503) at once rather than queued without end.
 * The HTTP layer's queue of searches (server/http/admission.ts) refuses first, before a search
 * gathers its candidates; this bound holds for a caller that has no such queue.
 */
export const SEARCH_WAITING = 4;
/** When a refused search is worth asking again, in seconds. */
export const RETRY_AFTER_S = 2;
/** Candidates handed to the search's thread at a time: a few milliseconds of reading. */
const SLICE_CANDIDATES = 500;

/** A search's candidates, newest first, taken a slice at a time. */
type Candidates<C> = { take(count: number): C[]; hasMore(): boolean };

type PoolSearch<C> = { hits: { candidate: C; found: FoundText }[]; scanned: number; truncated: boolean };

export type SearchPool = {
  /**
   * Reads and matches `candidates` in order on a search thread until `limit` hits. `toThread`
   * is what the searcher is handed of each (plain data); the hits come back with their
   * candidate. Refuses at once (SearchRefused) when the pool and its queue are full.
   */
  search<C>(searcher: URL, candidates: Candidates<C>, toThread: (candidate: C) => unknown, query: TextQuery | null, limit: number, signal: AbortSignal): Promise<PoolSearch<C>>;
  close(): Promise<void>;
};

/** A list as candidates. */
export function listCandidates<C>(list: readonly C[]): Candidates<C> {
  let at = 0;
  return {
    take(count) {
      const slice = list.slice(at, at + count);
      at += slice.length;
      return slice;
    },
    hasMore: () => at < list.length,
  };
}

export function createSearchPool(): SearchPool {
  const lane = createLane<SearchRequest, SearchReply>({ script: threadScript('searchThread', import.meta.url), threads: SEARCH_THREADS, maxWaiting: SEARCH_WAITING, idleMs: 10_000 });
  return {
    async search(searcher, candidates, toThread, query, limit, signal) {
      const hits: PoolSearch<never>['hits'] = [];
      let scanned = 0;
      let truncated = false;
      try {
        await lane.use(signal, async (ask) => {
          while (candidates.hasMore() && hits.length < limit) {
            const slice = candidates.take(SLICE_CANDIDATES);
            const found = await ask({ type: 'search', searcher: searcher.href, candidates: slice.map(toThread), query, wanted: limit - hits.length });
            scanned += found.scanned;
            for (const { index, ...hit } of found.hits) hits.push({ candidate: slice[index] as never, found: hit });
            if (hits.length === limit) truncated = found.consumed < slice.length || candidates.hasMore();
          }
        });
      } catch (error) {
        if (error instanceof ThreadsBusy) {
          throw new SearchRefused('busy', `too many searches at once (${error.running} running, ${error.waiting} waiting); try again when one has finished`, RETRY_AFTER_S);
        }
        if (error instanceof ThreadsClosed) throw new SearchRefused('stopping', error.message, null);
        throw error;
      }
      return { hits, scanned, truncated };
    },
    close: () => lane.close(),
  };
}
