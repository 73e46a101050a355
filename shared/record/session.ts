import type { DegradedCode, DegradedReason, MissingRange } from './degraded.ts';
import { DEGRADED_CODES, isSequenceJump } from './degraded.ts';
import type { EntryFacts } from './entry.ts';
import type { EntryName } from './entryName.ts';
import { compareEntryNames, missingBetween } from './entryName.ts';
import type { EvidenceState, Touch } from './evidence.ts';

/** What the file system shell knows of one file in a session folder. */
export type FileFact = {
  /** The file name as found on disk. */
  name: string;
  /** Time and sequence from the name; null for a stray. */
  entryName: EntryName | null;
  size: number;
  evidence: EvidenceState;
  /** Why the file is not an entry (pending, damaged, invalid, unreadable), in one line. */
  why: string | null;
  /** What the entry said when it parsed; kept for changed and removed files. */
  facts: EntryFacts | null;
  /** Touched after it was read, though it is now as it was read: the episode is kept. */
  touched?: Touch;
};

export type SessionItem =
  | {
      type: 'file';
      fact: FileFact;
      /** The run (a load of the mod, begun by a start entry) this file falls in; null before coverage. */
      run: number | null;
    }
  /** Sequence numbers missing between two files of one run: a possible missing entry. */
  | { type: 'gap'; run: number | null; missing: MissingRange }
  /** A file whose name is not an entry's. Strays have no place in the order and come last. */
  | { type: 'stray'; fact: FileFact };

export type Run = { index: number; file: string; at: string; host: string; version: string; inbound: string };

export type SessionCounts = {
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
export function foldSession(sessionId: string, files: Iterable<FileFact>, folderProblem: string | null = null): SessionFold {
  const named: FileFact[] = [];
  const strays: FileFact[] = [];
  for (const fact of files) {
    if (isNamedEntry(fact)) named.push(fact);
    else strays.push(fact);
  }
  named.sort((a, b) => compareEntryNames(a.entryName!, b.entryName!));
  const folder = createSessionFolder(sessionId);
  for (const fact of named) folder.add(fact);
  return folder.fold(strays, folderProblem);
}

/** Files that take a place in the session's order; the rest are strays, which come last. */
function isNamedEntry(fact: FileFact): boolean {
  return fact.entryName !== null && fact.evidence !== 'stray';
}

/** How often the folder notes where it was, so that a change near the end refolds only the end. */
const CHECKPOINT_EVERY = 512;

export type SessionFolder = ReturnType<typeof createSessionFolder>;

/**
 * foldSession, one file at a time and resumable: `add` takes the session's files in order;
 * `rewind` goes back to a checkpoint at or before a position, so that only the files from there
 * on are folded again. A live session grows at its end, so a write to a session of 100,000
 * entries folds a few hundred files instead of all of them (and makes no new items for the rest).
 *
 * A fold it returns shares its items with the folder: it is current until the next `add` or
 * `rewind`, which is how the index uses it (a fold is dropped whenever its session changes).
 */
export function createSessionFolder(sessionId: string) {
  const items: SessionItem[] = [];
  const runs: Run[] = [];
  const cwds: string[] = [];
  const cwdSet = new Set<string>();
  const missing: MissingRange[] = [];
  const reasonFiles = new Map<DegradedCode, string[]>();
  let counts: Omit<SessionCounts, 'stray'> = { sent: 0, received: 0, refused: 0, rejected: 0, damaged: 0, pending: 0, invalid: 0, missing: 0 };
  let scalars = {
    /** How many files (in session order, named or not) have been added. */
    position: 0,
    run: null as number | null,
    previous: null as FileFact | null,
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
    missing: number;
    reasonFiles: Map<DegradedCode, number>;
  };
  const checkpoints: Checkpoint[] = [];

  const note = (code: DegradedCode, file: string) => {
    const list = reasonFiles.get(code);
    if (list === undefined) reasonFiles.set(code, [file]);
    else list.push(file);
  };
  const checkpoint = () => {
    const lengths = new Map<DegradedCode, number>();
    for (const [code, files] of reasonFiles) lengths.set(code, files.length);
    checkpoints.push({ scalars: { ...scalars }, counts: { ...counts }, items: items.length, runs: runs.length, cwds: cwds.length, missing: missing.length, reasonFiles: lengths });
  };
  checkpoint();

  function add(fact: FileFact): void {
    if (scalars.position > 0 && scalars.position % CHECKPOINT_EVERY === 0 && checkpoints.at(-1)!.scalars.position < scalars.position) checkpoint();
    scalars.position++;
    if (!isNamedEntry(fact)) return;
    const name = fact.entryName!;
    const facts = fact.facts;
    scalars.firstAt ??= name.at;
    scalars.lastAt = name.at;
    if (facts?.kind === 'start') {
      // A start entry begins a run; a second one means the mod loaded again (a resumed session)
      // and its sequence may begin anew, so no gap is claimed across it.
      scalars.run = runs.length;
      runs.push({ index: scalars.run, file: fact.name, at: name.at, host: facts.host, version: facts.version, inbound: facts.inbound });
      scalars.startCwd = facts.cwd;
      scalars.previous = null;
    } else if (scalars.previous !== null) {
      const previous = scalars.previous;
      // A sequence that goes back is a writer that began again without a start entry we can
      // see; only numbers skipped going forward are possible missing entries.
      const skipped = missingBetween(previous.entryName!.seq, name.seq);
      if (skipped !== null) {
        const range = { from: skipped.from, to: skipped.to, after: previous.name, before: fact.name };
        missing.push(range);
        items.push({ type: 'gap', run: scalars.run, missing: range });
        // A gap that is not a jump holds at most WIDEST_COUNTED_GAP numbers: a plain number.
        if (!isSequenceJump(range)) counts.missing += Number(skipped.count);
        note('sequence-gap', previous.name);
        note('sequence-gap', fact.name);
      }
    }
    scalars.previous = fact;
    items.push({ type: 'file', fact, run: scalars.run });

    switch (fact.evidence) {
      case 'damaged':
        counts.damaged++;
        note('damaged-file', fact.name);
        break;
      case 'pending':
        counts.pending++;
        break;
      case 'invalid':
        counts.invalid++;
        note('invalid-entry', fact.name);
        break;
      case 'unreadable':
        note('unreadable', fact.name);
        break;
      case 'changed':
        note('changed-after-read', fact.name);
        break;
      case 'removed':
        note('removed-after-read', fact.name);
        break;
      case 'parsed':
      case 'stray':
        break;
    }
    // Back as it was read, but something touched it meanwhile: the record was touched all the same.
    if ((fact.evidence === 'parsed' || fact.evidence === 'invalid') && fact.touched !== undefined) {
      note(fact.touched === 'changed' ? 'changed-after-read' : 'removed-after-read', fact.name);
    }

    if (facts === null) return;
    if (facts.sessionId !== null && facts.sessionId !== sessionId) note('session-mismatch', fact.name);
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
      scalars.chain = { parent: facts.parent, part: facts.part, brief: facts.brief, file: fact.name };
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
    missing.length = back.missing;
    for (const cwd of cwds.splice(back.cwds)) cwdSet.delete(cwd);
    for (const [code, files] of reasonFiles) {
      const length = back.reasonFiles.get(code);
      if (length === undefined) reasonFiles.delete(code);
      else files.length = length;
    }
    return scalars.position;
  }

  /** The session as folded so far, with its strays (files with no place in the order). */
  function fold(strays: readonly FileFact[], folderProblem: string | null): SessionFold {
    const degraded: DegradedReason[] = [];
    for (const code of DEGRADED_CODES) {
      let reasonOf = reasonFiles.get(code);
      // No start entry, and a folder that could not be read, are reasons with no files of their own.
      if (reasonOf === undefined && ((code === 'no-start' && runs.length === 0) || (code === 'unreadable' && folderProblem !== null))) reasonOf = [];
      if (reasonOf === undefined) continue;
      const reason: DegradedReason = { code, files: code === 'sequence-gap' ? [...new Set(reasonOf)] : reasonOf.slice() };
      if (code === 'sequence-gap') reason.missing = missing.slice();
      if (code === 'unreadable' && folderProblem !== null) reason.folder = folderProblem;
      degraded.push(reason);
    }
    return {
      sessionId,
      items: strays.length === 0 ? items : [...items, ...strays.map((fact): SessionItem => ({ type: 'stray', fact }))],
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
