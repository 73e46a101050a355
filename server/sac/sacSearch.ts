import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { SourceRef } from '../../shared/wire/common.ts';
import { sortSeatFiles } from '../../shared/sac/room.ts';
import { resolveProject } from '../../shared/sac/seat.ts';
import { ENTRY_TYPES } from '../../shared/sac/entryHeader.ts';
import { readEntry, readEntryEvidence, readTail, type SeatFileReading } from '../../shared/sac/seatFile.ts';
import { NotReadTally } from '../../shared/searchNotRead.ts';
import { sacSearchHitSchema, type SacSearchHit } from '../../shared/wire/sac.ts';
import type { KindSearchQuery } from '../../shared/wire/search.ts';
import { mergeNewestFirst, orderNewestFirst } from '../../shared/mergeSorted.ts';
import type { SearchPool } from '../search/searchPool.ts';
import { describeBadSearchText } from '../search/searchText.ts';
import { threadScript } from '../search/threadLane.ts';
import type { SourceSearch } from '../sources/source.ts';
import { LARGE_TEXT_BYTES } from '../export/largeText.ts';
import type { SacReader } from './sacReader.ts';
import type { SacCandidate } from './sacTexts.ts';
import { timeWindowOf } from '../../shared/timeWindow.ts';

/** The module a search thread reads and matches set-agent-comm's candidates with. */
const SAC_SEARCHER = threadScript('sacTexts', import.meta.url);

/**
 * Why a search by side or peer reads no set-agent-comm entry, said beside its results. It says
 * what a seat's page shows, so that the two do not seem to contradict each other: a seat's Sent
 * and Received are that seat's side, which a search of a room's entries does not take.
 */
const SIDE_AND_PEER_KEPT_OUT = "a search reads each entry once, as its room's file holds it, not from one seat's side: a seat's page shows what it wrote and what was addressed to it, but a search by side or peer reads none of its entries (with no side and no peer, it reads them all)";

/** set-agent-comm's words for what a search does not read (shared/searchNotRead.ts). */
const SAC_NOT_READ = {
  torn: { one: 'torn write', many: 'torn writes' },
  unread: { one: 'unreadable or withheld seat file', many: 'unreadable or withheld seat files' },
} as const;

/**
 * Searches a set-agent-comm store's entries, newest first: filters on what the reader's columns
 * hold, then each candidate's body read again from its file for its text, on a search thread
 * (server/search/).
 */
export async function searchSac(reader: SacReader, pool: SearchPool, root: string, ref: SourceRef & { kind: 'sac' }, query: KindSearchQuery<'sac'>, signal: AbortSignal): Promise<SourceSearch> {
  const extra = query;
  // A message's side and peer are the record's and spex's facts: an entry is written by its
  // seat, to whoever `to` names, and is neither sent nor received by the store.
  if (query.side !== undefined || (query.peer !== undefined && query.peer !== '')) {
    return { hits: [], scanned: 0, truncated: false, stoppedEarly: null, keptOut: SIDE_AND_PEER_KEPT_OUT };
  }
  if ((await describeBadSearchText(query)) !== null) return { hits: [], scanned: 0, truncated: false, stoppedEarly: null };
  const inWindow = timeWindowOf(query);
  const store = reader.store();
  type Candidate = { room: string; reading: SeatFileReading; index: number; place: number; project: string };
  // One list a seat file, in the file's order, and the lists merged newest first as the thread
  // asks for them: a search that finds its hits among the newest entries orders no more than it
  // reads.
  const lists: Candidate[][] = [];
  // Writes cut short: an entry's header tells its type and time, a tail without one tells neither.
  const notRead = new NotReadTally(SAC_NOT_READ);
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
      const list: Candidate[] = [];
      for (let i = 0; i < columns.start.length; i++) {
        const instant = columns.instant[i]!;
        if (!Number.isNaN(instant)) place = instant;
        if (extra.type !== undefined && ENTRY_TYPES[columns.word[i]! % 4] !== extra.type) continue;
        if (inWindow !== null && !inWindow(instant)) continue;
        const evidence = readEntryEvidence(reading, i).evidence;
        if (evidence === 'damaged') notRead.add('torn');
        if (evidence !== 'parsed' && evidence !== 'changed') continue;
        list.push({ room: files.room, reading, index: i, place, project });
      }
      if (list.length > 0) lists.push(orderNewestFirst(list, (candidate) => candidate.place));
      if (readTail(reading)?.evidence === 'damaged') notRead.add('torn');
      // What it held when last read is searched; what it holds now is not known.
      if (reading.problem?.code === 'unreadable' || reading.problem?.code === 'withheld') notRead.add('unread');
    }
    if (performance.now() - sliceStart > 8) {
      await yieldToLoop();
      signal.throwIfAborted();
      sliceStart = performance.now();
    }
  }
  // Newest first; equal places keep the rooms' order, as a stable sort does.
  const candidates = mergeNewestFirst(lists, (candidate) => candidate.place);
  const toThread = (candidate: Candidate): SacCandidate | null => {
    const file = reader.seatFile(candidate.room, candidate.reading.seat);
    if (file === null) return null;
    const item = readEntry(candidate.reading, candidate.index);
    return { root, relative: file.relative, identity: file.mark === null ? null : { dev: file.mark.dev, ino: file.mark.ino }, bodyStart: item.bodyStart, length: Math.min(item.end - item.bodyStart, LARGE_TEXT_BYTES), end: item.end };
  };
  const textQuery = query.q === '' ? null : { q: query.q, regex: query.regex === '1', matchCase: query.case === '1' };
  const found = await pool.search(SAC_SEARCHER, candidates, toThread, textQuery, query.limit, signal);
  const hits = found.hits.map(({ candidate, found: { snippet, match, cut } }) => {
    const { room } = candidate;
    const seat = candidate.reading.seat;
    const item = readEntry(candidate.reading, candidate.index);
    const at = new Date(candidate.place).toISOString();
    const hit: SacSearchHit = {
      source: { kind: 'sac', id: ref.id },
      seat,
      room,
      item: `channels/${room}/${seat}.md:${item.start}`,
      time: item.facts.time,
      at,
      entryType: item.facts.type,
      typeWord: item.facts.typeWord,
      to: [...item.facts.to],
      project: candidate.project,
      snippet: snippet ?? '',
      match,
      snippetCut: cut,
    };
    return { at, conversation: seat, hit: sacSearchHitSchema.parse(hit) };
  });
  return { hits, scanned: found.scanned, truncated: found.truncated, stoppedEarly: found.stoppedEarly, notRead: notRead.say() };
}
