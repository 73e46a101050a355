import type { PendingWindow } from '../../shared/evidence.ts';
import { stateSpexMessages } from '../../shared/spex/mapStatements.ts';
import { countUnknownSenders } from '../../shared/spex/sentUnknown.ts';
import type { z } from 'zod';
import { PAGE_TEXT_LIMIT_BYTES, pageStart, type SourceStatus } from '../../shared/wire/common.ts';
import type { SpexItem, SpexItemResponse, SpexSearchHit, SpexSessionResponse, spexPageQuerySchema } from '../../shared/wire/spex.ts';
import { createNoticeGatherer } from '../sources/noticeGatherer.ts';
import { sourceRefOf } from '../sources/sourceRef.ts';
import { NotHere, type Answer, type FirstLine, type Source, type SourceNotice } from '../sources/source.ts';
import { createSpexExport, describeSpexHit } from './spexExport.ts';
import { createSpexLiveItems } from './spexItems.ts';
import { firstLineOf } from '../../shared/firstLine.ts';
import { createSpexProjection, keyOf } from './spexProjection.ts';
import { createSpexReader, type SpexReader } from './spexReader.ts';
import { searchSpex } from './spexSearch.ts';
import { createSearchPool, type SearchPool } from '../search/searchPool.ts';
import { createLoopTurns, mapInSteps, type LoopTurns } from '../sources/loopTurns.ts';

// A spex home as a source: its reader (index, watcher), its projection (spexProjection.ts), its
// export and its search, and the notices its changes make.

type SpexSourceOptions = PendingWindow & { root: string; onError?: (message: string) => void; reconcileIntervalMs?: number; searchPool?: SearchPool; turns?: LoopTurns };

/** A page's items read a slice a step (server/sources/loopTurns.ts): their lines are read again from their segments. */
const PAGE_STEP_ITEMS = 16;

export function createSpexSource(options: SpexSourceOptions): Source<'spex'> {
  const ref = sourceRefOf('spex', options.root);
  const pool = options.searchPool ?? createSearchPool();
  const turns = options.turns ?? createLoopTurns();
  const listeners = new Set<(notice: SourceNotice) => void>();
  /** Sessions told as changed: those listed now or before, and not a `from` that names no session of this home. */
  const listedChanged = new Set<string>();
  let statusVersion = 0;
  let changeVersion = 0;

  const publish = (notice: SourceNotice) => {
    for (const listener of listeners) listener(notice);
  };
  // Sessions whose lines may be news for the live view: their own log changed, or they are gone.
  const notices = createNoticeGatherer<string>((ids) => {
    for (const id of ids) if (listedChanged.delete(id)) publish({ type: 'conversation-changed', id });
    for (const [id, items] of liveItems.collect(ids)) publish({ type: 'items', id, items });
  });

  const reader: SpexReader = createSpexReader({
    root: options.root,
    pendingWindowMs: options.pendingWindowMs,
    ...(options.reconcileIntervalMs !== undefined ? { reconcileMs: options.reconcileIntervalMs } : {}),
    ...(options.onError !== undefined ? { onError: options.onError } : {}),
    onChanged(ids) {
      changeVersion++;
      let unknownMoved = false;
      for (const id of ids) {
        // A `from` that names no session of this home changes nothing anyone lists.
        if (reader.session(id) !== null || projection.wasListed(id)) listedChanged.add(id);
        if (reader.session(id) === null) projection.forget(id);
        if (noteUnknownSenders(id)) unknownMoved = true;
      }
      // A line no sender can be said of, come or gone, changes what every other session's page
      // says its Sent may lack (sentUnknown): each is told, which is rare (a line cut short).
      if (unknownMoved) {
        for (const session of reader.sessions()) {
          if (ids.has(session.sessionId)) continue;
          listedChanged.add(session.sessionId);
          notices.gather(session.sessionId);
        }
      }
      if (ids.size > 0) notices.gather(...ids);
    },
    onStatus() {
      statusVersion++;
      publish({ type: 'source', source: status() });
    },
  });

  const projection = createSpexProjection(reader, ref);
  /** Each log's lines and segments that name no sender, as last told: a change is every other session's page's news. */
  const unknownSenders = new Map<string, string>();
  function noteUnknownSenders(id: string): boolean {
    const session = reader.session(id);
    const found = session === null ? { lines: 0, firstLine: null, segments: 0 } : countUnknownSenders(session.fold.degraded);
    // Its first such line too: the other pages link to it.
    const now = found.lines + found.segments === 0 ? '' : `${found.lines}/${found.segments}/${found.firstLine}`;
    const was = unknownSenders.get(id) ?? '';
    if (now === '') unknownSenders.delete(id);
    else unknownSenders.set(id, now);
    return now !== was;
  }
  const liveItems = createSpexLiveItems(reader, ref.id);
  const exportOf = createSpexExport(reader, projection, ref);

  function status(): SourceStatus {
    const now = reader.status();
    return { ...ref, root: options.root, state: now.state, why: now.why, indexing: now.indexing };
  }

  async function page(id: string, query: z.output<typeof spexPageQuerySchema>): Promise<Answer<SpexSessionResponse>> {
    const session = reader.session(id);
    if (session === null) return new NotHere('no such session in this spex home');
    const items = projection.placeItems(session);
    const { limit } = query;
    const offset = pageStart(query, items.length);
    const onPage = await mapInSteps(items.slice(offset, offset + limit), turns, 'answer', PAGE_STEP_ITEMS, (slice) => projection.projectItems(session, slice, PAGE_TEXT_LIMIT_BYTES));
    return {
      schema: 'rec.spex-session/1',
      session: projection.listed(session).summary,
      currentNote: projection.currentNoteOf(id),
      page: { offset, limit, total: items.length },
      items: onPage,
      strays: session.strays.map((stray) => ({ name: stray.name, why: stray.why })),
      sentUnknown: projection.sentUnknownOf(id),
    };
  }

  /**
   * Each named item's first line, read as its page reads it, a slice a step: the keys are its
   * page's (keyOf), so a key of another session's page is not this one's.
   */
  async function firstLines(id: string, keys: readonly string[], signal: AbortSignal): Promise<Map<string, FirstLine>> {
    const lines = new Map<string, FirstLine>();
    const session = reader.session(id);
    const placed = new Map(session === null ? [] : projection.placeItems(session).map((placedItem) => [keyOf(placedItem), placedItem]));
    const wanted = keys.flatMap((key) => {
      const found = placed.get(key);
      if (found === undefined) lines.set(key, { none: 'no such line in this session now' });
      return found === undefined ? [] : [found];
    });
    if (session === null || wanted.length === 0) return lines;
    const projected = await mapInSteps(wanted, turns, 'answer', PAGE_STEP_ITEMS, (slice) => {
      signal.throwIfAborted();
      return projection.projectItems(session, slice, PAGE_TEXT_LIMIT_BYTES);
    });
    projected.forEach((shown, index) => lines.set(keyOf(wanted[index]!), firstLineOfItem(shown)));
    return lines;
  }

  async function item(id: string, key: string): Promise<Answer<SpexItemResponse>> {
    const session = reader.session(id);
    if (session === null) return new NotHere('no such session in this spex home');
    const found = projection.placeItems(session).find((placedItem) => keyOf(placedItem) === key);
    if (found === undefined) return new NotHere('no such item in this session');
    return { schema: 'rec.spex-item/1', source: ref, sessionId: id, item: projection.projectItems(session, [found], null)[0]! };
  }

  return {
    ref,
    status,
    strays: () => reader.strays(),
    version: () => `${changeVersion}.${statusVersion}`,
    *conversations() {
      // A session at a time: the list takes a step for each (server/http/sessionListBody.ts).
      for (const session of reader.sessions()) yield projection.listed(session).listed;
    },
    conversation(id) {
      const session = reader.session(id);
      return session === null ? null : projection.listed(session).listed;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    page,
    item,
    firstLines,
    export: exportOf,
    views: {},
    mapFacts: () =>
      stateSpexMessages(
        ref.id,
        [...reader.sessions()].map((session) => ({ sessionId: session.sessionId, items: reader.items(session) })),
        (id) => reader.session(id) !== null,
      ),
    search: (query, signal) => searchSpex(reader, projection, pool, ref, query, signal),
    describeSearchHit: (hit) => describeSpexHit(hit as SpexSearchHit),
    // Nothing of a spex page runs beside the event loop: there is no other work to stop.
    stopWork: () => void pool.close(),
    async start() {
      await reader.start();
      liveItems.takeAllAsTold();
    },
    async close() {
      notices.close();
      listeners.clear();
      await Promise.all([pool.close(), reader.close()]);
    },
  };
}

/** A line's first line as its page shows its text, or why it shows none. */
function firstLineOfItem(item: SpexItem): FirstLine {
  switch (item.type) {
    case 'received':
    case 'sent':
      return item.text === null ? { none: 'the line no longer holds its text as it was read' } : { line: firstLineOf(item.text) };
    case 'declaration':
      return item.note === null ? { none: 'a declaration with no note' } : { line: firstLineOf(item.note) };
    case 'unknown-kind':
      return { none: `a kind spex's reader does not know: ${item.kindName}` };
    case 'evidence':
      return { none: `${item.evidence}: ${item.why}` };
  }
}
