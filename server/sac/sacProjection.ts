import { PAGE_TEXT_LIMIT_BYTES, type LargeText, type SourceRef } from '../../shared/wire/common.ts';
import { describeReason, type DegradedReason } from '../../shared/sac/degraded.ts';
import type { RoomFolder } from '../../shared/sac/knownRooms.ts';
import { readSeatFilePath } from '../../shared/sac/layout.ts';
import type { FlowItem, RoomFold } from '../../shared/sac/room.ts';
import type { ReceivedItem, SeatSummary } from '../../shared/sac/seat.ts';
import { readHeader } from '../../shared/sac/entryHeader.ts';
import { readBodyText, readRawText, type SeatFileItem } from '../../shared/sac/seatFile.ts';
import type { MemberReading, RoomMember } from '../../shared/sac/roster.ts';
import { deriveWakes, type WakeRoom } from '../../shared/sac/wakes.ts';
import { cutAtCharacter } from '../../shared/textHead.ts';
import type { SacDegradedReason, SacFlowItem, SacReading, SacRoomMember, SacRoomSummary, SacSeatSummary } from '../../shared/wire/sac.ts';
import { LARGE_TEXT_BYTES, markLargeText } from '../export/largeText.ts';
import type { SacReader } from './sacReader.ts';
import { readSeatRange } from './storeOpen.ts';

// The projection of a set-agent-comm store: seats are its conversations (grouped by the
// registry's project), rooms a view of their own. Core folds become wire objects here, written
// out field by field; texts are read from disk for a page, an item or a search, never kept.

const REASON_FILES_SHOWN = 20;

export type FlowProjection = ReturnType<typeof createFlowProjection>;

/** Stretches of seat files said in the wire's words, their texts read again from disk. */
export function createFlowProjection(reader: SacReader, root: string, ref: SourceRef & { kind: 'sac' }, wakeRoomOf: (room: string) => WakeRoom) {
  function readText(item: SeatFileItem, room: string, seat: string, clip: boolean): { text: string | null; clipped?: { bytes: number }; large?: LargeText } {
    const file = reader.seatFile(room, seat);
    if (file === null) return { text: null };
    const from = item.type === 'entry' ? item.bodyStart : item.start;
    const wanted = item.end - from;
    // A body too large to read whole is read as far as a page's limit, for an item too.
    const large = wanted > LARGE_TEXT_BYTES;
    const limit = clip || large ? Math.min(wanted, PAGE_TEXT_LIMIT_BYTES) : wanted;
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
      return large ? { text: decoded, large: markLargeText('body', wanted, decoded) } : { text: decoded, clipped: { bytes: wanted } };
    }
    return { text: item.type === 'entry' ? readBodyText(body) : readRawText(body) };
  }

  function projectFlow(room: string, flow: FlowItem, received: ReceivedItem | null, clip: boolean): SacFlowItem {
    const item = flow.item;
    const { text, clipped, large } = readText(item, room, flow.seat, clip);
    const file = `channels/${room}/${flow.seat}.md`;
    const entry = item.type === 'entry' ? item : null;
    const wakes = deriveWakes(flow, wakeRoomOf(room));
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
      ...(large !== undefined ? { large } : {}),
      addressing: received?.addressing ?? null,
      sacCursor: received?.sacCursor ?? null,
      sibling: received?.sibling ?? false,
      wakes: wakes === null ? null : { basis: 'derived', seats: wakes.seats.map((seat) => ({ seat: seat.seat, rule: seat.rule })), quiet: [...wakes.quiet], quietUnknown: wakes.quietUnknown },
    };
  }
  return { readText, projectFlow };
}

function projectReasons(reasons: readonly DegradedReason[]): SacDegradedReason[] {
  return reasons.map((reason) => ({
    code: reason.code,
    words: describeReason(reason),
    files: reason.files.slice(0, REASON_FILES_SHOWN),
    filesTotal: reason.files.length,
    ...(reason.ranges !== undefined ? { ranges: reason.ranges.slice(0, REASON_FILES_SHOWN).flatMap((range) => projectRange(range)) } : {}),
  }));
}

/** A stretch a reason rests on, with the seat whose file it is and the flow item it is, so the browser links to both. */
function projectRange(range: { file: string; start: number; end: number }): NonNullable<SacDegradedReason['ranges']> {
  const of = readSeatFilePath(range.file);
  return of === null ? [] : [{ file: range.file, start: range.start, end: range.end, room: of.room, seat: of.seat, item: `${range.file}:${range.start}` }];
}

function projectFocus(focus: SeatSummary['focus']): SacSeatSummary['focus'] {
  return focus.state === 'declared'
    ? { state: 'declared', text: focus.text, files: [...focus.files], phase: focus.phase, ts: focus.ts, freshness: focus.freshness }
    : focus.state === 'none'
      ? { state: 'none' }
      : { state: 'unknown', why: focus.why };
}

function projectPresence(presence: SeatSummary['presence']): SacSeatSummary['presence'] {
  return presence.state === 'quiet'
    ? { state: 'quiet', since: presence.since, until: presence.until }
    : presence.state === 'expired'
      ? { state: 'expired', until: presence.until }
      : presence.state === 'not-quiet'
        ? { state: 'not-quiet' }
        : { state: 'unknown', why: presence.why };
}

/** How far sac's cursor has a seat read, in the wire's words. */
function projectReading(reading: MemberReading): SacReading {
  switch (reading.state) {
    case 'behind':
      return { state: 'behind', unread: reading.unread };
    case 'gone':
      return { state: 'gone', backlog: reading.backlog };
    case 'unknown':
      return { state: 'unknown', why: reading.why };
    case 'caught-up':
      return { state: 'caught-up' };
  }
}

/** A room's members, said in the wire's words. */
export function projectMembers(members: readonly RoomMember[]): SacRoomMember[] {
  return members.map((member) => ({
    seat: member.seat,
    because: [...member.because],
    left: member.left,
    file: member.file,
    liveness: { word: member.liveness.word, basis: 'derived', why: member.liveness.why },
    presence: projectPresence(member.presence),
    focus: projectFocus(member.focus),
    reading: projectReading(member.reading),
  }));
}

export function projectSummary(ref: SourceRef, view: SeatSummary, lastSeen: string | null): SacSeatSummary {
  const c = view.counts;
  return {
    source: { kind: 'sac', id: ref.id },
    id: view.name.seat,
    seat: view.name.seat,
    cwd: view.project.project,
    agent: view.name.agent,
    host: view.name.host,
    session: view.session.state === 'known' ? { state: 'known', session: view.session.session } : { state: 'unknown', why: view.session.why },
    statedSession: view.session.state === 'known' ? view.session.session : null,
    project: { project: view.project.project, from: view.project.from },
    lastSeen,
    lastAt: view.lastInstant === null ? null : new Date(view.lastInstant).toISOString(),
    rooms: view.rooms.map((room) => ({ room: room.room, kind: room.kind.kind, left: room.left, because: [...room.because] })),
    focus: projectFocus(view.focus),
    presence: projectPresence(view.presence),
    liveness: { word: view.liveness.word, basis: 'derived', why: view.liveness.why },
    neverWrote: view.neverWrote,
    counts: { sent: c.sent, received: c.received, toSeat: c.toSeat, toAgent: c.toAgent, toEveryone: c.toEveryone, toOthers: c.toOthers, unread: c.unread, pending: c.pending, torn: c.torn },
    reading: projectReading(view.reading),
    degraded: projectReasons(view.degraded),
  };
}

export function projectRoomSummary(ref: SourceRef, fold: RoomFold, members: readonly RoomMember[], folder: RoomFolder = { state: 'present' }): SacRoomSummary {
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
    folder: folder.state === 'archived' ? { state: 'archived', path: folder.path } : { state: folder.state },
    seats: [...fold.seats],
    members: projectMembers(members),
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
