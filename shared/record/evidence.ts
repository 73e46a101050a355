// Evidence states: what the reader can say of each file, as words that cross the wire. Like
// liveness in sac, a state is a word and never a boolean: each word forces its own branch.

export const EVIDENCE_STATES = [
  /** Read and valid: an entry. */
  'parsed',
  /** Does not parse yet; the writer may still be writing it, so it is read again. */
  'pending',
  /** Never parsed within the pending window: unknown evidence, such as a write cut short. */
  'damaged',
  /** JSON that is not a valid entry. */
  'invalid',
  /** A name that is not an entry's: listed, never parsed as evidence. */
  'stray',
  /** Changed after it parsed: the writer writes each file once, so something else touched it. */
  'changed',
  /** Vanished after it was seen: the writer never deletes, so something else removed it. */
  'removed',
  /** The reader was not allowed to read it. */
  'unreadable',
] as const;

export type EvidenceState = (typeof EVIDENCE_STATES)[number];

/**
 * How long after a file last changed the reader keeps waiting for it to parse. A writer that is
 * alive finishes an entry well within this; a file still unparsed after it was cut short.
 */
export const PENDING_WINDOW_MS = 10_000;

/**
 * The state of a file that does not parse, `now` and `changedAt` in epoch milliseconds.
 * A file already older than the window when first seen is damaged at once.
 */
export function unparsedEvidence(now: number, changedAt: number): 'pending' | 'damaged' {
  return now - changedAt < PENDING_WINDOW_MS ? 'pending' : 'damaged';
}

/** When to read a pending file again: soon at first, then backing off, never past the window. */
export function nextRetryDelay(attempt: number, now: number, changedAt: number): number {
  const backoff = Math.min(50 * 2 ** attempt, 2_000);
  const untilDamaged = Math.max(0, changedAt + PENDING_WINDOW_MS - now);
  return Math.min(backoff, untilDamaged + 1);
}
