import type { FastifyInstance } from 'fastify';
import { searchQuerySchema, searchResponseSchema, type SearchHit } from '../../shared/api.ts';
import { createTextMatcher, passesFilters, snippetAround, type MessageFacts } from '../../shared/record/search.ts';
import type { RecordSource } from '../record/recordSource.ts';

type Candidate = { sessionId: string; name: string; facts: MessageFacts; cwd: string | null };

/**
 * Search across sessions, newest entries first. Filters run on the index; texts are read from
 * disk only for what passes them, and reading stops at `limit` hits.
 */
export function registerSearchRoutes(app: FastifyInstance, source: RecordSource): void {
  app.get('/api/search', async (request, reply) => {
    const parsed = searchQuerySchema.safeParse(request.query);
    if (!parsed.success) {
      return reply.code(400).send({ error: 'bad-request', message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
    }
    const query = parsed.data;
    const matcher = query.q === '' ? null : createTextMatcher(query.q, { regex: query.regex === '1', matchCase: query.case === '1' });
    if (matcher !== null && 'error' in matcher) return reply.code(400).send({ error: 'bad-request', message: matcher.error });
    const filters = {
      side: query.side,
      outcome: query.outcome,
      refused: query.refused === '1',
      peer: query.peer,
      project: query.project,
      from: query.from,
      to: query.to,
    };

    const candidates: Candidate[] = [];
    for (const sessionId of source.sessionIds()) {
      const fold = source.fold(sessionId);
      if (fold === null) continue;
      for (const item of fold.items) {
        if (item.type !== 'file') continue;
        const facts = item.fact.facts;
        if (facts?.kind !== 'message' || (item.fact.evidence !== 'parsed' && item.fact.evidence !== 'changed')) continue;
        if (passesFilters(facts, fold.cwd, filters)) candidates.push({ sessionId, name: item.fact.name, facts, cwd: fold.cwd });
      }
    }
    candidates.sort((a, b) => (a.facts.at < b.facts.at ? 1 : a.facts.at > b.facts.at ? -1 : 0));

    const hits: SearchHit[] = [];
    let scanned = 0;
    let truncated = false;
    for (const candidate of candidates) {
      if (hits.length === query.limit) {
        truncated = true;
        break;
      }
      const { facts } = candidate;
      // A withheld text cannot match a text query: the record holds only its hash.
      if (facts.withheld && matcher !== null) continue;
      const reading = source.readNow(candidate.sessionId, candidate.name).reading;
      scanned++;
      const value = reading?.outcome === 'entry' ? reading.value : null;
      const text = value?.['text'];
      let snippet: string | null = null;
      let match: { start: number; end: number } | null = null;
      if (typeof text === 'string') {
        const found = matcher === null ? null : matcher(text);
        if (matcher !== null && found === null) continue;
        ({ snippet, match } = snippetAround(text, found));
      } else if (matcher !== null) {
        continue;
      }
      const reason = value?.['reason'];
      hits.push({
        sessionId: candidate.sessionId,
        file: candidate.name,
        at: facts.at,
        cwd: facts.cwd,
        side: facts.side,
        peerAs: facts.peerAs,
        peerSessionId: facts.peerSessionId,
        isQueued: facts.isQueued,
        reason: typeof reason === 'string' ? reason : null,
        outcome: facts.outcome,
        withheld: facts.withheld,
        snippet,
        match,
      });
    }
    return searchResponseSchema.parse({ schema: 'rec.search/1', hits, scanned, truncated });
  });
}
