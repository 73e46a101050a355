import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PAGE_TEXT_LIMIT_BYTES, decimalQuerySchema, type LiveItem, type SearchQuery, type SourceRef, type SourceStatus } from '../../shared/api.ts';
import { describeReason, type DegradedReason } from '../../shared/sac/degraded.ts';
import { findFirst } from '../../shared/sac/lookup.ts';
import type { ProcessState } from '../../shared/sac/liveness.ts';
import { foldRoom, sortSeatFiles, type FlowItem, type RoomFold } from '../../shared/sac/room.ts';
import { createRoomIndex, updateRoomIndex, type RoomIndex } from '../../shared/sac/roomIndex.ts';
import { foldSeat, listSeats, resolveProject, summarizeSeat, type ReceivedItem, type RoomFiles, type SeatSummary, type SeatView } from '../../shared/sac/seat.ts';
import { ENTRY_TYPES, readBodyText, readEntry, readEntryEvidence, readHeader, readRawText, type SeatFileItem, type SeatFileReading } from '../../shared/sac/seatFile.ts';
import { createTextMatcher, snippetAround } from '../../shared/textMatch.ts';
import type { StoreFacts } from '../../shared/sac/storeFiles.ts';
import {
  sacItemResponseSchema,
  sacRoomResponseSchema,
  sacRoomsResponseSchema,
  sacSearchHitSchema,
  sacSeatResponseSchema,
  sacSeatSummarySchema,
  type SacDegradedReason,
  type SacFlowItem,
  type SacRoomSummary,
  type SacSearchHit,
  type SacSeatSummary,
} from '../../shared/wire/sac.ts';
import type { ListedConversation, Source, SourceNotice, SourceSearch } from '../sources/source.ts';
import { firstLineOf } from '../../shared/firstLine.ts';
import { createSacReader } from './sacReader.ts';
import { createSacExport, describeSacHit } from './sacExport.ts';
import { createLiveItems } from './sacLiveItems.ts';
import { readSeatRange } from './storeOpen.ts';

// The projection of a set-agent-comm store: seats are its conversations (grouped by the
// registry's project), rooms a view of their own. Core folds become wire objects here, written
// out field by field; texts are read from disk for a page, an item or a search, never kept.

type SacSourceOptions = { root: string; onError?: (message: string) => void };

/** Changes are told after this long, so the pieces of one write make one notice (as the record's). */
const NOTICE_GATHER_MS = 5;
/** A summary older than this is folded again: a focus turns stale and a quiet presence ends with time. */
const SUMMARY_MAX_AGE_MS = 60_000;
const REASON_FILES_SHOWN = 20;
/** Room folds kept for the pages that show them; a store of 100 rooms of 10,000 entries is not kept folded whole. */
const ROOM_FOLDS_KEPT = 16;
const DEFAULT_FLOW_LIMIT = 500;
const MAX_FLOW_LIMIT = 20_000;
/** A body searched past this many bytes is searched in its first ones (a 100 MB body is not matched whole). */
const SEARCH_TEXT_BYTES = 4 * 1024 * 1024;

/** The store's id on the wire: stable for its absolute root, as the record's is. */
function sacSourceRef(root: string): SourceRef & { kind: 'sac' } {
  const digest = createHash('sha256').update(resolve(root)).digest('hex');
  return { kind: 'sac', id: `sac-${digest.slice(0, 8)}` };
}

const seatQuery = z.object({
  others: z.enum(['0', '1']).default('0'),
  limit: decimalQuerySchema(1, MAX_FLOW_LIMIT).default(DEFAULT_FLOW_LIMIT),
});
const roomsQuery = z.object({ source: z.string() });
const roomQuery = z.object({ source: z.string(), limit: decimalQuerySchema(1, MAX_FLOW_LIMIT).default(DEFAULT_FLOW_LIMIT) });
const roomParams = z.object({ room: z.string().min(1) });

/** Sac sources by Fastify app: the rooms routes are registered once and answer for each source. */
const roomRoutes = new WeakMap<FastifyInstance, Map<string, SacSource>>();

export type SacSource = Source & {
  /** The store's rooms, for `GET /api/sac/rooms`. */
  roomSummaries(): SacRoomSummary[];
  /** One room's flow, or null when there is no such room. */
  roomPage(room: string, limit: number): z.infer<typeof sacRoomResponseSchema> | null;
  /** A seat's page; null when the store knows no such seat. */
  seatPage(seat: string, options: { others: boolean; limit: number }): z.infer<typeof sacSeatResponseSchema> | null;
  /** One item whole; null when there is none by that id. */
  itemOf(seat: string, item: string): z.infer<typeof sacItemResponseSchema> | null;
};

export function createSacSource(options: SacSourceOptions): SacSource {
  const root = resolve(options.root);
  const ref = sacSourceRef(root);
  const listeners = new Set<(notice: SourceNotice) => void>();
  const dirty = new Set<string>();
  let allDirty = true;
  let flushTimer: NodeJS.Timeout | null = null;
  const summaries = new Map<string, { listed: ListedConversation; at: number }>();
  const roomFolds = new Map<string, { files: RoomFiles; rooms: StoreFacts['rooms']; fold: RoomFold }>();
  const roomIndexes = new Map<string, { files: RoomFiles; index: RoomIndex }>();
  const roomRows = new Map<string, { files: RoomFiles; rooms: StoreFacts['rooms']; row: SacRoomSummary }>();
  let layoutNow: Layout | null = null;

  const publish = (notice: SourceNotice) => {
    for (const listener of listeners) listener(notice);
  };
  const statusNow = (): SourceStatus => {
    const status = reader.status();
    return { ...ref, root, state: status.state, why: status.why, indexing: status.indexing };
  };
  /** Rooms whose files changed since the last notice: their new and changed items are told with it. */
  const roomsChanged = new Set<string>();
  const flush = () => {
    flushTimer = null;
    const ids = [...dirty];
    dirty.clear();
    const items = collectLiveItems();
    for (const id of ids) {
      publish({ type: 'conversation-changed', id });
      const told = items.get(id);
      items.delete(id);
      if (told !== undefined) publish({ type: 'items', id, items: told });
    }
    // A seat told of no change (its summary was not asked for again) still has its items told.
    for (const [id, told] of items) publish({ type: 'items', id, items: told });
  };

  const reader = createSacReader({
    root,
    ...(options.onError !== undefined ? { onError: options.onError } : {}),
    onStatus: () => {
      // What the first scan read is not told item by item: it is what the files held when reading began.
      if (reader.status().indexing.state === 'ready') liveItems.takeAsTold(reader.rooms());
      publish({ type: 'source', source: statusNow() });
    },
    onChange(change) {
      // A room gone (archived) takes the seats it had with it: they are looked up as last listed.
      const before = layoutNow;
      const layout = currentLayout();
      const seats = layout.seats;
      let touched: readonly string[];
      if (change.store) {
        touched = seats;
        allDirty = true;
      } else {
        const store = reader.store();
        if (change.rooms.length > 0 && (store.members.state !== 'read' || store.registry.state !== 'read')) touched = seats;
        else {
          const inRooms = new Set<string>();
          for (const room of change.rooms) {
            for (const seat of layout.seatsOf.get(room) ?? []) inRooms.add(seat);
            for (const seat of before?.seatsOf.get(room) ?? []) inRooms.add(seat);
          }
          touched = seats.filter((seat) => inRooms.has(seat) || !summaries.has(seat));
        }
        for (const seat of touched) summaries.delete(seat);
      }
      if (reader.status().indexing.state !== 'ready') return;
      for (const room of change.rooms) roomsChanged.add(room);
      for (const seat of touched) dirty.add(seat);
      if (dirty.size > 0 || roomsChanged.size > 0) flushTimer ??= setTimeout(flush, NOTICE_GATHER_MS);
    },
  });

  const liveItems = createLiveItems({
    ref,
    firstLineOf(room, seat, entry) {
      const { text } = readText(entry, room, seat, true);
      return text === null ? null : firstLineOf(text);
    },
    beginsHeader(room, seat, start) {
      const file = reader.seatFile(room, seat);
      if (file === null) return false;
      const length = Math.min(3, file.reading.size - start);
      const read = readSeatRange(root, file.relative, file.mark === null ? null : { dev: file.mark.dev, ino: file.mark.ino }, start, length, start + length);
      return read.type === 'bytes' && read.bytes.length > 0 && '## '.startsWith(read.bytes.toString('latin1'));
    },
  });

  function collectLiveItems(): Map<string, LiveItem[]> {
    if (roomsChanged.size === 0) return new Map();
    const rooms: RoomFiles[] = [];
    let gone = false;
    for (const room of roomsChanged) {
      const files = reader.room(room);
      if (files === null) gone = true;
      else rooms.push(files);
    }
    roomsChanged.clear();
    if (gone) liveItems.forgetRoomsBut(new Set(reader.rooms().map((files) => files.room)));
    return liveItems.collect(rooms);
  }

  /** What is listed of the store: its seats, and which rooms each is in. Kept while no room or seat file comes or goes. */
  type Layout = { key: number; store: StoreFacts; seats: string[]; withFile: Map<string, string[]>; seatsOf: Map<string, Set<string>> };
  function currentLayout(): Layout {
    const store = reader.store();
    const key = reader.layout();
    if (layoutNow !== null && layoutNow.key === key && layoutNow.store === store) return layoutNow;
    const rooms = reader.rooms();
    const withFile = new Map<string, string[]>();
    const seatsOf = new Map<string, Set<string>>();
    const add = (room: string, seat: string) => {
      let seats = seatsOf.get(room);
      if (seats === undefined) seatsOf.set(room, (seats = new Set()));
      seats.add(seat);
    };
    for (const room of rooms) {
      for (const file of room.files) {
        const list = withFile.get(file.seat);
        if (list === undefined) withFile.set(file.seat, [room.room]);
        else list.push(room.room);
        add(room.room, file.seat);
      }
    }
    // Seats declared in a room are changed by it too (members.json, the registry).
    if (store.members.state === 'read') for (const record of store.members.facts.seats) for (const room of record.rooms) add(room, record.seat);
    if (store.registry.state === 'read') for (const record of store.registry.facts.seats) for (const room of record.rooms) add(room, record.seat);
    layoutNow = { key, store, seats: listSeats(rooms, store), withFile, seatsOf };
    return layoutNow;
  }

  function currentSeats(): string[] {
    return currentLayout().seats;
  }

  /** A room's index, brought up to what the reader read: only files read since are taken up. */
  function indexOfRoom(room: string): RoomIndex | null {
    const files = reader.room(room);
    if (files === null) {
      roomIndexes.delete(room);
      return null;
    }
    let kept = roomIndexes.get(room);
    if (kept === undefined) roomIndexes.set(room, (kept = { files, index: createRoomIndex(room) }));
    else if (kept.files === files && kept.index.version > 0) return kept.index;
    updateRoomIndex(kept.index, files.files);
    kept.files = files;
    return kept.index;
  }

  const indexes = { indexOf: indexOfRoom, roomsWithFileOf: (seat: string) => currentLayout().withFile.get(seat) ?? [] };

  const foldRoomCached = (room: string, files: readonly SeatFileReading[], rooms: StoreFacts['rooms']): RoomFold => {
    const roomFiles = reader.room(room);
    const cached = roomFolds.get(room);
    if (roomFiles !== null && roomFiles.files === files) {
      if (cached !== undefined && cached.files === roomFiles && cached.rooms === rooms) {
        // The most recently used is kept last, and the least recently used leaves first.
        roomFolds.delete(room);
        roomFolds.set(room, cached);
        return cached.fold;
      }
      const fold = foldRoom(room, files, rooms);
      roomFolds.delete(room);
      roomFolds.set(room, { files: roomFiles, rooms, fold });
      if (roomFolds.size > ROOM_FOLDS_KEPT) roomFolds.delete(roomFolds.keys().next().value!);
      return fold;
    }
    return foldRoom(room, files, rooms);
  };

  let roomsNow: { version: number; rooms: RoomFiles[] } | null = null;
  function foldSeatNow(seat: string): SeatView {
    const store = reader.store();
    const version = reader.version();
    if (roomsNow === null || roomsNow.version !== version) roomsNow = { version, rooms: reader.rooms() };
    return foldSeat(seat, roomsNow.rooms, store, Date.now(), processStates(store), foldRoomCached);
  }

  let processes: { at: number; registry: StoreFacts['registry']; states: Map<number, ProcessState> } | null = null;
  /** Whether a pid runs is asked again after a second, not once per seat of a list of thousands. */
  function processStates(store: StoreFacts): Map<number, ProcessState> {
    if (processes === null || processes.registry !== store.registry || Date.now() - processes.at > 1_000) {
      processes = { at: Date.now(), registry: store.registry, states: checkProcesses(store) };
    }
    return processes.states;
  }

  function summaryOf(seat: string): ListedConversation {
    const cached = summaries.get(seat);
    if (cached !== undefined && !allDirty && !dirty.has(seat) && Date.now() - cached.at < SUMMARY_MAX_AGE_MS) return cached.listed;
    const store = reader.store();
    const seatSummary = summarizeSeat(seat, indexes, store, Date.now(), processStates(store));
    const registry = store.registry;
    const lastSeen = registry.state === 'read' ? (findFirst(registry.facts.seats, 'seat', seat)?.lastSeen ?? null) : null;
    const summary = sacSeatSummarySchema.parse(projectSummary(ref, seatSummary, lastSeen));
    const listed: ListedConversation = { id: seat, cwd: summary.project.project, lastAt: summary.lastAt, degraded: summary.degraded.length > 0, json: JSON.stringify(summary) };
    summaries.set(seat, { listed, at: Date.now() });
    return listed;
  }

  function conversations(): ListedConversation[] {
    const seats = currentSeats();
    const list = seats.map(summaryOf);
    allDirty = false;
    const known = new Set(seats);
    for (const seat of summaries.keys()) if (!known.has(seat)) summaries.delete(seat);
    return list;
  }

  // ——— texts, read from disk ———

  function readText(item: SeatFileItem, room: string, seat: string, clip: boolean): { text: string | null; clipped?: { bytes: number } } {
    const file = reader.seatFile(room, seat);
    if (file === null) return { text: null };
    const from = item.type === 'entry' ? item.bodyStart : item.start;
    const wanted = item.end - from;
    const limit = clip ? Math.min(wanted, PAGE_TEXT_LIMIT_BYTES) : wanted;
    const identity = file.mark === null ? null : { dev: file.mark.dev, ino: file.mark.ino };
    // An entry's header is read again with its body: a header that no longer reads the same is a file rewritten.
    const start = item.type === 'entry' ? item.start : from;
    const read = readSeatRange(root, file.relative, identity, start, limit + (from - start), item.end);
    if (read.type === 'changed') {
      reader.noteChanged(room, seat, read.why);
      return { text: null };
    }
    if (read.type !== 'bytes') return { text: null };
    if (item.type === 'entry') {
      const header = readHeader(read.bytes.subarray(0, Math.max(0, from - start - 1)).toString('utf8'));
      if (header === null || header.time !== item.facts.time || header.typeWord !== item.facts.typeWord) {
        reader.noteChanged(room, seat, 'an entry’s header no longer reads as it did: bytes already read are different');
        return { text: null };
      }
    }
    const body = read.bytes.subarray(from - start);
    if (limit < wanted) {
      const decoded = readRawText(cutAtCharacter(body)).replace(/^\s+/, '');
      return { text: decoded, clipped: { bytes: wanted } };
    }
    return { text: item.type === 'entry' ? readBodyText(body) : readRawText(body) };
  }

  function projectFlow(room: string, flow: FlowItem, received: ReceivedItem | null, clip: boolean): SacFlowItem {
    const item = flow.item;
    const { text, clipped } = readText(item, room, flow.seat, clip);
    const file = `channels/${room}/${flow.seat}.md`;
    const entry = item.type === 'entry' ? item : null;
    return {
      source: { kind: 'sac', id: ref.id },
      item: `${file}:${item.start}`,
      type: item.type,
      room,
      seat: flow.seat,
      file,
      start: item.start,
      end: item.end,
      evidence: item.evidence,
      why: item.why,
      placedBy: flow.placedBy,
      time: entry?.facts.time ?? null,
      at: entry !== null && entry.facts.instant !== null ? new Date(entry.facts.instant).toISOString() : null,
      entryType: entry?.facts.type ?? null,
      typeWord: entry?.facts.typeWord ?? null,
      to: entry === null ? [] : [...entry.facts.to],
      re:
        entry === null || entry.facts.re === null || flow.re === null
          ? null
          : {
              time: entry.facts.re,
              state: flow.re.state,
              entries: flow.re.entries.map((target) => ({ seat: target.seat, start: target.start, item: `channels/${room}/${target.seat}.md:${target.start}` })),
            },
      sharesTime: flow.sharesTime,
      timeGoesBack: flow.timeGoesBack,
      text,
      ...(clipped !== undefined ? { textClipped: clipped } : {}),
      addressing: received?.addressing ?? null,
      sacCursor: received?.sacCursor ?? null,
      sibling: received?.sibling ?? false,
    };
  }

  function seatPage(seat: string, page: { others: boolean; limit: number }) {
    if (!currentSeats().includes(seat)) return null;
    const view = foldSeatNow(seat);
    const summary = JSON.parse(summaryOf(seat).json) as SacSeatSummary;
    const received = view.received.filter((item) => page.others || item.addressing !== 'to-others');
    const sent = view.sent.slice(-page.limit).map((item) => projectFlow(item.room, item.flow, null, true));
    return sacSeatResponseSchema.parse({
      schema: 'rec.sac-seat/1',
      seat: summary,
      others: page.others,
      sent,
      received: received.slice(-page.limit).map((item) => projectFlow(item.room, item.flow, item, true)),
      limit: page.limit,
      sentTotal: view.sent.length,
      receivedTotal: received.length,
    });
  }

  function itemOf(seat: string, itemId: string) {
    const match = /^channels\/([^/]+)\/(.+)\.md:(\d+)$/.exec(itemId);
    if (match === null) return null;
    const [, room, writer, start] = match as unknown as [string, string, string, string];
    const files = reader.room(room);
    if (files === null) return null;
    const fold = foldRoomCached(room, files.files, reader.store().rooms);
    const flow = fold.items.find((candidate) => candidate.seat === writer && candidate.item.start === Number(start));
    if (flow === undefined) return null;
    // The item is asked for from a seat's page: its addressing and sac's cursor are the seat's.
    let received: ReceivedItem | null = null;
    if (writer !== seat && currentSeats().includes(seat)) {
      received = foldSeatNow(seat).received.find((candidate) => candidate.room === room && candidate.flow.seat === writer && candidate.flow.item.start === flow.item.start) ?? null;
    }
    return sacItemResponseSchema.parse({ schema: 'rec.sac-item/1', item: projectFlow(room, flow, received, false) });
  }

  function roomSummaries(): SacRoomSummary[] {
    const store = reader.store();
    const rooms = reader.rooms();
    const rows = rooms.map((files) => {
      const kept = roomRows.get(files.room);
      if (kept !== undefined && kept.files === files && kept.rooms === store.rooms) return kept.row;
      // A room's row is made from its fold once per change of the room, and the fold is not kept for it.
      const row = projectRoomSummary(ref, roomFolds.get(files.room)?.files === files ? foldRoomCached(files.room, files.files, store.rooms) : foldRoom(files.room, files.files, store.rooms));
      roomRows.set(files.room, { files, rooms: store.rooms, row });
      return row;
    });
    const known = new Set(rooms.map((files) => files.room));
    for (const room of roomRows.keys()) if (!known.has(room)) roomRows.delete(room);
    return rows;
  }

  function roomPage(room: string, limit: number) {
    const files = reader.room(room);
    if (files === null) return null;
    const fold = foldRoomCached(room, files.files, reader.store().rooms);
    return sacRoomResponseSchema.parse({
      schema: 'rec.sac-room/1',
      room: projectRoomSummary(ref, fold),
      items: fold.items.slice(-limit).map((flow) => projectFlow(room, flow, null, true)),
      limit,
      total: fold.items.length,
    });
  }

  async function search(query: SearchQuery, signal: AbortSignal): Promise<SourceSearch> {
    const extra = query;
    // Filters of the record's facts select none of sac's entries, nor does spex's person: a
    // session writes every sac entry.
    if (query.side !== undefined || query.outcome !== undefined || query.refused !== undefined || query.person !== undefined || (query.peer !== undefined && query.peer !== '')) {
      return { hits: [], scanned: 0, truncated: false };
    }
    const matcher = query.q === '' ? null : createTextMatcher(query.q, { regex: query.regex === '1', matchCase: query.case === '1' });
    if (matcher !== null && 'error' in matcher) return { hits: [], scanned: 0, truncated: false };
    const from = query.from === undefined ? -Infinity : Date.parse(query.from);
    const to = query.to === undefined ? Infinity : Date.parse(query.to);
    const store = reader.store();
    const candidates: { room: string; reading: SeatFileReading; index: number; place: number; project: string }[] = [];
    const projects = new Map<string, string>();
    const projectOf = (seat: string) => {
      let project = projects.get(seat);
      if (project === undefined) projects.set(seat, (project = resolveProject(seat, store.registry).project));
      return project;
    };
    let sliceStart = performance.now();
    for (const files of reader.rooms()) {
      if (extra.room !== undefined && files.room !== extra.room) continue;
      // Entries are looked at in their columns, and made whole only for the hits: a store holds millions.
      for (const reading of sortSeatFiles(files.files)) {
        if (extra.writer !== undefined && reading.seat !== extra.writer) continue;
        const project = projectOf(reading.seat);
        if (query.project !== undefined && project !== query.project) continue;
        const columns = reading.entries;
        // An entry whose time names no instant takes the place of the entry before it in its file, as in the room's flow.
        let place = -Infinity;
        for (let i = 0; i < columns.start.length; i++) {
          const instant = columns.instant[i]!;
          if (!Number.isNaN(instant)) place = instant;
          if (extra.type !== undefined && ENTRY_TYPES[columns.word[i]! % 4] !== extra.type) continue;
          if (Number.isNaN(instant) ? query.from !== undefined || query.to !== undefined : instant < from || instant > to) continue;
          const evidence = readEntryEvidence(reading, i).evidence;
          if (evidence !== 'parsed' && evidence !== 'changed') continue;
          candidates.push({ room: files.room, reading, index: i, place, project });
        }
      }
      if (performance.now() - sliceStart > 8) {
        await yieldToLoop();
        signal.throwIfAborted();
        sliceStart = performance.now();
      }
    }
    // Newest first; equal places keep the rooms' order, as a stable sort does.
    candidates.sort((a, b) => b.place - a.place);
    const hits: SourceSearch['hits'] = [];
    let scanned = 0;
    for (const candidate of candidates) {
      if (hits.length === query.limit) return { hits, scanned, truncated: true };
      const { room } = candidate;
      const flow = { seat: candidate.reading.seat, place: candidate.place };
      const file = reader.seatFile(room, flow.seat);
      if (file === null) continue;
      const item = readEntry(candidate.reading, candidate.index);
      const length = Math.min(item.end - item.bodyStart, SEARCH_TEXT_BYTES);
      const read = readSeatRange(root, file.relative, file.mark === null ? null : { dev: file.mark.dev, ino: file.mark.ino }, item.bodyStart, length, item.end);
      scanned++;
      if (read.type !== 'bytes') continue;
      const text = readBodyText(cutAtCharacter(read.bytes));
      let snippet = text.slice(0, 200);
      let match: { start: number; end: number } | null = null;
      if (matcher !== null) {
        const found = matcher(text);
        if (found === null) continue;
        ({ snippet, match } = snippetAround(text, found) as { snippet: string; match: { start: number; end: number } });
      }
      const at = new Date(flow.place).toISOString();
      const hit: SacSearchHit = {
        source: { kind: 'sac', id: ref.id },
        seat: flow.seat,
        room,
        item: `channels/${room}/${flow.seat}.md:${item.start}`,
        time: item.facts.time,
        at,
        entryType: item.facts.type,
        typeWord: item.facts.typeWord,
        to: [...item.facts.to],
        project: candidate.project,
        snippet,
        match,
      };
      hits.push({ at, hit: sacSearchHitSchema.parse(hit) });
      if (scanned % 200 === 0) {
        await yieldToLoop();
        signal.throwIfAborted();
      }
    }
    return { hits, scanned, truncated: false };
  }

  const exporting = createSacExport({
    ref,
    root,
    foldSeat(seat) {
      if (!currentSeats().includes(seat)) return null;
      return { view: foldSeatNow(seat), summary: JSON.parse(summaryOf(seat).json) as SacSeatSummary };
    },
    summaryOf: (seat) => JSON.parse(summaryOf(seat).json) as SacSeatSummary,
    seatFile: (room, seat) => reader.seatFile(room, seat),
    noteChanged: (room, seat, why) => reader.noteChanged(room, seat, why),
    projectFlow,
  });

  const source: SacSource = {
    ref,
    status: statusNow,
    strays: () => reader.strays(),
    version: () => `${reader.version()}`,
    conversations,
    conversation(id) {
      return currentSeats().includes(id) ? summaryOf(id) : null;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async answerConversation(id: string, request: FastifyRequest, reply: FastifyReply) {
      const parsed = seatQuery.safeParse(request.query);
      if (!parsed.success) return reply.code(400).send({ error: 'bad-request', message: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') });
      const page = seatPage(id, { others: parsed.data.others === '1', limit: parsed.data.limit });
      if (page === null) return reply.code(404).send({ error: 'not-found', message: `no seat ${JSON.stringify(id)} in this set-agent-comm store` });
      return page;
    },
    async answerItem(id: string, item: string, _request: FastifyRequest, reply: FastifyReply) {
      const answer = itemOf(id, item);
      if (answer === null) return reply.code(404).send({ error: 'not-found', message: `the seat ${JSON.stringify(id)} has no such item in this set-agent-comm store` });
      return answer;
    },
    answerExport: exporting.answerExport,
    search,
    describeSearchHit: (hit) => describeSacHit(hit as SacSearchHit),
    // Its work is done on the event loop, a request at a time: nothing runs on after a stop.
    stopWork() {},
    registerRoutes(app: FastifyInstance) {
      let sources = roomRoutes.get(app);
      if (sources === undefined) {
        sources = new Map();
        roomRoutes.set(app, sources);
        registerRoomRoutes(app, sources);
      }
      sources.set(ref.id, source);
    },
    roomSummaries,
    roomPage,
    seatPage,
    itemOf,
    start: () => reader.start(),
    async close() {
      if (flushTimer !== null) clearTimeout(flushTimer);
      listeners.clear();
      await reader.close();
    },
  };
  return source;
}

function registerRoomRoutes(app: FastifyInstance, sources: ReadonlyMap<string, SacSource>): void {
  const sourceOf = (id: string, reply: FastifyReply): SacSource | null => {
    const found = sources.get(id);
    if (found === undefined) void reply.code(404).send({ error: 'not-found', message: `no set-agent-comm source ${JSON.stringify(id)}` });
    return found ?? null;
  };
  app.get('/api/sac/rooms', async (request, reply) => {
    const query = roomsQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send({ error: 'bad-request', message: 'source: expected a source id' });
    const source = sourceOf(query.data.source, reply);
    if (source === null) return reply;
    return sacRoomsResponseSchema.parse({ schema: 'rec.sac-rooms/1', source: source.ref, rooms: source.roomSummaries() });
  });
  app.get('/api/sac/rooms/:room', async (request, reply) => {
    const query = roomQuery.safeParse(request.query);
    const params = roomParams.safeParse(request.params);
    if (!query.success || !params.success) return reply.code(400).send({ error: 'bad-request', message: 'expected a room, a source id and a decimal limit' });
    const source = sourceOf(query.data.source, reply);
    if (source === null) return reply;
    const page = source.roomPage(params.data.room, query.data.limit);
    if (page === null) return reply.code(404).send({ error: 'not-found', message: `no room ${JSON.stringify(params.data.room)} in this set-agent-comm store` });
    return page;
  });
}

// ——— projections ———

function projectReasons(reasons: readonly DegradedReason[]): SacDegradedReason[] {
  return reasons.map((reason) => ({
    code: reason.code,
    words: describeReason(reason),
    files: reason.files.slice(0, REASON_FILES_SHOWN),
    filesTotal: reason.files.length,
    ...(reason.ranges !== undefined ? { ranges: reason.ranges.slice(0, REASON_FILES_SHOWN).map((range) => ({ file: range.file, start: range.start, end: range.end })) } : {}),
  }));
}

function projectSummary(ref: SourceRef, view: SeatSummary, lastSeen: string | null): SacSeatSummary {
  const focus = view.focus;
  const presence = view.presence;
  const c = view.counts;
  return {
    source: { kind: 'sac', id: ref.id },
    id: view.name.seat,
    seat: view.name.seat,
    cwd: view.project.project,
    agent: view.name.agent,
    host: view.name.host,
    session: view.session.state === 'known' ? { state: 'known', session: view.session.session } : { state: 'unknown', why: view.session.why },
    project: { project: view.project.project, from: view.project.from },
    lastSeen,
    lastAt: view.lastInstant === null ? null : new Date(view.lastInstant).toISOString(),
    rooms: view.rooms.map((room) => ({ room: room.room, kind: room.kind.kind, left: room.left, because: [...room.because] })),
    focus:
      focus.state === 'declared'
        ? { state: 'declared', text: focus.text, files: [...focus.files], phase: focus.phase, ts: focus.ts, freshness: focus.freshness }
        : focus.state === 'none'
          ? { state: 'none' }
          : { state: 'unknown', why: focus.why },
    presence:
      presence.state === 'quiet'
        ? { state: 'quiet', since: presence.since, until: presence.until }
        : presence.state === 'expired'
          ? { state: 'expired', until: presence.until }
          : presence.state === 'not-quiet'
            ? { state: 'not-quiet' }
            : { state: 'unknown', why: presence.why },
    liveness: { word: view.liveness.word, basis: 'derived', why: view.liveness.why },
    neverWrote: view.neverWrote,
    counts: { sent: c.sent, received: c.received, toSeat: c.toSeat, toAgent: c.toAgent, toEveryone: c.toEveryone, toOthers: c.toOthers, unread: c.unread, pending: c.pending, torn: c.torn },
    degraded: projectReasons(view.degraded),
  };
}

function projectRoomSummary(ref: SourceRef, fold: RoomFold): SacRoomSummary {
  let last: SacRoomSummary['last'] = null;
  for (let i = fold.items.length - 1; i >= 0; i--) {
    const item = fold.items[i]!.item;
    if (item.type !== 'entry') continue;
    last = { seat: fold.items[i]!.seat, time: item.facts.time, at: item.facts.instant === null ? null : new Date(item.facts.instant).toISOString(), entryType: item.facts.type };
    break;
  }
  const c = fold.counts;
  return {
    source: { kind: 'sac', id: ref.id },
    room: fold.room,
    kind: fold.kind.kind,
    pair: fold.kind.kind === 'pair' ? [fold.kind.pair[0], fold.kind.pair[1]] : null,
    kindWhy: fold.kind.kind === 'unknown' ? fold.kind.why : null,
    seats: [...fold.seats],
    entries: c.entries,
    neverWrote: c.neverWrote,
    pending: c.pending,
    torn: c.torn,
    changed: c.changed,
    strayText: c.strayText,
    sharingTime: c.sharingTime,
    last,
    degraded: projectReasons(fold.degraded),
  };
}

/** Bytes cut at a limit end on a whole UTF-8 character: a cut inside one is not the writer's bad byte. */
function cutAtCharacter(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  let back = 0;
  while (end > 0 && back < 3 && (bytes[end - 1]! & 0xc0) === 0x80) {
    end--;
    back++;
  }
  if (end > 0 && bytes[end - 1]! >= 0xc0) {
    const lead = bytes[end - 1]!;
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (back + 1 < need) return bytes.subarray(0, end - 1);
  }
  return bytes;
}

/**
 * Which writers' pids are running on this machine, for liveness derived as sac derives it.
 * Signal 0 sends nothing: it only asks. A remote seat's pids are another machine's: not asked.
 */
function checkProcesses(store: StoreFacts): Map<number, ProcessState> {
  const states = new Map<number, ProcessState>();
  if (store.registry.state !== 'read') return states;
  for (const seat of store.registry.facts.seats) {
    if (seat.remote) continue;
    for (const writer of seat.writers) {
      if (writer.pid === null || states.has(writer.pid)) continue;
      try {
        process.kill(writer.pid, 0);
        states.set(writer.pid, 'running');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ESRCH') states.set(writer.pid, 'exited');
        else if (code === 'EPERM') states.set(writer.pid, 'running');
      }
    }
  }
  return states;
}
