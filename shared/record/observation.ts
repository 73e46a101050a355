import type { EntryFacts } from './entry.ts';
import type { EvidenceState } from './evidence.ts';
import { unparsedEvidence } from './evidence.ts';

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
  | { type: 'unreadable'; why: string }
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
};

/** Concludes from a new look at a file. Returns null when there is nothing left to show. */
export function concludeObservation(previous: Conclusion | null, seen: Observation, now: number): Conclusion | null {
  const fingerprint = previous?.fingerprint ?? null;
  const facts = previous?.facts ?? null;
  switch (seen.type) {
    case 'gone':
      // A stray that goes is simply gone; anything that was evidence stays, marked removed
      // (the writer never deletes: rule.neverPruned).
      if (previous === null || previous.evidence === 'stray') return null;
      return {
        ...previous,
        evidence: 'removed',
        why: fingerprint === null ? 'removed before it ever parsed' : 'removed after it was read',
      };
    case 'stray':
      return { evidence: 'stray', why: seen.why, size: seen.size, facts: null, fingerprint: null };
    case 'unreadable':
      return { evidence: 'unreadable', why: seen.why, size: previous?.size ?? 0, facts, fingerprint };
    case 'entry':
      if (fingerprint !== null && fingerprint !== seen.fingerprint) {
        return { evidence: 'changed', why: 'changed after it was read', size: seen.size, facts, fingerprint };
      }
      return { evidence: 'parsed', why: null, size: seen.size, facts: seen.facts, fingerprint: seen.fingerprint };
    case 'invalid':
      if (fingerprint !== null && fingerprint !== seen.fingerprint) {
        return { evidence: 'changed', why: `changed after it was read, and now ${seen.why}`, size: seen.size, facts, fingerprint };
      }
      return { evidence: 'invalid', why: seen.why, size: seen.size, facts: null, fingerprint: seen.fingerprint };
    case 'unparsed':
      if (fingerprint !== null) {
        return { evidence: 'changed', why: `changed after it was read, and no longer parses (${seen.why})`, size: seen.size, facts, fingerprint };
      }
      return { evidence: unparsedEvidence(now, Math.min(seen.changedAt, now)), why: seen.why, size: seen.size, facts: null, fingerprint: null };
  }
}
