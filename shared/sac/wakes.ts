import { findFirst } from './lookup.ts';
import type { FlowItem, RoomKind } from './room.ts';
import type { RosterSeat } from './roster.ts';
import { classifyAddressing } from './seatName.ts';
import type { PresenceFacts, StoreFileReading } from './storeFiles.ts';
import { parseInstant } from './time.ts';

// Who an entry wakes, by sac's own rule (its `wakes()`, "Who a message is for"): the seats named
// in `to` (a seat, or every seat of an agent named); the writer of the entry a `re:` answers; every
// member for a broadcast QUESTION or REQUEST; everything in a room of two; never a seat that
// declared itself quiet, and never the writer. A broadcast FACT or ANSWER wakes nobody. Derived
// here from the room's roster and presence.json as read now, so it is labelled as derived: sac
// decided at the moment of sending, and the letterbox may have declined some of it since.

type WakeRule = 'addressed' | 're' | 'broadcast' | 'pair';

type Wakes = {
  /** The seats it wakes, by name, each with the first rule that wakes it. */
  seats: { seat: string; rule: WakeRule }[];
  /** Seats a rule names that were declared quiet at the entry's time: not woken. */
  quiet: string[];
  /** Why whether a named seat was quiet cannot be told (presence.json unknown); null when it can. */
  quietUnknown: string | null;
};

/** What a room's entries are woken against: its members (those that left wake by nothing), whether it is a room of two, declared presence. */
export type WakeRoom = { members: readonly RosterSeat[]; kind: RoomKind; presence: StoreFileReading<PresenceFacts>; now: number };

/**
 * Who one entry of a room wakes; null for what is not an entry, and for an entry still being
 * written or cut short (torn): sac wakes once its append is done, so whom such a write woke, if
 * anyone, is unknown, however whole its header is.
 */
export function deriveWakes(flow: FlowItem, room: WakeRoom): Wakes | null {
  if (flow.item.type !== 'entry' || flow.item.evidence === 'pending' || flow.item.evidence === 'damaged') return null;
  const facts = flow.item.facts;
  const answered = new Set(flow.re?.entries.map((entry) => entry.seat) ?? []);
  const wakes: Wakes = { seats: [], quiet: [], quietUnknown: room.presence.state === 'unknown' ? room.presence.why : null };
  for (const member of room.members) {
    if (member.left || member.seat === flow.seat) continue;
    const rule = findRule(member.seat, facts.to, facts.type, answered, room.kind);
    if (rule === null) continue;
    if (wasQuiet(member.seat, facts.instant ?? null, room.presence, room.now)) wakes.quiet.push(member.seat);
    else wakes.seats.push({ seat: member.seat, rule });
  }
  return wakes;
}

function findRule(seat: string, to: readonly string[], type: string, answered: ReadonlySet<string>, kind: RoomKind): WakeRule | null {
  if (to.length > 0) {
    const addressing = classifyAddressing(to, seat);
    if (addressing === 'to-seat' || addressing === 'to-agent') return 'addressed';
  }
  if (answered.has(seat)) return 're';
  if (to.length === 0 && (type === 'QUESTION' || type === 'REQUEST')) return 'broadcast';
  if (kind.kind === 'pair') return 'pair';
  return null;
}

/** Whether presence.json has the seat quiet at `instant` (its `since` to its `until`); with no instant to go by, quiet now. */
function wasQuiet(seat: string, instant: number | null, presence: StoreFileReading<PresenceFacts>, now: number): boolean {
  if (presence.state !== 'read') return false;
  const record = findFirst(presence.facts.seats, 'seat', seat);
  if (record === undefined || !record.quiet) return false;
  const since = record.since === null ? null : parseInstant(record.since);
  const until = record.until === null ? null : parseInstant(record.until);
  if (instant === null) return until === null || until > now;
  return (since === null || since <= instant) && (until === null || until > instant);
}
