import type { SourceRef } from '../../shared/wire/common.ts';
import type { KindSearchQuery } from '../../shared/wire/search.ts';
import { spexSearchHitSchema, type SpexSearchHit } from '../../shared/wire/spex.ts';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { TimelineItem } from '../../shared/spex/segment.ts';
import { mergeNewestFirst, orderNewestFirst } from '../../shared/mergeSorted.ts';
import type { SearchPool } from '../search/searchPool.ts';
import { threadScript } from '../search/threadLane.ts';
import type { SourceSearch } from '../sources/source.ts';
import { describeSessionNamed } from '../../shared/spex/sessionJson.ts';
import type { SpexProjection } from './spexProjection.ts';
import type { SpexReader, SpexSession } from './spexReader.ts';
import type { SpexCandidate } from './spexTexts.ts';
import { lineAddress, ownLineKey, sentLineKey } from '../../shared/spex/itemKey.ts';
import { timeSpanWindowOf, timeWindowOf } from '../../shared/timeWindow.ts';
import { findsPerson } from '../../shared/peerMatch.ts';
import { countUnknownSenders } from '../../shared/spex/sentUnknown.ts';
import { readInstantOf } from '../../shared/spex/columns.ts';
import { NotReadTally } from '../../shared/searchNotRead.ts';

/** The module a search thread reads and matches spex's candidates with. */
const SPEX_SEARCHER = threadScript('spexTexts', import.meta.url);
/** The event loop gathers candidates from the index for this long, then answers others. */
const GATHER_SLICE_MS = 8;

/** Why a search for sent entries from a person reads no spex line, said beside its results. */
const PERSON_SENT_KEPT_OUT = 'spex.person asks for what a person wrote (a `from: null` line), which a session only receives: no sent entry is one';

/** spex's words for the lines a search does not read (shared/searchNotRead.ts). */
const SPEX_NOT_READ = {
  lines: { one: 'damaged, torn or invalid line', many: 'damaged, torn or invalid lines' },
  segments: { one: 'unreadable segment', many: 'unreadable segments' },
} as const;

/**
 * Searches a spex home's messages and declarations' notes, newest first: filters on what the
 * index holds, then each candidate's line read again for its text. A message is found from both
 * its sides: received in its receiver's log, and sent, from that log, when its sender is a
 * session of this home. The lines are read and matched on a search thread (server/search/).
 */
export async function searchSpex(reader: SpexReader, projection: SpexProjection, pool: SearchPool, ref: SourceRef & { kind: 'spex' }, query: KindSearchQuery<'spex'>, signal: AbortSignal): Promise<SourceSearch> {
  // What a person wrote is in its receiver's log only: asked for as sent, none of it can match.
  if (query.person === '1' && query.side === 'sent') return { hits: [], scanned: 0, truncated: false, stoppedEarly: null, keptOut: PERSON_SENT_KEPT_OUT };
  const textQuery = query.q === '' ? null : { q: query.q, regex: query.regex === '1', matchCase: query.case === '1' };
  type Candidate = { sessionId: string; project: string; kind: 'received' | 'sent' | 'declaration'; at: string; owner: string; line: number; item: TimelineItem; from: string | null };
  // One list a log, in the log's order, and the lists merged newest first as the thread asks for
  // them: a search that finds its hits among the newest lines orders no more than it reads (a
  // sort of a million lines' candidates held the event loop for seconds before the first read).
  const lists: Candidate[][] = [];
  const peer = query.peer?.toLowerCase();
  // A session of this home is found by a part of its id, or of its title and branch as its
  // session.json gives them (the words the live view and a session's page show beside the id).
  const namedWords = new Map<string, string>();
  const isPeer = (sessionId: string) => {
    if (peer === undefined || sessionId.toLowerCase().includes(peer)) return true;
    let words = namedWords.get(sessionId);
    if (words === undefined) namedWords.set(sessionId, (words = (describeSessionNamed(projection.namedOf(sessionId)) ?? '').toLowerCase()));
    return words.includes(peer);
  };
  const inWindow = timeWindowOf(query);
  const inSpan = timeSpanWindowOf(query);
  const inRange = (candidate: Candidate) => (query.project === undefined || candidate.project === query.project) && (inWindow === null || inWindow(Date.parse(candidate.at)));
  // A session's project, looked up once a search: the same senders write to many logs.
  const projects = new Map<SpexSession, string>();
  const projectOf = (session: SpexSession) => {
    let project = projects.get(session);
    if (project === undefined) projects.set(session, (project = projection.listed(session).summary.project.key));
    return project;
  };
  // A line not read names no sender and no time, and its log's owner is its receiver: it is
  // counted in every log whose lines the filters may select. Seen as received (or as a
  // declaration), it is in its owner's project; seen as sent, in its sender's, which may be any
  // session of the home's in the project asked for, to an owner the peer filter takes.
  const notRead = new NotReadTally(SPEX_NOT_READ);
  const receivedOnly = query.side === 'received' || query.person === '1';
  let homeHasProject: boolean | undefined;
  const mayHoldLines = (session: SpexSession, project: string) => {
    if (query.side !== 'sent' && (query.project === undefined || project === query.project)) return true;
    if (receivedOnly || !isPeer(session.sessionId)) return false;
    homeHasProject ??= query.project === undefined || [...reader.sessions()].some((one) => projectOf(one) === query.project);
    return homeHasProject;
  };
  let sliceStart = performance.now();
  for (const session of reader.sessions()) {
    if (performance.now() - sliceStart > GATHER_SLICE_MS) {
      await yieldToLoop();
      signal.throwIfAborted();
      sliceStart = performance.now();
    }
    const project = projectOf(session);
    const counting = mayHoldLines(session, project);
    const placing = counting && inSpan !== null;
    if (counting) notRead.add('segments', countUnknownSenders(session.fold.degraded).segments);
    // A line not read lies, as its page places it, between the events around it: counted when that
    // span meets the window (a log is in event order, its times almost always too).
    let before = -Infinity;
    let waiting = 0;
    // Between its neighbours whichever way their times run: writers' clocks may disagree.
    const settle = (after: number) => {
      if (waiting > 0 && (inSpan === null || inSpan(Math.min(before, after), Math.max(before, after)))) notRead.add('lines', waiting);
      waiting = 0;
    };
    const list: Candidate[] = [];
    const add = (candidate: Candidate) => {
      if (inRange(candidate)) list.push(candidate);
    };
    for (const { line, item } of reader.items(session)) {
      if (item.evidence !== 'parsed') {
        if (counting && item.evidence !== 'pending') waiting++;
        continue;
      }
      const facts = item.facts;
      // Times are read only where a window asks for them: without one, every line not read counts
      // (settled at the log's end). A time only as spex writes it: a kept time in another form
      // tells nothing here, and the span stretches past it.
      if (placing) {
        const at = facts.ts === null ? Number.NaN : readInstantOf(facts.ts);
        if (!Number.isNaN(at)) {
          settle(at);
          before = at;
        }
      }
      if (facts.kind === 'status') {
        if (!facts.hasNote || query.side !== undefined || query.person !== undefined || peer !== undefined) continue;
        add({ sessionId: session.sessionId, project, kind: 'declaration', at: facts.ts, owner: session.sessionId, line, item, from: null });
        continue;
      }
      if (facts.kind !== 'sent') continue;
      const fromPerson = facts.from === null;
      if (query.person === '1' && !fromPerson) continue;
      // A person is no peer, and a peer filter finds what one wrote by its row's words (shared/peerMatch.ts).
      if (query.side !== 'sent' && (peer === undefined || (facts.from === null ? findsPerson(peer) : isPeer(facts.from)))) {
        add({ sessionId: session.sessionId, project, kind: 'received', at: facts.ts, owner: session.sessionId, line, item, from: facts.from });
      }
      // The same line from its sender's side, when the sender is a session of this home.
      if (query.side !== 'received' && query.person === undefined && facts.from !== null && facts.from !== session.sessionId) {
        const sender = reader.session(facts.from);
        if (sender !== null && isPeer(session.sessionId)) {
          add({ sessionId: sender.sessionId, project: projectOf(sender), kind: 'sent', at: facts.ts, owner: session.sessionId, line, item, from: facts.from });
        }
      }
    }
    settle(Infinity);
    // A log is in event order, its times almost always too; equal times keep the log's order.
    if (list.length > 0) lists.push(orderNewestFirst(list, (candidate) => candidate.at));
  }
  const candidates = mergeNewestFirst(lists, (candidate) => candidate.at);
  const toThread = (candidate: Candidate): SpexCandidate => ({
    root: reader.root,
    path: reader.segmentPath(candidate.owner, candidate.item.segment) ?? '',
    start: candidate.item.start,
    end: candidate.item.end,
    note: candidate.kind === 'declaration',
  });
  const found = await pool.search(SPEX_SEARCHER, candidates, toThread, textQuery, query.limit, signal);
  const hits = found.hits.map(({ candidate, found: { snippet, match, cut } }) => {
    const hit: SpexSearchHit = {
      source: ref,
      sessionId: candidate.sessionId,
      sessionNamed: projection.namedOf(candidate.sessionId),
      key: candidate.kind === 'sent' ? sentLineKey(candidate.line, candidate.owner) : ownLineKey(candidate.line),
      at: candidate.at,
      project: candidate.project,
      kind: candidate.kind,
      from: candidate.kind === 'declaration' ? null : projection.senderOf(candidate.from),
      // The log that holds the line is its receiver's, whichever side the hit is seen from.
      twoSides: candidate.kind !== 'declaration' && projection.twoSidesOf(candidate.owner, candidate.from),
      receiver: candidate.kind === 'sent' ? candidate.owner : null,
      line: lineAddress(candidate.owner, candidate.line),
      receiverNamed: candidate.kind === 'sent' ? projection.namedOf(candidate.owner) : null,
      snippet,
      match,
      snippetCut: cut,
    };
    return { at: candidate.at, conversation: candidate.sessionId, hit: spexSearchHitSchema.parse(hit) };
  });
  return { hits, scanned: found.scanned, truncated: found.truncated, stoppedEarly: found.stoppedEarly, notRead: notRead.say() };
}
