import type { LiveItem, SourceRef } from '../../shared/wire/common.ts';
import type { EvidenceState } from '../../shared/evidence.ts';
import type { RoomFiles } from '../../shared/sac/seat.ts';
import { readEntry, readEntryEvidence, readTail, strayTextEnd, type SeatFileEntry, type SeatFileReading } from '../../shared/sac/seatFile.ts';
import { sourceViewAddress } from '../../shared/wire/paths.ts';

// set-agent-comm's items as the live view lists them: each entry a seat appends, told as its
// writer's (an entry is sent by the seat whose file holds it), in sac's words, each state of it
// once (being written, then the entry, or a torn write). Only what changed since the last notice
// is looked at: a file's closed entries never change state, so a file is looked at from its last
// entry told onwards, and a store of millions of entries costs a notice what its new ones cost.

/** What was told of one seat file, as of the reading last looked at. */
type Told = {
  reading: SeatFileReading;
  /** Entries looked at: those before the last of them are closed, and their state told. */
  entries: number;
  /** The state told of the last entry looked at (it is open: it may still change). */
  lastEvidence: EvidenceState | null;
  tail: { start: number; evidence: EvidenceState } | null;
  strayTold: boolean;
  changedTold: boolean;
};

type LiveItemsOf = {
  /** What every file holds now is taken as told: the first scan's entries are not told item by item. */
  takeAsTold(rooms: readonly RoomFiles[]): void;
  /** The items of the given rooms that are new or changed since last told, by seat, each file in its order. */
  collect(rooms: readonly RoomFiles[]): Map<string, LiveItem[]>;
  /** Forgets the files of rooms gone (archived): a room that comes back is new. */
  forgetRoomsBut(rooms: ReadonlySet<string>): void;
};

type Reading = {
  ref: SourceRef;
  /** The first line of an entry's body, read from disk (≤ 200 characters, verbatim); null when it cannot be read. */
  firstLineOf(room: string, seat: string, entry: SeatFileEntry): string | null;
  /** Whether a tail's bytes begin a header (`## `): an entry being written, rather than more of the last entry's body. */
  beginsHeader(room: string, seat: string, start: number): boolean;
};

const WORDS_BEING_WRITTEN = 'being written';
const WORDS_STRAY = 'stray text before the file’s first header: not an entry';

export function createLiveItems(reading: Reading): LiveItemsOf {
  const told = new Map<string, Map<string, Told>>();

  function fileKey(room: string, seat: string): string {
    return `channels/${room}/${seat}.md`;
  }

  function link(room: string, item: string): string {
    return sourceViewAddress(reading.ref.id, 'rooms', room, item);
  }

  function tailOf(file: SeatFileReading): Told['tail'] {
    const stretch = readTail(file);
    return stretch === null ? null : { start: stretch.start, evidence: stretch.evidence };
  }

  function noteTold(file: SeatFileReading): Told {
    const n = file.entries.start.length;
    return {
      reading: file,
      entries: n,
      lastEvidence: n === 0 ? null : readEntryEvidence(file, n - 1).evidence,
      tail: tailOf(file),
      strayTold: strayTextEnd(file) > 0,
      changedTold: file.problem?.code === 'changed-after-read',
    };
  }

  function projectEntry(room: string, entry: SeatFileEntry, seat: string): LiveItem {
    const item = `${fileKey(room, seat)}:${entry.start}`;
    const facts = entry.facts;
    const to = facts.to.length === 0 ? 'everyone' : facts.to.join(', ');
    const parsed = entry.evidence === 'parsed';
    return {
      key: item,
      at: facts.instant === null ? null : new Date(facts.instant).toISOString(),
      kind: facts.typeWord,
      side: 'sent',
      peer: to,
      words: parsed
        ? `${facts.typeWord}${facts.typeWord === facts.type ? '' : ` (${facts.type})`} to ${to}`
        : entry.evidence === 'pending'
          ? WORDS_BEING_WRITTEN
          : (entry.why ?? entry.evidence),
      refused: false,
      evidence: entry.evidence,
      degraded: !parsed,
      firstLine: parsed ? reading.firstLineOf(room, seat, entry) : null,
      link: link(room, item),
    };
  }

  function projectStretch(room: string, seat: string, start: number, evidence: EvidenceState, words: string): LiveItem {
    const item = `${fileKey(room, seat)}:${start}`;
    return { key: item, at: null, kind: null, side: null, peer: null, words, refused: false, evidence, degraded: true, firstLine: null, link: link(room, item) };
  }

  function collectFile(room: string, file: SeatFileReading, before: Told | undefined, items: LiveItem[]): Told {
    const seat = file.seat;
    if (file.problem?.code === 'changed-after-read') {
      // The whole file is in doubt, not one entry: it is told once, as the file, at its first stretch.
      if (before?.changedTold !== true) {
        items.push(projectStretch(room, seat, 0, 'changed', `changed after it was read: ${file.problem.why}`));
      }
      return { ...(before ?? noteTold(file)), reading: file, changedTold: true };
    }
    // Stray text is not an entry: it is told only as the degraded evidence it is, once.
    const strayTold = before?.strayTold === true || strayTextEnd(file) > 0;
    if (before?.strayTold !== true && strayTextEnd(file) > 0) items.push(projectStretch(room, seat, 0, 'stray', WORDS_STRAY));
    const n = file.entries.start.length;
    const had = before?.entries ?? 0;
    let lastEvidence: EvidenceState | null = before?.lastEvidence ?? null;
    const tailBefore = before?.tail ?? null;
    for (let i = Math.max(0, had - 1); i < n; i++) {
      const { evidence } = readEntryEvidence(file, i);
      // The last entry told before: told again only when its state changed (closed torn, or its body came).
      if (i === had - 1 && evidence === before?.lastEvidence) continue;
      // A header told while it was being written is the same item once whole, in the same state.
      if (i >= had && tailBefore !== null && tailBefore.start === file.entries.start[i] && tailBefore.evidence === evidence) continue;
      items.push(projectEntry(room, readEntry(file, i), seat));
    }
    if (n > 0) lastEvidence = readEntryEvidence(file, n - 1).evidence;
    let tail: Told['tail'] = null;
    const stretch = readTail(file);
    if (stretch !== null) {
      const same = tailBefore !== null && tailBefore.start === stretch.start && tailBefore.evidence === stretch.evidence;
      // A torn tail is told always; a pending one only when it begins a header, so that its row
      // turns into the entry of the same key: a piece of the last entry's body never becomes one.
      // One not told is looked at again with the next change.
      if (same || stretch.evidence !== 'pending' || reading.beginsHeader(room, seat, stretch.start)) {
        tail = { start: stretch.start, evidence: stretch.evidence };
        if (!same) items.push(projectStretch(room, seat, stretch.start, stretch.evidence, stretch.evidence === 'pending' ? WORDS_BEING_WRITTEN : (stretch.why ?? stretch.evidence)));
      }
    }
    return { reading: file, entries: n, lastEvidence, tail, strayTold, changedTold: false };
  }

  return {
    takeAsTold(rooms) {
      told.clear();
      for (const room of rooms) {
        const files = new Map<string, Told>();
        for (const file of room.files) files.set(file.seat, noteTold(file));
        told.set(room.room, files);
      }
    },
    collect(rooms) {
      const bySeat = new Map<string, LiveItem[]>();
      for (const room of rooms) {
        let files = told.get(room.room);
        if (files === undefined) told.set(room.room, (files = new Map()));
        const present = new Set<string>();
        for (const file of room.files) {
          present.add(file.seat);
          const before = files.get(file.seat);
          if (before !== undefined && before.reading === file) continue;
          let items = bySeat.get(file.seat);
          if (items === undefined) bySeat.set(file.seat, (items = []));
          files.set(file.seat, collectFile(room.room, file, before, items));
        }
        for (const seat of files.keys()) if (!present.has(seat)) files.delete(seat);
      }
      for (const [seat, items] of bySeat) if (items.length === 0) bySeat.delete(seat);
      return bySeat;
    },
    forgetRoomsBut(rooms) {
      for (const room of told.keys()) if (!rooms.has(room)) told.delete(room);
    },
  };
}

