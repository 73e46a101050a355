import { availableParallelism } from 'node:os';
import type { StoppedEarly } from '../../shared/wire/search.ts';
import { SearchRefused } from '../sources/source.ts';
import type { FoundText, SearchReply, SearchRequest, TextQuery } from './searchThread.ts';
import { ThreadsBusy, ThreadsClosed, createLane, threadScript } from './threadLane.ts';

// The one place every kind's search runs: on search threads, off the event loop, RE2 matching
// (shared/textMatch.ts), within the search's budget, stopped with its client. A kind gathers its
// candidates from its index (newest first) and names its searcher, the module that reads one
// candidate's text and matches it; the pool hands them to a thread a slice at a time.
//
// A search has a budget of thread time. When it is spent, the search answers with what it found
// and says how far it got (StoppedEarly), rather than holding a thread, and every search queued
// behind it, for as long as its texts take: RE2 is linear, but 100,000 texts under a heavy
// pattern, on a machine shared with other work, is a minute. The stores one request asks share
// its budget: each store's search is made with the request's signal, and the budget runs from
// when the first of them has a thread. When each had one of its own, a search of three stores
// took a budget a store, one after the other on the one search thread of a 2-core machine (7-11 s
// at 3 s each, `npm run bench -- --only stores`).

/**
 * Searches at once: one per core beside the event loop's, at most two. On two cores, two
 * searches side by side take as long as one after the other, and the event loop gets less.
 */
export const SEARCH_THREADS = Math.min(2, Math.max(1, availableParallelism() - 1));
/**
 * Searches that wait for a thread; more are refused (503) at once rather than queued without end.
 * The HTTP layer's queue of searches (server/http/admission.ts) refuses first, before a search
 * gathers its candidates; this bound holds for a caller that has no such queue. Two: the last in
 * line waits for one search and runs one, each within its budget and what the loaded event loop
 * adds to it (gathering candidates, answering): within 10 s. With four waiting, a search waited
 * for two and answered after up to 19 s under the bench's mixed load.
 */
export const SEARCH_WAITING = 2;
/** When a refused search is worth asking again, in seconds. */
export const RETRY_AFTER_S = 2;
/**
 * How long a search may hold its thread (from when the thread is ready: its start is not counted)
 * before it answers with what it found (see docs/api.md). On a quiet machine a text found nowhere is read in all 100,000 texts
 * of a record within it; under load the search stops early and says so.
 */
export const SEARCH_BUDGET_MS = 3_000;
/** Candidates handed to the search's thread at a time: a few milliseconds of reading. */
const SLICE_CANDIDATES = 500;

/**
 * The thread checks its budget between texts; a slice still unanswered this long after its budget
 * is spent (one text under a heavy pattern, or a thread that took this long to start) has its
 * thread ended, and the search answers without that slice.
 */
const GRACE_MS = 1_000;

/** A search's candidates, newest first, taken a slice at a time. */
type Candidates<C> = { take(count: number): C[]; hasMore(): boolean; readonly total: number };

type PoolSearch<C> = { hits: { candidate: C; found: FoundText }[]; scanned: number; truncated: boolean; stoppedEarly: StoppedEarly | null };

type SearchPoolOptions = {
  /** A search's thread time (default SEARCH_BUDGET_MS). */
  budgetMs?: number;
};

export type SearchPool = {
  /**
   * Reads and matches `candidates` in order on a search thread until `limit` hits. `toThread`
   * is what the searcher is handed of each (plain data); the hits come back with their
   * candidate. Refuses at once (SearchRefused) when the pool and its queue are full. Searches
   * made with the same `signal` (one request's, over several stores) spend one budget.
   */
  search<C>(searcher: URL, candidates: Candidates<C>, toThread: (candidate: C) => unknown, query: TextQuery | null, limit: number, signal: AbortSignal): Promise<PoolSearch<C>>;
  close(): Promise<void>;
};

export function createSearchPool(options: SearchPoolOptions = {}): SearchPool {
  const budgetMs = options.budgetMs ?? SEARCH_BUDGET_MS;
  const lane = createLane<SearchRequest, SearchReply>({ script: threadScript('searchThread', import.meta.url), threads: SEARCH_THREADS, maxWaiting: SEARCH_WAITING, idleMs: 10_000 });
  /** When each request's budget began: when the first of its searches had a thread. */
  const budgetsBegun = new WeakMap<AbortSignal, number>();
  return {
    async search(searcher, candidates, toThread, query, limit, signal) {
      const hits: PoolSearch<never>['hits'] = [];
      let scanned = 0;
      let consumed = 0;
      let truncated = false;
      let outOfTime = false;
      let spentMs = 0;
      try {
        await lane.use(signal, async (ask, retire) => {
          // From when the request's first thread is ready: the time its slices wait for a busy
          // event loop counts, and so does the time this store waited for a thread its other
          // stores held.
          let startedAt = budgetsBegun.get(signal);
          if (startedAt === undefined) budgetsBegun.set(signal, (startedAt = performance.now()));
          while (candidates.hasMore() && hits.length < limit) {
            const left = budgetMs - (performance.now() - startedAt);
            if (left <= 0) {
              outOfTime = true;
              break;
            }
            const slice = candidates.take(SLICE_CANDIDATES);
            let timer: NodeJS.Timeout | undefined;
            const pastGrace = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), left + GRACE_MS)));
            const asked = ask({ type: 'search', searcher: searcher.href, candidates: slice.map(toThread), query, wanted: limit - hits.length, budgetMs: left });
            const found = await Promise.race([asked, pastGrace]).finally(() => clearTimeout(timer));
            if (found === null) {
              // Its thread is ended as the work returns; what it was asked fails then, unread.
              asked.catch(() => {});
              retire();
              outOfTime = true;
              break;
            }
            scanned += found.scanned;
            consumed += found.consumed;
            for (const { index, ...hit } of found.hits) hits.push({ candidate: slice[index] as never, found: hit });
            if (hits.length === limit) truncated = found.consumed < slice.length || candidates.hasMore();
            if (found.outOfTime) {
              outOfTime = true;
              break;
            }
          }
          spentMs = performance.now() - startedAt;
        });
      } catch (error) {
        if (error instanceof ThreadsBusy) {
          throw new SearchRefused('busy', `too many searches at once (${error.running} running, ${error.waiting} waiting); try again when one has finished`, RETRY_AFTER_S);
        }
        if (error instanceof ThreadsClosed) throw new SearchRefused('stopping', error.message, null);
        throw error;
      }
      const stoppedEarly = outOfTime ? { searched: consumed, candidates: candidates.total, afterMs: Math.round(spentMs) } : null;
      return { hits, scanned, truncated, stoppedEarly };
    },
    close: () => lane.close(),
  };
}
