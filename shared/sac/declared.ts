import { findFirst } from './lookup.ts';
import { parseInstant } from './time.ts';
import type { FocusFacts, PresenceFacts, StoreFileReading } from './storeFiles.ts';

// What a seat declared about itself: its focus (focus.json) and a quiet presence (presence.json).
// Declared, never inferred; read as sac's `getFocus` and `seatPresence` read them, with unknown
// where the file cannot say.

/** A focus older than this is still reported, marked stale (sac's FOCUS_STALE_MS). */
export const FOCUS_STALE_MS = 4 * 60 * 60_000;

export type Focus =
  | {
      state: 'declared';
      text: string;
      files: string[];
      /** One of sac's phases (explore, plan, apply, verify, blocked) as written, or none. */
      phase: string | null;
      ts: string;
      /** Its age at `now`; null when its time names no instant. */
      ageMs: number | null;
      /** "They said X, four hours ago" is still worth showing: stale is a mark, not a drop. */
      freshness: 'fresh' | 'stale' | 'unknown';
    }
  | { state: 'none' }
  | { state: 'unknown'; why: string };

export function resolveFocus(seat: string, focus: StoreFileReading<FocusFacts>, now: number): Focus {
  if (focus.state === 'unknown') return { state: 'unknown', why: focus.why };
  if (focus.state === 'absent') return { state: 'none' };
  const record = findFirst(focus.facts.seats, 'seat', seat);
  if (record === undefined) {
    return focus.invalid.some((invalid) => invalid.key === seat) ? { state: 'unknown', why: 'its record in focus.json is not as sac writes it' } : { state: 'none' };
  }
  const at = parseInstant(record.ts);
  const ageMs = at === null ? null : now - at;
  const freshness = ageMs === null ? 'unknown' : ageMs > FOCUS_STALE_MS ? 'stale' : 'fresh';
  return { state: 'declared', text: record.text, files: record.files, phase: record.phase, ts: record.ts, ageMs, freshness };
}

export type Presence =
  /** Declared quiet: not to be woken; it still reads everything. `until` null: until it says otherwise. */
  | { state: 'quiet'; since: string | null; until: string | null }
  /** Was declared quiet until a time now past: an expiry in the past is simply absent. */
  | { state: 'expired'; until: string }
  | { state: 'not-quiet' }
  | { state: 'unknown'; why: string };

export function resolvePresence(seat: string, presence: StoreFileReading<PresenceFacts>, now: number): Presence {
  if (presence.state === 'unknown') return { state: 'unknown', why: presence.why };
  if (presence.state === 'absent') return { state: 'not-quiet' };
  const record = findFirst(presence.facts.seats, 'seat', seat);
  if (record === undefined) {
    return presence.invalid.some((invalid) => invalid.key === seat) ? { state: 'unknown', why: 'its record in presence.json is not as sac writes it' } : { state: 'not-quiet' };
  }
  if (!record.quiet) return { state: 'not-quiet' };
  // sac compares `Date.parse(until) <= now`: an `until` that names no instant never ends it.
  const until = record.until === null ? null : parseInstant(record.until);
  if (record.until !== null && until !== null && until <= now) return { state: 'expired', until: record.until };
  return { state: 'quiet', since: record.since, until: record.until };
}
