import { sep } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { SnippetCut, SourceRef } from '../../shared/wire/common.ts';
import { recordSearchHitSchema, type RecordSearchHit } from '../../shared/wire/record.ts';
import type { KindSearchQuery } from '../../shared/wire/search.ts';
import { mergeNewestFirst, orderNewestFirst } from '../../shared/mergeSorted.ts';
import { isFolderNotSearched, passesFilters, RECORD_NOT_READ, whyNotSearched, type MessageFacts, type SearchFilters } from '../../shared/record/search.ts';
import { NotReadTally } from '../../shared/searchNotRead.ts';
import { timeWindowOf } from '../../shared/timeWindow.ts';
import type { RecordReader } from './recordReader.ts';
import type { SearchPool } from '../search/searchPool.ts';
import { threadScript } from '../search/threadLane.ts';
import type { TextQuery } from '../search/searchThread.ts';
import type { SourceSearch } from '../sources/source.ts';

type Candidate = { sessionId: string; name: string; facts: MessageFacts };

/** The module a search thread reads and matches the record's candidates with. */
const RECORD_SEARCHER = threadScript('recordTexts', import.meta.url);
/** The event loop gathers candidates from the index for this long, then answers others. */
const GATHER_SLICE_MS = 8;

/**
 * Searches the record, newest entries first. Filters run on the index; texts are read from disk
 * only for what passes them, and reading stops at `limit` hits. The reading and matching run on a
 * search thread (server/search/searchPool.ts), so that other requests and live notices go on
 * meanwhile; the search stops when `signal` aborts (its client went away, or its time is up).
 */
export async function searchRecord(source: RecordReader, pool: SearchPool, query: KindSearchQuery<'record'>, signal: AbortSignal): Promise<SourceSearch> {
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
  const notRead = new NotReadTally(RECORD_NOT_READ);
  const lists = await gatherCandidates(source, filters, textQuery !== null, notRead, signal);
  const candidates = mergeNewestFirst(lists, (candidate) => candidate.facts.at);
  // A withheld text cannot match a text query: the record holds only its hash.
  const pathOf = (candidate: Candidate) => (candidate.facts.withheld && textQuery !== null ? null : `${source.recordDir}${sep}${candidate.sessionId}${sep}${candidate.name}`);
  const found = await pool.search(RECORD_SEARCHER, candidates, pathOf, textQuery, query.limit, signal);
  const hits = found.hits.map(({ candidate, found: hit }) => ({
    at: candidate.facts.at,
    conversation: candidate.sessionId,
    hit: recordSearchHitSchema.parse(hitOf(source.ref, candidate, { ...hit, reason: (hit.extra as string | null | undefined) ?? null })),
  }));
  return { hits, scanned: found.scanned, truncated: found.truncated, stoppedEarly: found.stoppedEarly, notRead: notRead.say() };
}

function hitOf(source: SourceRef, candidate: Candidate, found: { snippet: string | null; match: { start: number; end: number } | null; cut: SnippetCut; reason: string | null }): RecordSearchHit {
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
    snippetCut: found.cut,
  };
}

/**
 * The message entries that pass the filters, per session, each session's newest first; the files
 * the filters may select that cannot be read are counted in `notRead`. The index is gone through
 * in slices: at 100,000 entries it is tens of milliseconds of work.
 */
async function gatherCandidates(source: RecordReader, filters: SearchFilters, byText: boolean, notRead: NotReadTally<keyof typeof RECORD_NOT_READ>, signal: AbortSignal): Promise<Candidate[][]> {
  const lists: Candidate[][] = [];
  // The window read once, for every entry of every session.
  const inWindow = timeWindowOf(filters);
  let sliceStart = performance.now();
  for (const sessionId of [...source.sessionIds()]) {
    const fold = source.fold(sessionId);
    if (fold === null) continue;
    const list: Candidate[] = [];
    if (isFolderNotSearched(fold.degraded.some((reason) => reason.folder !== undefined), fold, filters)) notRead.add('folder');
    for (const item of fold.items) {
      if (item.type !== 'file') continue;
      const facts = item.file.facts;
      if (item.file.evidence !== 'parsed' && item.file.evidence !== 'changed') {
        const why = whyNotSearched(item.file, fold, filters, byText, inWindow);
        if (why !== null) notRead.add(why);
        continue;
      }
      if (facts?.kind !== 'message') continue;
      if (passesFilters(facts, fold.cwd, filters, inWindow)) list.push({ sessionId, name: item.file.name, facts });
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
