import type { FastifyReply } from 'fastify';
import { errorResponseSchema } from '../../shared/wire/common.ts';
import { mergeSorted } from '../../shared/mergeSorted.ts';
import { narrowSearchQuery, searchQuerySchema, searchResponseSchema, type SearchQuery, type SearchResponse } from '../../shared/wire/search.ts';
import { describeBadSearchText } from '../search/searchText.ts';
import { readStatedSession } from '../sources/sessions.ts';
import { SearchRefused, type Source, type SourceSearch } from '../sources/source.ts';
import type { Admission } from './admission.ts';
import { BadRequest } from './errors.ts';
import { stopWithClient } from './stopWithClient.ts';
import type { ZodApp } from './zodApp.ts';

export const SEARCH_BUDGET_MS = 60_000;

export type SearchOptions = {
  /** A search still running after this long is stopped and answered with a 503. */
  budgetMs: number;
};

/**
 * `GET /api/search`: every source searches its own items (each knows which of them hold text
 * and how to read it again), newest first; the hits are merged newest first and cut at `limit`.
 * A source is asked the common filters and its own kind's; when a filter of another kind is
 * given, it is not asked. A search stops when its client goes away or its time is up. It waits
 * in the queue of searches first, and is refused there when the queue is full.
 */
export function registerSearchRoutes(app: ZodApp, sources: readonly Source[], options: SearchOptions & { searches: Admission }): void {
  app.get(
    '/api/search',
    { onRequest: options.searches.admit, schema: { querystring: searchQuerySchema, response: { 200: searchResponseSchema, 400: errorResponseSchema, 404: errorResponseSchema, 503: errorResponseSchema } } },
    async (request, reply) => (await runSearch(request.query, reply, sources, options)) ?? reply,
  );
}

/**
 * Runs a search. When it cannot answer with hits (a refused or timed-out search, a client gone),
 * it has answered the request itself and returns null; a query that cannot be run throws a BadRequest.
 */
export async function runSearch(query: SearchQuery, reply: FastifyReply, sources: readonly Source[], options: SearchOptions): Promise<SearchResponse | null> {
  const bad = await describeBadSearchText(query);
  if (bad !== null) throw new BadRequest(bad);
  const asked = sources.flatMap((source) => {
    if (query.source !== undefined && source.ref.id !== query.source) return [];
    const narrowed = narrowSearchQuery(query, source.ref.kind);
    return narrowed === null ? [] : [{ source, query: narrowed }];
  });

  const stop = stopWithClient(reply, options.budgetMs);
  try {
    const found = await Promise.all(asked.map(async ({ source, query: narrowed }) => withStatedSessions(source, await source.search(narrowed, stop.signal))));
    const merged = mergeSorted(
      found.map((one) => one.hits),
      (a, b) => a.at > b.at,
    );
    const hits = merged.take(query.limit);
    return {
      schema: 'rec.search/3',
      hits: hits.map((one) => one.hit),
      scanned: found.reduce((sum, one) => sum + one.scanned, 0),
      truncated: merged.hasMore() || found.some((one) => one.truncated),
    };
  } catch (error) {
    if (error instanceof SearchRefused) {
      if (error.retryAfterSeconds !== null) reply.header('retry-after', String(error.retryAfterSeconds));
      reply.code(503).send({ error: error.code, message: error.message });
      return null;
    }
    if (stop.timedOut()) {
      reply.code(503).send({
        error: 'timeout',
        message: `the search took longer than ${options.budgetMs / 1000} s and was stopped; narrow it with filters, a project or a time range`,
      });
      return null;
    }
    // Nobody is left to answer.
    if (stop.clientGone()) {
      reply.code(499).send();
      return null;
    }
    throw error;
  } finally {
    stop.dispose();
  }
}

/** Every kind's hits alike say the session the conversation they open is, as its store states it. */
function withStatedSessions(source: Source, found: SourceSearch): { hits: { at: string; hit: SearchResponse['hits'][number] }[]; scanned: number; truncated: boolean } {
  const hits = found.hits.map(({ at, conversation, hit }) => ({ at, hit: { ...(hit as object), session: readStatedSession(source, conversation) } as SearchResponse['hits'][number] }));
  return { ...found, hits };
}
