import { sep } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { SourceRef } from '../../shared/wire/common.ts';
import { recordSearchHitSchema, type RecordSearchHit } from '../../shared/wire/record.ts';
import type { KindSearchQuery } from '../../shared/wire/search.ts';
import { mergeNewestFirst, orderNewestFirst, passesFilters, type MessageFacts, type SearchFilters } from '../../shared/record/search.ts';
import type { RecordReader } from './recordReader.ts';
import type { TextQuery } from './readerThread.ts';
import { ThreadsBusy, ThreadsClosed, type ReaderThreads } from './readerThreads.ts';
import { SearchRefused, type SourceSearch } from '../sources/source.ts';

type Candidate = { sessionId: string; name: string; facts: MessageFacts };

/** Candidates handed to the search's thread at a time: a few milliseconds of reading. */
const SLICE_CANDIDATES = 500;
/** The event loop gathers candidates from the index for this long, then answers others. */
const GATHER_SLICE_MS = 8;

/**
 * Searches the record, newest entries first. Filters run on the index; texts are read from disk
 * only for what passes them, and reading stops at `limit` hits. The reading and matching run on a
 * reader thread, so that other requests and live notices go on meanwhile; the search stops when
 * `signal` aborts (its client went away, or its time is up).
 */
export async function searchRecord(source: RecordReader, threads: ReaderThreads, query: KindSearchQuery<'record'>, signal: AbortSignal): Promise<SourceSearch> {
  const textQuery: TextQuery | null = query.q === '' ? null : { q: query.q, regex: query.regex === '1', matchCase: query.case === '1' };
  const filters: SearchFilters = {
    side: query.side,
    outcome: query.outcome,
    refused: query.refused === '1',
    peer: query.peer,
    project: query.project,
    from: query.from,
    to: query.to,
  };
  const lists = await gatherCandidates(source, filters, signal);
  const candidates = mergeNewestFirst(lists, (candidate) => candidate.facts.at);
  const hits: SourceSearch['hits'] = [];
  let scanned = 0;
  let truncated = false;
  try {
    await threads.search.use(signal, async (ask) => {
      while (candidates.hasMore()) {
        const slice = candidates.take(SLICE_CANDIDATES);
        // A withheld text cannot match a text query: the record holds only its hash.
        const paths = slice.map((c) => (c.facts.withheld && textQuery !== null ? null : `${source.recordDir}${sep}${c.sessionId}${sep}${c.name}`));
        const found = await ask({ type: 'search', paths, query: textQuery, wanted: query.limit - hits.length });
        scanned += found.scanned;
        for (const hit of found.hits) {
          const candidate = slice[hit.index]!;
          hits.push({ at: candidate.facts.at, conversation: candidate.sessionId, hit: recordSearchHitSchema.parse(hitOf(source.ref, candidate, hit)) });
        }
        if (hits.length === query.limit) {
          truncated = found.consumed < slice.length || candidates.hasMore();
          return;
        }
      }
    });
  } catch (error) {
    if (error instanceof ThreadsBusy) {
      throw new SearchRefused('busy', `too many searches at once (${error.running} running, ${error.waiting} waiting); try again when one has finished`, 2);
    }
    if (error instanceof ThreadsClosed) throw new SearchRefused('stopping', error.message, null);
    throw error;
  }
  return { hits, scanned, truncated };
}

function hitOf(source: SourceRef, candidate: Candidate, found: { snippet: string | null; match: { start: number; end: number } | null; reason: string | null }): RecordSearchHit {
  const { facts } = candidate;
  return {
    source: { kind: 'record', id: source.id },
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
async function gatherCandidates(source: RecordReader, filters: SearchFilters, signal: AbortSignal): Promise<Candidate[][]> {
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
