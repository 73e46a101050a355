import type { DegradedReason, MissingRange } from './degraded.ts';
import { isSequenceJump } from './degraded.ts';
import { createDegradedNotes, type DegradedNotes, type NotesMark } from './degradedNotes.ts';
import { compareEntryNames, missingBetween } from './entryName.ts';
import type { KnownFile, NamedFile } from './knownFile.ts';
import { isInOrder } from './knownFile.ts';

export type SessionItem =
  | {
      type: 'file';
      file: NamedFile;
      /** The run (a load of the mod, begun by a start entry) this file falls in; null before coverage. */
      run: number | null;
    }
  /** Sequence numbers missing between two files of one run: a possible missing entry. */
  | { type: 'gap'; run: number | null; missing: MissingRange }
  /** A file whose name is not an entry's. Strays have no place in the order and come last. */
  | { type: 'stray'; file: KnownFile };

export type Run = { index: number; file: string; at: string; host: string; version: string; inbound: string };

type SessionCounts = {
  sent: number;
  received: number;
  /** Sent entries the host did not queue. */
  refused: number;
  /** Received entries whose receive hook was refused. */
  rejected: number;
  damaged: number;
  pending: number;
  invalid: number;
  /** Sequence numbers missing within runs, in gaps that are not jumps (see WIDEST_COUNTED_GAP). */
  missing: number;
  stray: number;
};

export type SessionFold = {
  sessionId: string;
  items: SessionItem[];
  /** Coverage begins at the first start entry; without one the record says nothing (rule.startEntry). */
  coverage: 'from-start' | 'unknown';
  runs: Run[];
  /** Working directories the entries name, in order of first appearance (rule.byDirectory). */
  cwds: string[];
  /** The directory the session belongs to: its latest start entry's, else its latest entry's. */
  cwd: string | null;
  /** The latest chain entry: this session is part `part` of a chain under `parent`. */
  chain: { parent: string; part: number | string; brief: string; file: string } | null;
  firstAt: string | null;
  lastAt: string | null;
  counts: SessionCounts;
  degraded: DegradedReason[];
};

/**
 * Folds what is known of a session folder's files into the session as a reader must see it:
 * entries in order, runs, coverage, gaps, and every reason the record is incomplete.
 * `folderProblem` is set when the folder itself could not be read. Pairs nothing across
 * sessions: correlation is not claimed (question.correlation).
 */
export function foldSession(sessionId: string, files: Iterable<KnownFile>, folderProblem: string | null = null): SessionFold {
  const named: NamedFile[] = [];
  const strays: KnownFile[] = [];
  for (const file of files) {
    if (isInOrder(file)) named.push(file);
    else strays.push(file);
  }
  named.sort((a, b) => compareEntryNames(a.entryName, b.entryName));
  const folding = createSessionFold(sessionId);
  for (const file of named) folding.add(file);
  return folding.fold(strays, folderProblem);
}

/** How often the fold notes where it was, so that a change near the end refolds only the end. */
const CHECKPOINT_EVERY = 512;

export type SessionFolding = ReturnType<typeof createSessionFold>;

/**
 * foldSession, one file at a time and resumable: `add` takes the session's files in order;
 * `rewind` goes back to a checkpoint at or before a position, so that only the files from there
 * on are folded again. A live session grows at its end, so a write to a session of 100,000
 * entries folds a few hundred files instead of all of them (and makes no new items for the rest).
 *
 * A fold it returns shares its items with the folding: it is current until the next `add` or
 * `rewind`, which is how the index uses it (a fold is dropped whenever its session changes).
 */
export function createSessionFold(sessionId: string) {
  const items: SessionItem[] = [];
  const runs: Run[] = [];
  const cwds: string[] = [];
  const cwdSet = new Set<string>();
  const notes = createDegradedNotes();
  let counts: Omit<SessionCounts, 'stray'> = { sent: 0, received: 0, refused: 0, rejected: 0, damaged: 0, pending: 0, invalid: 0, missing: 0 };
  let scalars = {
    /** How many files (in session order, named or not) have been added. */
    position: 0,
    run: null as number | null,
    previous: null as NamedFile | null,
    startCwd: null as string | null,
    latestCwd: null as string | null,
    chain: null as SessionFold['chain'],
    firstAt: null as string | null,
    lastAt: null as string | null,
  };
  type Checkpoint = {
    scalars: typeof scalars;
    counts: typeof counts;
    items: number;
    runs: number;
    cwds: number;
    notes: NotesMark;
  };
  const checkpoints: Checkpoint[] = [];

  const checkpoint = () => {
    checkpoints.push({ scalars: { ...scalars }, counts: { ...counts }, items: items.length, runs: runs.length, cwds: cwds.length, notes: notes.mark() });
  };
  checkpoint();

  function add(file: KnownFile): void {
    if (scalars.position > 0 && scalars.position % CHECKPOINT_EVERY === 0 && checkpoints.at(-1)!.scalars.position < scalars.position) checkpoint();
    scalars.position++;
    if (!isInOrder(file)) return;
    const name = file.entryName;
    const facts = file.facts;
    scalars.firstAt ??= name.at;
    scalars.lastAt = name.at;
    if (facts?.kind === 'start') {
      // A start entry begins a run; a second one means the mod loaded again (a resumed session)
      // and its sequence may begin anew, so no gap is claimed across it.
      scalars.run = runs.length;
      runs.push({ index: scalars.run, file: file.name, at: name.at, host: facts.host, version: facts.version, inbound: facts.inbound });
      scalars.startCwd = facts.cwd;
      scalars.previous = null;
    } else if (scalars.previous !== null) {
      const previous = scalars.previous;
      // A sequence that goes back is a writer that began again without a start entry we can
      // see; only numbers skipped going forward are possible missing entries.
      const skipped = missingBetween(previous.entryName.seq, name.seq);
      if (skipped !== null) {
        const range = { from: skipped.from, to: skipped.to, after: previous.name, before: file.name };
        notes.noteGap(range);
        items.push({ type: 'gap', run: scalars.run, missing: range });
        // A gap that is not a jump holds at most WIDEST_COUNTED_GAP numbers: a plain number.
        if (!isSequenceJump(range)) counts.missing += Number(skipped.count);
      }
    }
    scalars.previous = file;
    items.push({ type: 'file', file, run: scalars.run });

    noteEvidence(file, counts, notes);

    if (facts === null) return;
    if (facts.sessionId !== null && facts.sessionId !== sessionId) notes.note('session-mismatch', file.name);
    if (facts.cwd !== null) {
      if (!cwdSet.has(facts.cwd)) {
        cwdSet.add(facts.cwd);
        cwds.push(facts.cwd);
      }
      scalars.latestCwd = facts.cwd;
    }
    if (facts.kind === 'message') {
      if (facts.side === 'sent') {
        counts.sent++;
        if (facts.isQueued === false) counts.refused++;
      } else {
        counts.received++;
        if (facts.outcome === 'rejected') counts.rejected++;
      }
    } else if (facts.kind === 'chain') {
      scalars.chain = { parent: facts.parent, part: facts.part, brief: facts.brief, file: file.name };
    }
  }

  /**
   * Forgets the files from `position` on (at least; it goes back to the checkpoint before) and
   * returns the position from which files must be added again.
   */
  function rewind(position: number): number {
    if (position >= scalars.position) return scalars.position;
    while (checkpoints.length > 1 && checkpoints.at(-1)!.scalars.position > position) checkpoints.pop();
    const back = checkpoints.at(-1)!;
    scalars = { ...back.scalars };
    counts = { ...back.counts };
    items.length = back.items;
    runs.length = back.runs;
    for (const cwd of cwds.splice(back.cwds)) cwdSet.delete(cwd);
    notes.rewind(back.notes);
    return scalars.position;
  }

  /** The session as folded so far, with its strays (files with no place in the order). */
  function fold(strays: readonly KnownFile[], folderProblem: string | null): SessionFold {
    const degraded = notes.reasons(runs.length === 0, folderProblem);
    return {
      sessionId,
      items: strays.length === 0 ? items : [...items, ...strays.map((file): SessionItem => ({ type: 'stray', file }))],
      coverage: runs.length > 0 ? 'from-start' : 'unknown',
      runs: runs.slice(),
      cwds: cwds.slice(),
      cwd: scalars.startCwd ?? scalars.latestCwd,
      chain: scalars.chain,
      firstAt: scalars.firstAt,
      lastAt: scalars.lastAt,
      counts: { ...counts, stray: strays.length },
      degraded,
    };
  }

  return { add, rewind, fold };
}

/** Counts a file by its evidence, and notes it where it is a reason the record is incomplete. */
function noteEvidence(file: NamedFile, counts: Omit<SessionCounts, 'stray'>, notes: DegradedNotes): void {
  switch (file.evidence) {
    case 'damaged':
      counts.damaged++;
      notes.note('damaged-file', file.name);
      break;
    case 'pending':
      counts.pending++;
      break;
    case 'invalid':
      counts.invalid++;
      notes.note('invalid-entry', file.name);
      break;
    case 'unreadable':
      notes.note('unreadable', file.name);
      break;
    case 'changed':
      notes.note('changed-after-read', file.name);
      break;
    case 'removed':
      notes.note('removed-after-read', file.name);
      break;
    case 'parsed':
    case 'stray':
      break;
  }
  // Back as it was read, but something touched it meanwhile: the record was touched all the same.
  if ((file.evidence === 'parsed' || file.evidence === 'invalid') && file.touched !== undefined) {
    notes.note(file.touched === 'changed' ? 'changed-after-read' : 'removed-after-read', file.name);
  }
}
