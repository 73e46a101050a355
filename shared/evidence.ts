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
 * What was seen to happen to a file after it was read, kept when the file comes back as it was
 * read: something other than the writer touched the record (rule.oneWriter, rule.neverPruned).
 */
export type Touch = 'changed' | 'removed';

/**
 * How long the reader waits for a file to parse, from when it first saw it, on its own clock. A
 * writer that is alive finishes an entry well within this; a file still unparsed was cut short.
 */
export const PENDING_WINDOW_MS = 10_000;

/**
 * The pending window a reader keeps, when it is not PENDING_WINDOW_MS: a test's own reader, or a
 * command a test starts with REC_DASHBOARD_TEST_PENDING_WINDOW_MS (server/cliArgs.ts), waits a
 * shorter one. A person's dashboard always keeps PENDING_WINDOW_MS.
 */
export type PendingWindow = { pendingWindowMs?: number | undefined };

/**
 * Whether a file that does not parse, seen for the first time, was already older than the window
 * (`now` and `changedAt`, its mtime, in epoch milliseconds): then it is damaged at once. A file
 * dated in the future (a clock set wrong, a touched file) tells nothing of its age, so it is not.
 */
export function isAlreadyDamaged(now: number, changedAt: number, windowMs = PENDING_WINDOW_MS): boolean {
  return now - changedAt >= windowMs;
}

/**
 * The reader's first look at something unfinished there (a file that does not parse yet, a line
 * without its newline, a header without its body): on its steady clock, and on the wall clock
 * beside the file's mtime then, both in milliseconds.
 */
export type FirstLook = { steadyAt: number; wallAt: number; changedAt: number };

/**
 * Whether what was first seen unfinished at `first` has outlived the pending window at `steadyNow`
 * (the reader's steady clock): it was already older than the window at that first look, or the
 * window (`windowMs`) has passed since. A file dated in the future waits one window from the first
 * look, never until its mtime comes round. One rule for every kind of store.
 */
export function isPastPendingWindow(first: FirstLook, steadyNow: number, windowMs = PENDING_WINDOW_MS): boolean {
  return isAlreadyDamaged(first.wallAt, first.changedAt, windowMs) || steadyNow - first.steadyAt >= windowMs;
}

/**
 * When to read a pending file again: soon at first, then backing off, never past the moment the
 * window that began at `pendingSince` ends (both on the reader's clock, like `now`), `windowMs` long.
 */
export function nextRetryDelay(attempt: number, now: number, pendingSince: number, windowMs = PENDING_WINDOW_MS): number {
  const backoff = Math.min(50 * 2 ** attempt, 2_000);
  const untilDamaged = Math.max(0, pendingSince + windowMs - now);
  return Math.min(backoff, untilDamaged + 1);
}
