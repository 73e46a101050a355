import type { EntryFacts } from './entry.ts';
import type { EvidenceState, Touch } from './evidence.ts';
import { PENDING_WINDOW_MS, isAlreadyDamaged } from './evidence.ts';

// What a reader concludes each time it looks at a file, given what it concluded before. The
// writer writes each file once (rule.oneWriter), so the first complete read is the evidence and
// any later difference is something else touching the record.

/** What one look at a file found. `changedAt` is when the file last changed (epoch ms). */
export type Observation =
  | { type: 'entry'; facts: EntryFacts; fingerprint: number; size: number; changedAt: number }
  | { type: 'unparsed'; why: string; size: number; changedAt: number }
  | { type: 'invalid'; why: string; fingerprint: number; size: number }
  /** Not an entry: a name that is not an entry's, or a link, folder or device. Never read. */
  | { type: 'stray'; why: string; size: number }
  /** `size` when the file could be stat'ed (a file too large to read has one). */
  | { type: 'unreadable'; why: string; size?: number }
  | { type: 'gone' };

/** What the reader holds of a file between looks. */
export type Conclusion = {
  evidence: EvidenceState;
  why: string | null;
  size: number;
  /** The facts of the entry as first read; kept when the file later changes or disappears. */
  facts: EntryFacts | null;
  /** The fingerprint of the first complete JSON read; null until the file parsed once. */
  fingerprint: number | null;
  /**
   * When the reader first saw the file not parsing, on the reader's own clock: the pending
   * window runs from then, whatever the file's mtime says. Set only while it never parsed.
   */
  pendingSince?: number;
  /**
   * The latest thing seen to happen to the file after it was read. Kept when the file comes back
   * as it was read: the episode is evidence that something touched the record.
   */
  touched?: Touch;
};

/**
 * Concludes from a new look at a file. Returns null when there is nothing left to show.
 * `now` is the wall clock (epoch ms), which mtimes are compared with; `readerNow` is the reader's
 * own steady clock, which times the pending window (it defaults to `now`).
 */
export function concludeObservation(previous: Conclusion | null, seen: Observation, now: number, readerNow = now): Conclusion | null {
  const fingerprint = previous?.fingerprint ?? null;
  const facts = previous?.facts ?? null;
  const read = fingerprint !== null;
  // The marks a conclusion carries on from the one before.
  const kept: Pick<Conclusion, 'pendingSince' | 'touched'> = {};
  if (previous?.pendingSince !== undefined) kept.pendingSince = previous.pendingSince;
  if (previous?.touched !== undefined) kept.touched = previous.touched;
  const changed = (why: string, size: number): Conclusion => ({ evidence: 'changed', why, size, facts, fingerprint, ...kept, touched: 'changed' });
  switch (seen.type) {
    case 'gone':
      // A stray that goes is simply gone; anything that was evidence stays, marked removed
      // (the writer never deletes: rule.neverPruned).
      if (previous === null || previous.evidence === 'stray') return null;
      return {
        ...previous,
        evidence: 'removed',
        why: read ? 'removed after it was read' : 'removed before it ever parsed',
        ...(read ? { touched: 'removed' as const } : {}),
      };
    case 'stray':
      // Whatever now holds the name of a file that was read (a link, a pipe, a folder) took the
      // place of that file: the file changed after it was read, and what it said is kept.
      if (read) return changed(`changed after it was read: now ${seen.why}`, seen.size);
      return { evidence: 'stray', why: seen.why, size: seen.size, facts: null, fingerprint: null };
    case 'unreadable':
      return { evidence: 'unreadable', why: seen.why, size: seen.size ?? previous?.size ?? 0, facts, fingerprint, ...kept };
    case 'entry':
      if (read && fingerprint !== seen.fingerprint) return changed('changed after it was read', seen.size);
      return { evidence: 'parsed', why: null, size: seen.size, facts: seen.facts, fingerprint: seen.fingerprint, ...touchedOf(kept) };
    case 'invalid':
      if (read && fingerprint !== seen.fingerprint) return changed(`changed after it was read, and now ${seen.why}`, seen.size);
      return { evidence: 'invalid', why: seen.why, size: seen.size, facts: null, fingerprint: seen.fingerprint, ...touchedOf(kept) };
    case 'unparsed': {
      if (read) return changed(`changed after it was read, and no longer parses (${seen.why})`, seen.size);
      // The first look decides whether the file was already too old to be still being written;
      // after that only the reader's clock counts, so a file dated in the future cannot stay
      // pending, and one that keeps changing without parsing is damaged all the same.
      const first = kept.pendingSince === undefined;
      const pendingSince = kept.pendingSince ?? readerNow;
      const damaged = first
        ? isAlreadyDamaged(now, seen.changedAt)
        : previous?.evidence === 'damaged' || readerNow - pendingSince >= PENDING_WINDOW_MS;
      return { evidence: damaged ? 'damaged' : 'pending', why: seen.why, size: seen.size, facts: null, fingerprint: null, pendingSince };
    }
  }
}

function touchedOf(kept: Pick<Conclusion, 'touched'>): Pick<Conclusion, 'touched'> {
  return kept.touched === undefined ? {} : { touched: kept.touched };
}
