import { sep } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { searchQuerySchema, searchResponseSchema, type SearchHit, type SourceRef } from '../../shared/api.ts';
import { createTextMatcher, mergeNewestFirst, orderNewestFirst, passesFilters, type MessageFacts, type SearchFilters } from '../../shared/record/search.ts';
import type { RecordSource } from '../record/recordSource.ts';
import type { TextQuery } from './readerThread.ts';
import { ThreadsBusy, ThreadsClosed, type ReaderThreads } from './readerThreads.ts';
import { stopWithClient } from './stopWithClient.ts';

type Candidate = { sessionId: string; name: string; facts: MessageFacts };

type SearchOptions = {
  /** A search still running after this long is stopped and answered with a 503. */
  budgetMs: number;
};

export const SEARCH_BUDGET_MS = 60_000;

/** Candidates handed to the search's thread at a time: a few milliseconds of reading. */
const SLICE_CANDIDATES = 500;
/** The event loop gathers candidates from the index for this long, then answers others. */
const GATHER_SLICE_MS = 8;

/**
 * Search across sessions, newest entries first. Filters run on the index; texts are read from
 * disk only for what passes them, and reading stops at `limit` hits. The reading and matching
 * run on a reader thread, so that other requests and live notices go on meanwhile; a search
 * stops when its client goes away or its time is up.
 */
export function registerSearchRoutes(app: FastifyInstance, source: RecordSource, threads: ReaderThreads, options: SearchOptions = { budgetMs: SEARCH_BUDGET_MS }): void {
  app.get('/api/search', async (request, reply) => {
    const parsed = searchQuerySchema.safeParse(request.query);
    if (!parsed.success) {
      return reply.code(400).send({ error: 'bad-request', message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
    }
    const query = parsed.data;
    const textQuery: TextQuery | null = query.q === '' ? null : { q: query.q, regex: query.regex === '1', matchCase: query.case === '1' };
    if (textQuery !== null) {
      const matcher = createTextMatcher(textQuery.q, { regex: textQuery.regex, matchCase: textQuery.matchCase });
      if ('error' in matcher) return reply.code(400).send({ error: 'bad-request', message: matcher.error });
    }
    const filters: SearchFilters = {
      side: query.side,
      outcome: query.outcome,
      refused: query.refused === '1',
      peer: query.peer,
      project: query.project,
      from: query.from,
      to: query.to,
    };

    const stop = stopWithClient(reply, options.budgetMs);
    try {
      const lists = await gatherCandidates(source, filters, stop.signal);
      const candidates = mergeNewestFirst(lists, (candidate) => candidate.facts.at);
      const hits: SearchHit[] = [];
      let scanned = 0;
      let truncated = false;
      await threads.search.use(stop.signal, async (ask) => {
        while (candidates.hasMore()) {
          const slice = candidates.take(SLICE_CANDIDATES);
          // A withheld text cannot match a text query: the record holds only its hash.
          const paths = slice.map((c) => (c.facts.withheld && textQuery !== null ? null : `${source.recordDir}${sep}${c.sessionId}${sep}${c.name}`));
          const found = await ask({ type: 'search', paths, query: textQuery, wanted: query.limit - hits.length });
          scanned += found.scanned;
          for (const hit of found.hits) hits.push(hitOf(source.ref, slice[hit.index]!, hit));
          if (hits.length === query.limit) {
            truncated = found.consumed < slice.length || candidates.hasMore();
            return;
          }
        }
      });
      return searchResponseSchema.parse({ schema: 'rec.search/2', hits, scanned, truncated });
    } catch (error) {
      if (error instanceof ThreadsBusy) {
        return reply
          .code(503)
          .header('retry-after', '2')
          .send({ error: 'busy', message: `too many searches at once (${error.running} running, ${error.waiting} waiting); try again when one has finished` });
      }
      if (error instanceof ThreadsClosed) return reply.code(503).send({ error: 'stopping', message: error.message });
      if (stop.timedOut()) {
        return reply.code(503).send({
          error: 'timeout',
          message: `the search took longer than ${options.budgetMs / 1000} s and was stopped; narrow it with filters, a project or a time range`,
        });
      }
      // Nobody is left to answer.
      if (stop.clientGone()) return reply.code(499).send();
      throw error;
    } finally {
      stop.dispose();
    }
  });
}

function hitOf(source: SourceRef, candidate: Candidate, found: { snippet: string | null; match: { start: number; end: number } | null; reason: string | null }): SearchHit {
  const { facts } = candidate;
  return {
    source: { kind: source.kind, id: source.id },
    sessionId: candidate.sessionId,
    file: candidate.name,
    at: facts.at,
    cwd: facts.cwd,
    side: facts.side,
    peerAs: facts.peerAs,
    peerSessionId: facts.peerSessionId,
    isQueued: facts.isQueued,
    reason: found.reason,
    outcome: facts.outcome,
    withheld: facts.withheld,
    snippet: found.snippet,
    match: found.match,
  };
}

/**
 * The message entries that pass the filters, per session, each session's newest first. The
 * index is gone through in slices: at 100,000 entries it is tens of milliseconds of work.
 */
async function gatherCandidates(source: RecordSource, filters: SearchFilters, signal: AbortSignal): Promise<Candidate[][]> {
  const lists: Candidate[][] = [];
  let sliceStart = performance.now();
  for (const sessionId of [...source.sessionIds()]) {
    const fold = source.fold(sessionId);
    if (fold === null) continue;
    const list: Candidate[] = [];
    for (const item of fold.items) {
      if (item.type !== 'file') continue;
      const facts = item.file.facts;
      if (facts?.kind !== 'message' || (item.file.evidence !== 'parsed' && item.file.evidence !== 'changed')) continue;
      if (passesFilters(facts, fold.cwd, filters)) list.push({ sessionId, name: item.file.name, facts });
    }
    if (list.length > 0) lists.push(orderNewestFirst(list, (candidate) => candidate.facts.at));
    if (performance.now() - sliceStart > GATHER_SLICE_MS) {
      await yieldToLoop();
      signal.throwIfAborted();
      sliceStart = performance.now();
    }
  }
  return lists;
}
