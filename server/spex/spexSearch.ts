import type { SourceRef } from '../../shared/wire/common.ts';
import type { KindSearchQuery } from '../../shared/wire/search.ts';
import { spexSearchHitSchema, type SpexSearchHit } from '../../shared/wire/spex.ts';
import type { TimelineItem } from '../../shared/spex/segment.ts';
import { readLineView } from '../../shared/spex/view.ts';
import { createTextMatcher, snippetAround } from '../../shared/textMatch.ts';
import type { SourceSearch } from '../sources/source.ts';
import { readRanges } from './readLine.ts';
import type { SpexProjection } from './spexProjection.ts';
import type { SpexReader } from './spexReader.ts';

/**
 * Searches a spex home's messages and declarations' notes, newest first: filters on what the
 * index holds, then each candidate's line read again for its text. A message is found from both
 * its sides: received in its receiver's log, and sent, from that log, when its sender is a
 * session of this home.
 */
export async function searchSpex(reader: SpexReader, projection: SpexProjection, ref: SourceRef & { kind: 'spex' }, query: KindSearchQuery<'spex'>, signal: AbortSignal): Promise<SourceSearch> {
  const matcher = query.q === '' ? null : createTextMatcher(query.q, { regex: query.regex === '1', matchCase: query.case === '1' });
  if (matcher !== null && 'error' in matcher) throw new Error(matcher.error);
  type Candidate = { sessionId: string; project: string; kind: 'received' | 'sent' | 'declaration'; at: string; owner: string; line: number; item: TimelineItem; from: string | null };
  const candidates: Candidate[] = [];
  const peer = query.peer?.toLowerCase();
  for (const session of reader.sessions()) {
    const project = projection.listed(session).summary.project.key;
    for (const { line, item } of reader.items(session)) {
      if (item.evidence !== 'parsed') continue;
      const facts = item.facts;
      if (facts.kind === 'status') {
        if (!facts.hasNote || query.side !== undefined || query.person !== undefined || peer !== undefined) continue;
        candidates.push({ sessionId: session.sessionId, project, kind: 'declaration', at: facts.ts, owner: session.sessionId, line, item, from: null });
        continue;
      }
      if (facts.kind !== 'sent') continue;
      const fromPerson = facts.from === null;
      if (query.person === '1' && !fromPerson) continue;
      if (query.side !== 'sent' && (peer === undefined || (facts.from ?? '').toLowerCase().includes(peer))) {
        candidates.push({ sessionId: session.sessionId, project, kind: 'received', at: facts.ts, owner: session.sessionId, line, item, from: facts.from });
      }
      // The same line from its sender's side, when the sender is a session of this home.
      if (query.side !== 'received' && query.person === undefined && facts.from !== null && facts.from !== session.sessionId) {
        const sender = reader.session(facts.from);
        if (sender !== null && (peer === undefined || session.sessionId.toLowerCase().includes(peer))) {
          candidates.push({ sessionId: sender.sessionId, project: projection.listed(sender).summary.project.key, kind: 'sent', at: facts.ts, owner: session.sessionId, line, item, from: facts.from });
        }
      }
    }
  }
  const inRange = candidates.filter(
    (candidate) => (query.project === undefined || candidate.project === query.project) && (query.from === undefined || candidate.at >= query.from) && (query.to === undefined || candidate.at <= query.to),
  );
  inRange.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const hits: SourceSearch['hits'] = [];
  let scanned = 0;
  let truncated = false;
  for (let at = 0; at < inRange.length; at += 200) {
    if (signal.aborted) break;
    const slice = inRange.slice(at, at + 200);
    const reads = readRanges(slice.map((candidate) => ({ path: reader.segmentPath(candidate.owner, candidate.item.segment) ?? '', start: candidate.item.start, end: candidate.item.end })), reader.root);
    for (let index = 0; index < slice.length; index++) {
      const candidate = slice[index]!;
      const read = reads[index]!;
      if (read.type !== 'bytes') continue;
      scanned++;
      const view = readLineView(read.bytes);
      if (view.view !== 'fields') continue;
      const text = candidate.kind === 'declaration' ? view.note : view.text;
      if (text === null) continue;
      const match = matcher === null ? null : matcher(text);
      if (matcher !== null && match === null) continue;
      if (hits.length >= query.limit) {
        truncated = true;
        break;
      }
      const { snippet, match: inSnippet } = snippetAround(text, match);
      const hit: SpexSearchHit = {
        source: ref,
        sessionId: candidate.sessionId,
        sessionNamed: projection.namedOf(candidate.sessionId),
        key: candidate.kind === 'sent' ? `sent-${candidate.line}-${candidate.owner}` : `line-${candidate.line}`,
        at: candidate.at,
        project: candidate.project,
        kind: candidate.kind,
        from: candidate.kind === 'declaration' ? null : projection.senderOf(candidate.from),
        receiver: candidate.kind === 'sent' ? candidate.owner : null,
        receiverNamed: candidate.kind === 'sent' ? projection.namedOf(candidate.owner) : null,
        snippet,
        match: inSnippet,
      };
      hits.push({ at: candidate.at, hit: spexSearchHitSchema.parse(hit) });
    }
    if (truncated) break;
    // Other requests go on between slices of a long search.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { hits, scanned, truncated };
}
