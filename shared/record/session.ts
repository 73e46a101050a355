import type { DegradedCode, DegradedReason, MissingRange } from './degraded.ts';
import { DEGRADED_CODES } from './degraded.ts';
import type { EntryFacts } from './entry.ts';
import type { EntryName } from './entryName.ts';
import { compareEntryNames } from './entryName.ts';
import type { EvidenceState } from './evidence.ts';

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
  /** Sequence numbers missing within runs. */
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
    if (fact.entryName !== null && fact.evidence !== 'stray') named.push(fact);
    else strays.push(fact);
  }
  named.sort((a, b) => compareEntryNames(a.entryName!, b.entryName!));

  const items: SessionItem[] = [];
  const runs: Run[] = [];
  const cwds = new Set<string>();
  const counts: SessionCounts = { sent: 0, received: 0, refused: 0, rejected: 0, damaged: 0, pending: 0, invalid: 0, missing: 0, stray: strays.length };
  const reasonFiles = new Map<DegradedCode, string[]>();
  const missing: MissingRange[] = [];
  const note = (code: DegradedCode, file: string) => {
    const list = reasonFiles.get(code);
    if (list === undefined) reasonFiles.set(code, [file]);
    else list.push(file);
  };

  let run: number | null = null;
  let previous: FileFact | null = null;
  let startCwd: string | null = null;
  let latestCwd: string | null = null;
  let chain: SessionFold['chain'] = null;

  for (const fact of named) {
    const name = fact.entryName!;
    const facts = fact.facts;
    if (facts?.kind === 'start') {
      // A start entry begins a run; a second one means the mod loaded again (a resumed session)
      // and its sequence may begin anew, so no gap is claimed across it.
      run = runs.length;
      runs.push({ index: run, file: fact.name, at: name.at, host: facts.host, version: facts.version, inbound: facts.inbound });
      startCwd = facts.cwd;
      previous = null;
    } else if (previous !== null) {
      const previousSeq = previous.entryName!.seq;
      // A sequence that goes back is a writer that began again without a start entry we can
      // see; only numbers skipped going forward are possible missing entries.
      if (name.seq > previousSeq + 1) {
        const range = { from: previousSeq + 1, to: name.seq - 1, after: previous.name, before: fact.name };
        missing.push(range);
        items.push({ type: 'gap', run, missing: range });
        counts.missing += range.to - range.from + 1;
        note('sequence-gap', previous.name);
        note('sequence-gap', fact.name);
      }
    }
    previous = fact;
    items.push({ type: 'file', fact, run });

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

    if (facts === null) continue;
    if (facts.sessionId !== null && facts.sessionId !== sessionId) note('session-mismatch', fact.name);
    if (facts.cwd !== null) {
      cwds.add(facts.cwd);
      latestCwd = facts.cwd;
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
      chain = { parent: facts.parent, part: facts.part, brief: facts.brief, file: fact.name };
    }
  }
  for (const fact of strays) items.push({ type: 'stray', fact });

  if (runs.length === 0) reasonFiles.set('no-start', []);
  if (folderProblem !== null && !reasonFiles.has('unreadable')) reasonFiles.set('unreadable', []);
  const degraded: DegradedReason[] = [];
  for (const code of DEGRADED_CODES) {
    const reasonOf = reasonFiles.get(code);
    if (reasonOf === undefined) continue;
    const reason: DegradedReason = { code, files: code === 'sequence-gap' ? [...new Set(reasonOf)] : reasonOf };
    if (code === 'sequence-gap') reason.missing = missing;
    if (code === 'unreadable' && folderProblem !== null) reason.folder = folderProblem;
    degraded.push(reason);
  }

  return {
    sessionId,
    items,
    coverage: runs.length > 0 ? 'from-start' : 'unknown',
    runs,
    cwds: [...cwds],
    cwd: startCwd ?? latestCwd,
    chain,
    firstAt: named[0]?.entryName!.at ?? null,
    lastAt: named.at(-1)?.entryName!.at ?? null,
    counts,
    degraded,
  };
}
