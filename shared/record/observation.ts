import type { EntryFacts } from './entry.ts';
import type { EvidenceState, Touch } from '../evidence.ts';
import { PENDING_WINDOW_MS, isAlreadyDamaged } from '../evidence.ts';
import type { EntryName } from './entryName.ts';
import type { FileSeen, KnownFile } from './knownFile.ts';

// What a reader concludes each time it looks at a file, given what it held of it before: an
// observation (what one look found) in, the file as the reader now knows it out. The
// writer writes each file once (rule.oneWriter), so the first complete read is the evidence and
// any later difference is something else touching the record.

/** The head of the why of an entry's name that holds no file the reader reads: a link, a pipe, a folder, another store's secret. */
export const UNREAD_ENTRY = 'not read, so what this entry said is unknown: ';

/** What one look at a file found. `changedAt` is when the file last changed (epoch ms). */
export type Observation =
  | { type: 'entry'; facts: EntryFacts; fingerprint: number; size: number; changedAt: number }
  | { type: 'unparsed'; why: string; size: number; changedAt: number }
  | { type: 'invalid'; why: string; fingerprint: number; size: number }
  /**
   * No entry read: a name that is not an entry's, or, under any name, a link, a folder, a pipe, a
   * device or another store's secret, never read. A file concludes it is a stray only when its
   * name is no entry's; under an entry's name it is unreadable, in that entry's place.
   */
  | { type: 'stray'; why: string; size: number }
  /** `size` when the file could be stat'ed (a file too large to read has one). */
  | { type: 'unreadable'; why: string; size?: number }
  | { type: 'gone' };

/**
 * Concludes from a new look at `file`. Returns null when there is nothing left to show.
 * `now` is the wall clock (epoch ms), which mtimes are compared with; `readerNow` is the reader's
 * own steady clock (it defaults to `now`), which times the pending window, `windowMs` long.
 */
export function concludeObservation(
  previous: KnownFile | null,
  file: FileSeen,
  seen: Observation,
  now: number,
  readerNow = now,
  windowMs = PENDING_WINDOW_MS,
): KnownFile | null {
  const fingerprint = previous?.fingerprint ?? null;
  const facts = previous?.facts ?? null;
  const read = fingerprint !== null;
  const pendingSince = previous?.pendingSince;
  const touched = previous?.touched;
  switch (seen.type) {
    case 'gone':
      // A stray that goes is simply gone; anything that was evidence stays, marked removed
      // (the writer never deletes: rule.neverPruned).
      if (previous === null || previous.evidence === 'stray') return null;
      // What held an entry's name and was never read (a link, a pipe) is gone: the name holds
      // nothing now, which the sequence's gap says; nothing of it was read to keep.
      if (previous.evidence === 'unreadable' && previous.fingerprint === null && previous.why?.startsWith(UNREAD_ENTRY) === true) return null;
      return makeKnown(previous, file, 'removed', read ? 'removed after it was read' : 'removed before it ever parsed', previous.size, facts, fingerprint, pendingSince, read ? 'removed' : touched);
    case 'stray':
      // Whatever now holds the name of a file that was read (a link, a pipe, a folder) took the
      // place of that file: the file changed after it was read, and what it said is kept.
      if (read) return makeKnown(previous, file, 'changed', `changed after it was read: now ${seen.why}`, seen.size, facts, fingerprint, pendingSince, 'changed');
      // Under an entry's name it holds that entry's place: what the entry said, if there was one,
      // is unknown, not missing (a gap would say no file has the name) and not a stray's (whose
      // name is no entry's).
      if (file.entryName !== null) return makeKnown(previous, file, 'unreadable', `${UNREAD_ENTRY}${seen.why}`, seen.size, null, null, undefined, touched);
      return makeKnown(previous, file, 'stray', seen.why, seen.size, null, null, undefined, undefined);
    case 'unreadable':
      return makeKnown(previous, file, 'unreadable', seen.why, seen.size ?? previous?.size ?? 0, facts, fingerprint, pendingSince, touched);
    case 'entry':
      if (read && fingerprint !== seen.fingerprint) return makeKnown(previous, file, 'changed', 'changed after it was read', seen.size, facts, fingerprint, pendingSince, 'changed');
      return makeKnown(previous, file, 'parsed', null, seen.size, seen.facts, seen.fingerprint, undefined, touched);
    case 'invalid':
      if (read && fingerprint !== seen.fingerprint) return makeKnown(previous, file, 'changed', `changed after it was read, and now ${seen.why}`, seen.size, facts, fingerprint, pendingSince, 'changed');
      return makeKnown(previous, file, 'invalid', seen.why, seen.size, null, seen.fingerprint, undefined, touched);
    case 'unparsed': {
      if (read) return makeKnown(previous, file, 'changed', `changed after it was read, and no longer parses (${seen.why})`, seen.size, facts, fingerprint, pendingSince, 'changed');
      // The first look decides whether the file was already too old to be still being written;
      // after that only the reader's clock counts, so a file dated in the future cannot stay
      // pending, and one that keeps changing without parsing is damaged all the same.
      const since = pendingSince ?? readerNow;
      const damaged =
        pendingSince === undefined
          ? isAlreadyDamaged(now, seen.changedAt, windowMs)
          : previous?.evidence === 'damaged' || readerNow - since >= windowMs;
      return makeKnown(previous, file, damaged ? 'damaged' : 'pending', seen.why, seen.size, null, null, since, undefined);
    }
  }
}

/**
 * What the reader concludes of a file it held nothing of, at its first look, when the look found
 * an entry: what concludeObservation(null, ...) concludes of the same look, made without the
 * look's own object (a first scan adopts a hundred thousand of them, handed over packed).
 */
export function concludeFirstEntry(name: string, entryName: EntryName | null, mtimeMs: number, facts: EntryFacts, fingerprint: number, size: number): KnownFile {
  return { name, entryName, evidence: 'parsed', why: null, size, facts, fingerprint, mtimeMs } as KnownFile;
}

/**
 * Every file is made here (and in concludeFirstEntry, which makes the same fields), fields always in one order: the index keeps a million of them, and a
 * scan makes them a hundred thousand a second (no function is made for each).
 */
function makeKnown(
  previous: KnownFile | null,
  file: FileSeen,
  evidence: EvidenceState,
  why: string | null,
  size: number,
  facts: EntryFacts | null,
  fingerprint: number | null,
  since: number | undefined,
  touched: Touch | undefined,
): KnownFile {
  // The same name parses to the same entry name: one copy of it is enough.
  const made = { name: file.name, entryName: previous?.entryName ?? file.entryName, evidence, why, size, facts, fingerprint, mtimeMs: file.mtimeMs } as KnownFile;
  if (since !== undefined) made.pendingSince = since;
  if (touched !== undefined) made.touched = touched;
  return made;
}
