import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { searchQuerySchema, searchResponseSchema, type SearchResponse } from '../../shared/api.ts';
import { mergeSorted } from '../../shared/mergeSorted.ts';
import { createTextMatcher } from '../../shared/textMatch.ts';
import { SearchRefused, type Source } from '../sources/source.ts';
import { stopWithClient } from './stopWithClient.ts';

export const SEARCH_BUDGET_MS = 60_000;

export type SearchOptions = {
  /** A search still running after this long is stopped and answered with a 503. */
  budgetMs: number;
};

/**
 * `GET /api/search`: every source searches its own items (each knows which of them hold text
 * and how to read it again), newest first; the hits are merged newest first and cut at `limit`.
 * A search stops when its client goes away or its time is up.
 */
export function registerSearchRoutes(app: FastifyInstance, sources: readonly Source[], options: SearchOptions = { budgetMs: SEARCH_BUDGET_MS }): void {
  app.get('/api/search', async (request, reply) => (await runSearch(request, reply, sources, options)) ?? reply);
}

/**
 * Runs the search a request asks for. When it cannot answer with hits (a bad query, a refused or
 * timed-out search, a client gone), it has answered the request itself and returns null.
 */
export async function runSearch(request: FastifyRequest, reply: FastifyReply, sources: readonly Source[], options: SearchOptions): Promise<SearchResponse | null> {
  const parsed = searchQuerySchema.safeParse(request.query);
  if (!parsed.success) {
    reply.code(400).send({ error: 'bad-request', message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
    return null;
  }
  const query = parsed.data;
  if (query.q !== '') {
    const matcher = createTextMatcher(query.q, { regex: query.regex === '1', matchCase: query.case === '1' });
    if ('error' in matcher) {
      reply.code(400).send({ error: 'bad-request', message: matcher.error });
      return null;
    }
  }
  const asked = (request.query as Record<string, unknown>)['source'];
  const searched = sources.filter((source) => asked === undefined || source.ref.id === asked);

  const stop = stopWithClient(reply, options.budgetMs);
  try {
    const found = await Promise.all(searched.map((source) => source.search(query, stop.signal)));
    const merged = mergeSorted(
      found.map((one) => one.hits),
      (a, b) => a.at > b.at,
    );
    const hits = merged.take(query.limit);
    return searchResponseSchema.parse({
      schema: 'rec.search/2',
      hits: hits.map((one) => one.hit),
      scanned: found.reduce((sum, one) => sum + one.scanned, 0),
      truncated: merged.hasMore() || found.some((one) => one.truncated),
    });
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
