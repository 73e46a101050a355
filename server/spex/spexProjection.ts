import { PAGE_TEXT_LIMIT_BYTES, type SourceRef } from '../../shared/wire/common.ts';
import { describeReason } from '../../shared/spex/degraded.ts';
import { nameSession, readSessionJson } from '../../shared/spex/sessionJson.ts';
import type { TimelineItem } from '../../shared/spex/segment.ts';
import { describeSender, isSeenFromTwoSides } from '../../shared/spex/sentBy.ts';
import { describeSentUnknown, type SentUnknown } from '../../shared/spex/sentUnknown.ts';
import { readLineHeadView, readLineView } from '../../shared/spex/view.ts';
import { spexSummarySchema, type SpexItem, type SpexNamed, type SpexSender, type SpexSummary } from '../../shared/wire/spex.ts';
import { LARGE_HEAD_READ_BYTES, LARGE_TEXT_BYTES, markLargeText } from '../export/largeText.ts';
import type { ListedConversation } from '../sources/source.ts';
import { readRanges, readSmallFile } from './readLine.ts';
import type { SpexReader, SpexSession } from './spexReader.ts';
import { ownLineKey, sentLineKey } from '../../shared/spex/itemKey.ts';

// The projection of a spex home: the reader's folds said in the wire's words (shared/wire/spex.ts),
// hand-written, never spreading a core object. A session's page is its own log (declarations,
// messages received, what is not an event) with the `sent` lines of other logs whose `from` is its
// id merged in by time: one event seen from its sender's side, joined by the id spex stored.

const REASON_LINES_SHOWN = 50;

/** An item of a session's page in its place: its own log's line, or a line of a receiver's log. */
export type PlacedItem = { own: true; line: number; item: TimelineItem; at: string | null } | { own: false; receiver: string; line: number; item: TimelineItem; at: string | null };

type Listed = { key: string; listed: ListedConversation; summary: SpexSummary };

export type SpexProjection = ReturnType<typeof createSpexProjection>;

export function createSpexProjection(reader: SpexReader, ref: SourceRef & { kind: 'spex' }) {
  const summaries = new Map<string, Listed>();
  const placed = new Map<string, { key: string; items: PlacedItem[] }>();

  function summaryKey(session: SpexSession): string {
    const sent = reader.sentBy(session.sessionId);
    const project = reader.project(session.projectFolder);
    return `${session.version}|${sent.count}|${sent.lastAt}|${project?.label}|${project?.source}`;
  }

  /** A session's summary, validated and serialized once for each change of what it says. */
  function listed(session: SpexSession): Listed {
    const key = summaryKey(session);
    const cached = summaries.get(session.sessionId);
    if (cached !== undefined && cached.key === key) return cached;
    const summary = spexSummarySchema.parse(projectSummary(reader, ref, session));
    const entry: Listed = {
      key,
      summary,
      listed: { id: session.sessionId, cwd: summary.project.key, lastAt: summary.lastAt, session: summary.statedSession, sent: summary.counts.sent, received: summary.counts.received, degraded: summary.degraded.length > 0, json: JSON.stringify(summary) },
    };
    summaries.set(session.sessionId, entry);
    return entry;
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

  /** How spex users know a session of this home, as its session.json says now. */
  function namedOf(sessionId: string): SpexNamed {
    return nameSession(reader.session(sessionId)?.sessionJson ?? null);
  }

  function senderOf(from: string | null): SpexSender {
    const sender = describeSender(from, reader.sessionsOfHome);
    return sender.by === 'person' ? { by: 'person' } : sender.by === 'session' ? { by: 'session', sessionId: sender.sessionId, named: namedOf(sender.sessionId) } : { by: 'other', as: sender.as };
  }

  /** Whether a `sent` line of `receiver`'s log is also in its sender's Sent (isSeenFromTwoSides). */
  function twoSidesOf(receiver: string, from: string | null): boolean {
    return isSeenFromTwoSides(receiver, from, reader.sessionsOfHome);
  }

  /** Projects items, reading their lines again from disk; `limit` clips texts for a page. */
  function projectItems(session: SpexSession, items: readonly PlacedItem[], limit: number | null): SpexItem[] {
    // A line too large to read whole is read as far as its head: its text is shown up to a page's limit.
    const requests = items.map((placedItem) => {
      const { item } = placedItem;
      return { path: reader.segmentPath(ownerOf(session, placedItem), item.segment) ?? '', start: item.start, end: isLargeLine(item) ? item.start + LARGE_HEAD_READ_BYTES : item.end };
    });
    const reads = readRanges(requests, reader.root);
    return items.map((placedItem, index) => projectItem(ref, placedItem, reads[index]!, limit, senderOf, namedOf, (from) => twoSidesOf(session.sessionId, from)));
  }

  /** What session.json's note says now, clipped as on a page. */
  function currentNoteOf(id: string): string | null {
    const path = reader.sessionJsonPath(id);
    const sessionJson = path === null ? null : readSmallFile(path, reader.root, 1024 * 1024);
    const reading = sessionJson === null ? null : readSessionJson(sessionJson);
    const note = reading?.state === 'known' ? reading.meta.note : null;
    return note === null ? null : (clipText(note, PAGE_TEXT_LIMIT_BYTES).text ?? null);
  }

  /** What the session's Sent may lack: the other logs' lines and segments not read as events (SentUnknown). */
  function sentUnknownOf(sessionId: string): SentUnknown | null {
    return describeSentUnknown(sessionId, (function* () {
      for (const session of reader.sessions()) yield { sessionId: session.sessionId, degraded: session.fold.degraded };
    })());
  }

  return {
    listed,
    sentUnknownOf,
    /** Forgets a session's summary: it is gone, or what it says changed. */
    forget: (id: string) => summaries.delete(id),
    wasListed: (id: string) => summaries.has(id),
    placeItems,
    projectItems,
    senderOf,
    twoSidesOf,
    namedOf,
    currentNoteOf,
  };
}

function projectSummary(reader: SpexReader, ref: SourceRef & { kind: 'spex' }, session: SpexSession): SpexSummary {
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
    statedSession: session.sessionId,
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
    named: nameSession(session.sessionJson),
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


/** One item as a page (`limit`: its texts clipped) or its own answer gives it, from its line read again now. */
function projectItem(ref: SourceRef & { kind: 'spex' }, placedItem: PlacedItem, read: ReturnType<typeof readRanges>[number], limit: number | null, senderOf: (from: string | null) => SpexSender, namedOf: (sessionId: string) => SpexNamed, twoSidesOf: (from: string | null) => boolean): SpexItem {
  const { item, line } = placedItem;
  const large = isLargeLine(item);
  // A large line's texts are clipped as on a page, for its own answer too: it has only its head.
  const textLimit = large ? PAGE_TEXT_LIMIT_BYTES : limit;
  const base = { source: ref, key: keyOf(placedItem), line, segment: item.segment, at: placedItem.at };
  const asFields = item.evidence === 'parsed' && item.facts.kind !== 'unknown';
  const view =
    read.type === 'bytes'
      ? large
        ? readLineHeadView(read.bytes, asFields ? 'fields' : 'raw', PAGE_TEXT_LIMIT_BYTES)
        : readLineView(read.bytes)
      : read.type === 'withheld'
        ? ({ view: 'withheld', why: read.why } as const)
        : null;
  /** The mark of a large line, with the head of its text that is shown. */
  const markOf = (shown: string | null) => (large ? { large: markLargeText('line', item.end - item.start, shown) } : {});
  const now = read.type === 'gone' ? read.why : view?.view === 'withheld' ? view.why : null;
  if (item.evidence !== 'parsed') {
    // A line still being written is not shown until it is one.
    const raw = item.evidence === 'pending' ? null : view?.view === 'raw' ? view.raw : view?.view === 'fields' && read.type === 'bytes' && !large ? read.bytes.toString('utf8') : null;
    const clipped = raw === null ? null : clipText(raw, textLimit);
    return {
      type: 'evidence',
      ...base,
      at: placedItem.at,
      now: view?.view === 'withheld' ? null : now,
      evidence: item.evidence,
      // Why it is not shown, beside why it is evidence, unless the two say the same ("not valid UTF-8").
      why: view?.view === 'withheld' && item.evidence !== 'pending' && view.why !== item.why ? `${item.why}; ${view.why}` : item.why,
      // The size of the line shown: without spex's receipt, when it held one.
      bytes: read.type === 'bytes' && !large ? read.bytes.length : item.end - item.start,
      raw: clipped?.text ?? null,
      ...(clipped?.bytes !== undefined ? { rawClipped: { bytes: clipped.bytes } } : {}),
      ...markOf(clipped?.text ?? null),
    };
  }
  const facts = item.facts;
  const fields = view?.view === 'fields' ? view : null;
  if (facts.kind === 'status') {
    const note = fields === null ? null : clipText(fields.note, textLimit);
    return {
      type: 'declaration',
      ...base,
      now: fields === null ? (now ?? 'the line no longer holds an event') : null,
      status: facts.status,
      word: facts.word,
      proposal: facts.proposal,
      note: note?.text ?? null,
      ...(note?.bytes !== undefined ? { noteClipped: { bytes: note.bytes } } : {}),
      ...markOf(note?.text ?? null),
    };
  }
  if (facts.kind === 'sent') {
    const text = fields === null ? null : clipText(fields.text, textLimit);
    const hintAt = fields === null || text === null || fields.hintAt === null || fields.hintAt > (text.text ?? '').length ? null : fields.hintAt;
    const message = {
      ...base,
      now: fields === null ? (now ?? 'the line no longer holds an event') : null,
      mid: facts.mid,
      replyVia: facts.replyVia,
      text: text?.text ?? null,
      ...(text?.bytes !== undefined ? { textClipped: { bytes: text.bytes } } : {}),
      hintAt,
      ...markOf(text?.text ?? null),
    };
    if (placedItem.own) return { type: 'received', ...message, from: senderOf(facts.from), twoSides: twoSidesOf(facts.from) };
    return { type: 'sent', ...message, receiver: placedItem.receiver, receiverNamed: namedOf(placedItem.receiver), fromLog: 'receiver' };
  }
  const raw = read.type !== 'bytes' || view?.view === 'withheld' ? null : view?.view === 'raw' && large ? view.raw : read.bytes.toString('utf8');
  const clipped = raw === null ? null : clipText(raw, textLimit);
  return {
    type: 'unknown-kind',
    ...base,
    now,
    kindName: facts.kindName,
    raw: clipped?.text ?? null,
    ...(clipped?.bytes !== undefined ? { rawClipped: { bytes: clipped.bytes } } : {}),
    ...markOf(clipped?.text ?? null),
  };
}

/** A line too large to read whole for a page or an item: only its head is read. */
export function isLargeLine(item: TimelineItem): boolean {
  return item.end - item.start > LARGE_TEXT_BYTES;
}

/** The item's name in its conversation: its own log's line, or the receiver's line it was sent as. */
export function keyOf(placedItem: PlacedItem): string {
  return placedItem.own ? ownLineKey(placedItem.line) : sentLineKey(placedItem.line, placedItem.receiver);
}

/** The session whose log holds the item's line. */
export function ownerOf(session: SpexSession, placed: PlacedItem): string {
  return placed.own ? session.sessionId : placed.receiver;
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
