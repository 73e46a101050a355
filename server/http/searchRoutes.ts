import type { FastifyReply } from 'fastify';
import { errorResponseSchema, type SourceKind, type SourceRef } from '../../shared/wire/common.ts';
import { mergeSorted } from '../../shared/mergeSorted.ts';
import { narrowSearchQuery, searchQuerySchema, searchResponseSchema, type KindSearchQuery, type SearchQuery, type SearchResponse, type StoppedEarly } from '../../shared/wire/search.ts';
import { describeBadSearchText } from '../search/searchText.ts';
import { readStatedSession } from '../sources/sessions.ts';
import { SearchRefused, type Source, type SourceSearch } from '../sources/source.ts';
import type { LoopTurns } from '../sources/loopTurns.ts';
import type { Admission } from './admission.ts';
import { sendInSteps } from './answerInSteps.ts';
import { BadRequest } from './errors.ts';
import { stopWithClient } from './stopWithClient.ts';
import type { ZodApp } from './zodApp.ts';

/**
 * `GET /api/search`: every source searches its own items (each knows which of them hold text
 * and how to read it again), newest first; the hits are merged newest first and cut at `limit`.
 * A source is asked the common filters and its own kind's; when a filter of another kind is
 * given, it is not asked. A search stops when its client goes away; when its time is up it
 * answers with what it found, and says so (server/search/searchPool.ts). It waits in the queue of
 * searches first, and is refused there when the queue is full.
 */
export function registerSearchRoutes(app: ZodApp, sources: readonly Source[], options: { searches: Admission; turns: LoopTurns }): void {
  app.get(
    '/api/search',
    { onRequest: options.searches.admit, schema: { querystring: searchQuerySchema, response: { 200: searchResponseSchema, 400: errorResponseSchema, 404: errorResponseSchema, 503: errorResponseSchema } } },
    async (request, reply) => {
      const found = await runSearch(request.query, reply, sources);
      if (found === null) return reply;
      // Its hits are made: the next search may have the thread while these are sent.
      options.searches.leave(request);
      return sendInSteps(reply, found, options.turns);
    },
  );
}

/**
 * Runs a search. When it cannot answer with hits (a refused search, a client gone), it has
 * answered the request itself and returns null; a query that cannot be run throws a BadRequest.
 */
export async function runSearch(query: SearchQuery, reply: FastifyReply, sources: readonly Source[]): Promise<SearchResponse | null> {
  const bad = await describeBadSearchText(query);
  if (bad !== null) throw new BadRequest(bad);
  // Every store chosen is asked, or said to be kept out, with why: a kind's own filter keeps the
  // other kinds' stores out here; a store's own reading of the query may keep it out too (sac's).
  const asked: { source: Source; query: KindSearchQuery<SourceKind> }[] = [];
  const keptOut: SearchResponse['keptOut'] = [];
  for (const source of sources) {
    if (query.source !== undefined && source.ref.id !== query.source) continue;
    const narrowed = narrowSearchQuery(query, source.ref.kind);
    if ('keptOut' in narrowed) keptOut.push({ source: refOf(source), why: narrowed.keptOut, filter: narrowed.filter });
    else asked.push({ source, query: narrowed.query });
  }

  const stop = stopWithClient(reply);
  try {
    const found = await Promise.all(asked.map(async ({ source, query: narrowed }) => withStatedSessions(source, await source.search(narrowed, stop.signal))));
    const merged = mergeSorted(
      found.map((one) => one.hits),
      (a, b) => a.at > b.at,
    );
    const hits = merged.take(query.limit);
    return {
      schema: 'rec.search/4',
      hits: hits.map((one) => one.hit),
      scanned: found.reduce((sum, one) => sum + one.scanned, 0),
      truncated: merged.hasMore() || found.some((one) => one.truncated),
      stoppedEarly: addStoppedEarly(found.map((one) => one.stoppedEarly)),
      keptOut: [...keptOut, ...found.flatMap((one, index) => (one.keptOut === undefined ? [] : [{ source: refOf(asked[index]!.source), why: one.keptOut }]))],
      notRead: found.flatMap((one, index) => (one.notRead === undefined || one.notRead === null ? [] : [{ source: refOf(asked[index]!.source), ...one.notRead }])),
    };
  } catch (error) {
    if (error instanceof SearchRefused) {
      if (error.retryAfterSeconds !== null) reply.header('retry-after', String(error.retryAfterSeconds));
      reply.code(503).send({ error: error.code, message: error.message });
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

/** A store as a search's answer names it. */
function refOf(source: Source): SourceRef {
  return { kind: source.ref.kind, id: source.ref.id };
}

/**
 * How far a search got when a store's time ran out: the texts searched and to search in the
 * stores that stopped (one that finished needed no more), and the longest any of them searched.
 */
function addStoppedEarly(stores: readonly (StoppedEarly | null)[]): StoppedEarly | null {
  const stopped = stores.filter((one) => one !== null);
  if (stopped.length === 0) return null;
  return {
    searched: stopped.reduce((sum, one) => sum + one.searched, 0),
    candidates: stopped.reduce((sum, one) => sum + one.candidates, 0),
    afterMs: Math.max(...stopped.map((one) => one.afterMs)),
  };
}

/** Every kind's hits alike say the session the conversation they open is, as its store states it. */
function withStatedSessions(source: Source, found: SourceSearch): Omit<SourceSearch, 'hits'> & { hits: { at: string; hit: SearchResponse['hits'][number] }[] } {
  const hits = found.hits.map(({ at, conversation, hit }) => ({ at, hit: { ...(hit as object), session: readStatedSession(source, conversation) } as SearchResponse['hits'][number] }));
  return { ...found, hits };
}
