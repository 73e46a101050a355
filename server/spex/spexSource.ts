import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, PAGE_TEXT_LIMIT_BYTES, decimalQuerySchema, type SearchQuery, type SourceRef, type SourceStatus } from '../../shared/api.ts';
import { createTextMatcher, snippetAround } from '../../shared/textMatch.ts';
import { describeReason } from '../../shared/spex/degraded.ts';
import { readSessionJson } from '../../shared/spex/sessionJson.ts';
import type { TimelineItem } from '../../shared/spex/segment.ts';
import { describeSender } from '../../shared/spex/sentBy.ts';
import { readLineView } from '../../shared/spex/view.ts';
import {
  spexItemResponseSchema,
  spexSearchHitSchema,
  spexSessionResponseSchema,
  spexSummarySchema,
  type SpexItem,
  type SpexSearchHit,
  type SpexSender,
  type SpexSummary,
} from '../../shared/wire/spex.ts';
import type { ListedConversation, Source, SourceNotice, SourceSearch } from '../sources/source.ts';
import { readRanges, readSmallFile } from './readLine.ts';
import { createSpexExport, describeSpexHit } from './spexExport.ts';
import { createSpexLiveItems } from './spexItems.ts';
import { createSpexReader, type SpexReader, type SpexSession } from './spexReader.ts';

// The projection of a spex home: the reader's folds said in the wire's words (shared/wire/spex.ts),
// hand-written, never spreading a core object. A session's page is its own log (declarations,
// messages received, what is not an event) with the `sent` lines of other logs whose `from` is its
// id merged in by time: one event seen from its sender's side, joined by the id spex stored.

const NOTICE_GATHER_MS = 5;
const REASON_LINES_SHOWN = 50;

type SpexSourceOptions = { root: string; onError?: (message: string) => void; reconcileIntervalMs?: number };

/** The home's id on the wire: stable for its absolute path, distinct for two homes. */
function spexSourceRef(root: string): SourceRef & { kind: 'spex' } {
  const digest = createHash('sha256').update(resolve(root)).digest('hex');
  return { kind: 'spex', id: `spex-${digest.slice(0, 8)}` };
}

/** An item of a session's page in its place: its own log's line, or a line of a receiver's log. */
export type PlacedItem = { own: true; line: number; item: TimelineItem; at: string | null } | { own: false; receiver: string; line: number; item: TimelineItem; at: string | null };

const pageQuery = z.object({
  offset: decimalQuerySchema(0, Number.MAX_SAFE_INTEGER).default(0),
  limit: decimalQuerySchema(1, MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
});

export function createSpexSource(options: SpexSourceOptions): Source {
  const ref = spexSourceRef(options.root);
  const listeners = new Set<(notice: SourceNotice) => void>();
  const pendingIds = new Set<string>();
  /** Sessions whose lines may be news for the live view: their own log changed, or they are gone. */
  const itemIds = new Set<string>();
  let flushTimer: NodeJS.Timeout | null = null;
  let statusVersion = 0;
  let changeVersion = 0;
  const summaries = new Map<string, { key: string; listed: ListedConversation; summary: SpexSummary }>();
  type Listed = { key: string; listed: ListedConversation; summary: SpexSummary };
  const placed = new Map<string, { key: string; items: PlacedItem[] }>();

  const publish = (notice: SourceNotice) => {
    for (const listener of listeners) listener(notice);
  };
  const flush = () => {
    flushTimer = null;
    const ids = [...pendingIds];
    pendingIds.clear();
    for (const id of ids) publish({ type: 'conversation-changed', id });
    const changedLogs = [...itemIds];
    itemIds.clear();
    for (const [id, items] of liveItems.collect(changedLogs)) publish({ type: 'items', id, items });
  };

  const reader: SpexReader = createSpexReader({
    root: options.root,
    ...(options.reconcileIntervalMs !== undefined ? { reconcileMs: options.reconcileIntervalMs } : {}),
    ...(options.onError !== undefined ? { onError: options.onError } : {}),
    onChanged(ids) {
      changeVersion++;
      // A `from` that names no session of this home changes nothing anyone lists.
      for (const id of ids) if (reader.session(id) !== null || summaries.has(id)) pendingIds.add(id);
      for (const id of ids) itemIds.add(id);
      for (const id of ids) if (reader.session(id) === null) summaries.delete(id);
      // A few milliseconds gather the pieces of one write, as the record's notices do.
      if (pendingIds.size > 0 || itemIds.size > 0) flushTimer ??= setTimeout(flush, NOTICE_GATHER_MS);
    },
    onStatus() {
      statusVersion++;
      publish({ type: 'source', source: status() });
    },
  });

  const liveItems = createSpexLiveItems(reader, ref.id);

  function status(): SourceStatus {
    const now = reader.status();
    return { ...ref, root: options.root, state: now.state, why: now.why, indexing: now.indexing };
  }

  function summaryKey(session: SpexSession): string {
    const sent = reader.sentBy(session.sessionId);
    const project = reader.project(session.projectFolder);
    return `${session.version}|${sent.count}|${sent.lastAt}|${project?.label}|${project?.source}`;
  }

  function listed(session: SpexSession): { listed: ListedConversation; summary: SpexSummary } {
    const key = summaryKey(session);
    const cached = summaries.get(session.sessionId);
    if (cached !== undefined && cached.key === key) return cached;
    const summary = spexSummarySchema.parse(projectSummary(session));
    const entry: Listed = {
      key,
      summary,
      listed: { id: session.sessionId, cwd: summary.project.key, lastAt: summary.lastAt, degraded: summary.degraded.length > 0, json: JSON.stringify(summary) },
    };
    summaries.set(session.sessionId, entry);
    return entry;
  }

  function projectSummary(session: SpexSession): SpexSummary {
    const { fold } = session;
    const meta = session.sessionJson?.state === 'known' ? session.sessionJson.meta : null;
    const project = reader.project(session.projectFolder);
    const sent = reader.sentBy(session.sessionId);
    const firstAt = fold.firstAt;
    let lastAt = fold.lastAt;
    if (sent.lastAt !== null && (lastAt === null || sent.lastAt > lastAt)) lastAt = sent.lastAt;
    const current = fold.current;
    return {
      source: ref,
      id: session.sessionId,
      sessionId: session.sessionId,
      cwd: project?.label ?? session.projectFolder,
      project: {
        key: project?.label ?? session.projectFolder,
        from: project?.source ?? 'encoded-name',
        encodedName: session.projectFolder,
      },
      worktreePath: meta?.worktree_path ?? null,
      title: meta?.title ?? null,
      name: meta?.name ?? null,
      branch: meta?.branch ?? null,
      parent: meta?.parent ?? null,
      current:
        current.state === 'known'
          ? { state: 'known', status: current.status, word: current.word, proposal: current.proposal, hasNote: current.hasNote, stopped: current.stopped, archived: current.archived }
          : { state: 'unknown', why: current.why },
      firstAt,
      lastAt,
      counts: {
        received: fold.counts.received,
        fromPerson: fold.counts.fromPerson,
        fromPeers: fold.counts.fromPeers,
        sent: sent.count,
        declarations: fold.counts.declarations,
        unknownKinds: fold.counts.unknownKinds,
        damaged: fold.counts.damaged,
        invalid: fold.counts.invalid,
        torn: fold.counts.torn,
        pending: fold.counts.pending,
        strays: fold.counts.strays,
      },
      segments: fold.segments.length,
      degraded: fold.degraded.map((reason) => ({
        code: reason.code,
        words: describeReason(reason),
        files: [...reason.files],
        lines: reason.lines.slice(0, REASON_LINES_SHOWN),
        linesTotal: reason.lines.length,
      })),
    };
  }

  /** The session's items in page order: its own log in file order, what it sent merged in by time. */
  function placeItems(session: SpexSession): PlacedItem[] {
    const sent = reader.sentBy(session.sessionId);
    const key = `${session.version}|${sent.version}`;
    const cached = placed.get(session.sessionId);
    if (cached !== undefined && cached.key === key) return cached.items;
    const lists: PlacedItem[][] = [withTimes(reader.items(session).map(({ line, item }) => ({ own: true, line, item, at: null })))];
    // Each receiver's lines, in its file order; receivers in the order the index first met them.
    const byReceiver = new Map<string, PlacedItem[]>();
    sent.receivers.forEach((receiver, index) => {
      const item = sent.items[index]!;
      if (reader.session(receiver) === null || item.evidence !== 'parsed') return;
      let list = byReceiver.get(receiver);
      if (list === undefined) byReceiver.set(receiver, (list = []));
      list.push({ own: false, receiver, line: sent.lines[index]!, item, at: item.facts.ts });
    });
    for (const list of byReceiver.values()) lists.push(list);
    const items = mergeByTime(lists);
    placed.set(session.sessionId, { key, items });
    return items;
  }

  function sessionIds(): ReadonlySet<string> {
    return { has: (id: string) => reader.session(id) !== null } as ReadonlySet<string>;
  }

  function senderOf(from: string | null): SpexSender {
    const sender = describeSender(from, sessionIds());
    return sender.by === 'person' ? { by: 'person' } : sender.by === 'session' ? { by: 'session', sessionId: sender.sessionId } : { by: 'other', as: sender.as };
  }

  function keyOf(placedItem: PlacedItem): string {
    return placedItem.own ? `line-${placedItem.line}` : `sent-${placedItem.line}-${placedItem.receiver}`;
  }

  /** Projects items, reading their lines again from disk; `limit` clips texts for a page. */
  function projectItems(session: SpexSession, items: readonly PlacedItem[], limit: number | null): SpexItem[] {
    const requests = items.map((placedItem) => {
      const owner = placedItem.own ? session.sessionId : placedItem.receiver;
      return { path: reader.segmentPath(owner, placedItem.item.segment) ?? '', start: placedItem.item.start, end: placedItem.item.end };
    });
    const reads = readRanges(requests, reader.root);
    return items.map((placedItem, index) => projectItem(placedItem, reads[index]!, limit));
  }

  function projectItem(placedItem: PlacedItem, read: ReturnType<typeof readRanges>[number], limit: number | null): SpexItem {
    const { item, line } = placedItem;
    const base = { source: ref, key: keyOf(placedItem), line, segment: item.segment, at: placedItem.at };
    const view = read.type === 'bytes' ? readLineView(read.bytes) : read.type === 'withheld' ? ({ view: 'withheld', why: read.why } as const) : null;
    const now = read.type === 'gone' ? read.why : view?.view === 'withheld' ? view.why : null;
    if (item.evidence !== 'parsed') {
      // A line still being written is not shown until it is one.
      const raw = item.evidence === 'pending' ? null : view?.view === 'raw' ? view.raw : view?.view === 'fields' && read.type === 'bytes' ? read.bytes.toString('utf8') : null;
      const clipped = raw === null ? null : clipText(raw, limit);
      return {
        type: 'evidence',
        ...base,
        at: placedItem.at,
        now: view?.view === 'withheld' ? null : now,
        evidence: item.evidence,
        why: view?.view === 'withheld' && item.evidence !== 'pending' ? `${item.why}; ${view.why}` : item.why,
        // The size of the line shown: without spex's receipt, when it held one.
        bytes: read.type === 'bytes' ? read.bytes.length : item.end - item.start,
        raw: clipped?.text ?? null,
        ...(clipped?.bytes !== undefined ? { rawClipped: { bytes: clipped.bytes } } : {}),
      };
    }
    const facts = item.facts;
    const fields = view?.view === 'fields' ? view : null;
    if (facts.kind === 'status') {
      const note = fields === null ? null : clipText(fields.note, limit);
      return {
        type: 'declaration',
        ...base,
        now: fields === null ? (now ?? 'the line no longer holds an event') : null,
        status: facts.status,
        word: facts.word,
        proposal: facts.proposal,
        note: note?.text ?? null,
        ...(note?.bytes !== undefined ? { noteClipped: { bytes: note.bytes } } : {}),
      };
    }
    if (facts.kind === 'sent') {
      const text = fields === null ? null : clipText(fields.text, limit);
      const hintAt = fields === null || text === null || fields.hintAt === null || fields.hintAt > (text.text ?? '').length ? null : fields.hintAt;
      const message = {
        ...base,
        now: fields === null ? (now ?? 'the line no longer holds an event') : null,
        mid: facts.mid,
        replyVia: facts.replyVia,
        text: text?.text ?? null,
        ...(text?.bytes !== undefined ? { textClipped: { bytes: text.bytes } } : {}),
        hintAt,
      };
      if (placedItem.own) return { type: 'received', ...message, from: senderOf(facts.from) };
      return { type: 'sent', ...message, receiver: placedItem.receiver, fromLog: 'receiver' };
    }
    const raw = read.type === 'bytes' && view?.view !== 'withheld' ? read.bytes.toString('utf8') : null;
    const clipped = raw === null ? null : clipText(raw, limit);
    return {
      type: 'unknown-kind',
      ...base,
      now,
      kindName: facts.kindName,
      raw: clipped?.text ?? null,
      ...(clipped?.bytes !== undefined ? { rawClipped: { bytes: clipped.bytes } } : {}),
    };
  }

  /** What session.json's note says now, clipped as on a page. */
  function currentNoteOf(id: string): string | null {
    const path = reader.sessionJsonPath(id);
    const sessionJson = path === null ? null : readSmallFile(path, reader.root, 1024 * 1024);
    const reading = sessionJson === null ? null : readSessionJson(sessionJson);
    const note = reading?.state === 'known' ? reading.meta.note : null;
    return note === null ? null : (clipText(note, PAGE_TEXT_LIMIT_BYTES).text ?? null);
  }

  const { answerExport } = createSpexExport({
    ref,
    reader,
    placeItems,
    projectItems,
    keyOf,
    summaryOf: (session) => {
      const { summary, listed: one } = listed(session);
      return { summary, json: one.json };
    },
    currentNoteOf,
  });

  function status404(reply: FastifyReply, what: string) {
    return reply.code(404).send({ error: 'not-found', message: what });
  }

  async function search(query: SearchQuery, signal: AbortSignal): Promise<SourceSearch> {
    // Outcomes and refusals are the record's words: no spex line has one.
    if (query.outcome !== undefined || query.refused !== undefined) return { hits: [], scanned: 0, truncated: false };
    // So are a set-agent-comm entry's type, room and writer.
    if (query.type !== undefined || query.room !== undefined || query.writer !== undefined) return { hits: [], scanned: 0, truncated: false };
    const matcher = query.q === '' ? null : createTextMatcher(query.q, { regex: query.regex === '1', matchCase: query.case === '1' });
    if (matcher !== null && 'error' in matcher) throw Object.assign(new Error(matcher.error), { statusCode: 400 });
    type Candidate = { sessionId: string; project: string; kind: 'received' | 'sent' | 'declaration'; at: string; owner: string; line: number; item: TimelineItem; from: string | null };
    const candidates: Candidate[] = [];
    const peer = query.peer?.toLowerCase();
    for (const session of reader.sessions()) {
      const project = listed(session).summary.project.key;
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
            candidates.push({ sessionId: sender.sessionId, project: listed(sender).summary.project.key, kind: 'sent', at: facts.ts, owner: session.sessionId, line, item, from: facts.from });
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
          key: candidate.kind === 'sent' ? `sent-${candidate.line}-${candidate.owner}` : `line-${candidate.line}`,
          at: candidate.at,
          project: candidate.project,
          kind: candidate.kind,
          from: candidate.kind === 'declaration' ? null : senderOf(candidate.from),
          receiver: candidate.kind === 'sent' ? candidate.owner : null,
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

  return {
    ref,
    status,
    strays: () => reader.strays(),
    version: () => `${changeVersion}.${statusVersion}`,
    conversations() {
      return [...reader.sessions()].map((session) => listed(session).listed);
    },
    conversation(id) {
      const session = reader.session(id);
      return session === null ? null : listed(session).listed;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async answerConversation(id, request: FastifyRequest, reply: FastifyReply) {
      const query = pageQuery.safeParse(request.query ?? {});
      if (!query.success) return reply.code(400).send({ error: 'bad-request', message: `offset must be a decimal number, 0 or more, and limit one from 1 to ${MAX_PAGE_LIMIT}` });
      const session = reader.session(id);
      if (session === null) return status404(reply, 'no such session in this spex home');
      const { offset, limit } = query.data;
      const items = placeItems(session);
      const onPage = items.slice(offset, offset + limit);
      return spexSessionResponseSchema.parse({
        schema: 'rec.spex-session/1',
        session: listed(session).summary,
        currentNote: currentNoteOf(id),
        page: { offset, limit, total: items.length },
        items: projectItems(session, onPage, PAGE_TEXT_LIMIT_BYTES),
        strays: session.strays.map((stray) => ({ name: stray.name, why: stray.why })),
      });
    },
    async answerItem(id, key, _request, reply) {
      const session = reader.session(id);
      if (session === null) return status404(reply, 'no such session in this spex home');
      const found = placeItems(session).find((placedItem) => keyOf(placedItem) === key);
      if (found === undefined) return status404(reply, 'no such item in this session');
      return spexItemResponseSchema.parse({ schema: 'rec.spex-item/1', source: ref, sessionId: id, item: projectItems(session, [found], null)[0] });
    },
    answerExport,
    search,
    describeSearchHit: (hit) => describeSpexHit(hit as SpexSearchHit),
    // Nothing of a spex page runs beside the event loop: there is no other work to stop.
    stopWork() {},
    async start() {
      await reader.start();
      liveItems.takeAllAsTold();
    },
    async close() {
      if (flushTimer !== null) clearTimeout(flushTimer);
      listeners.clear();
      await reader.close();
    },
  };
}

/** A line without a `ts` (damaged, torn) takes the time of the line before it, so it keeps its place. */
function withTimes(items: PlacedItem[]): PlacedItem[] {
  let last: string | null = null;
  for (const placedItem of items) {
    const { item } = placedItem;
    const ts = item.evidence === 'parsed' ? item.facts.ts : null;
    if (ts !== null) last = ts;
    placedItem.at = ts ?? last;
  }
  return items;
}

/**
 * Merges lists, each kept in its own order (a log's order is its file order, never re-sorted), by
 * taking the earliest head; a tie goes to the earlier list, the session's own log first.
 */
function mergeByTime(lists: PlacedItem[][]): PlacedItem[] {
  if (lists.length === 1) return lists[0]!;
  const positions = lists.map(() => 0);
  const out: PlacedItem[] = [];
  for (;;) {
    let best = -1;
    for (let list = 0; list < lists.length; list++) {
      const head = lists[list]![positions[list]!];
      if (head === undefined) continue;
      if (best === -1) best = list;
      else {
        const current = lists[best]![positions[best]!]!;
        if ((head.at ?? '') < (current.at ?? '')) best = list;
      }
    }
    if (best === -1) return out;
    out.push(lists[best]![positions[best]!]!);
    positions[best]!++;
  }
}

const encoder = new TextEncoder();

/** Cuts a text to `limit` bytes of UTF-8 at a character boundary; says its full size when cut. */
function clipText(text: string | null, limit: number | null): { text: string | null; bytes?: number } {
  if (text === null || limit === null || text.length * 3 <= limit) return { text };
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= limit) return { text };
  const { read } = encoder.encodeInto(text, new Uint8Array(limit));
  return { text: text.slice(0, read), bytes };
}
