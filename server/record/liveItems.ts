import { firstLineOf } from '../../shared/firstLine.ts';
import type { LiveItem } from '../../shared/wire/common.ts';
import { describeMissing, isSequenceJump, type MissingRange } from '../../shared/record/degraded.ts';
import type { EntryReading } from '../../shared/record/entry.ts';
import { compareEntryNames } from '../../shared/record/entryName.ts';
import type { KnownFile } from '../../shared/record/knownFile.ts';
import { describeReceivedOutcome, describeSentOutcome } from '../../shared/record/outcomeWords.ts';
import type { SessionFold } from '../../shared/record/session.ts';
import { seqToWire } from '../../shared/wire/record.ts';
import { conversationAddress, itemAddress } from '../../shared/wire/paths.ts';

// The record's items as the live view lists them: hand-written from what the index holds of a
// file, in the words a session's page uses, so the browser applies none of the record's rules.

/** What the reader had in hand when it last read a file: its text's first line and a refused send's reason. */
type TextSeen = { firstLine: string | null; reason: string | null };

/** A file the index learnt something new of, since the last notice. */
export type FileChange = { isNew: boolean; seen: TextSeen | undefined };

/** Files larger than this are not read again for their first line: a page reads those on a thread. */
const READ_AGAIN_MAX_BYTES = 1024 * 1024;


/** What a reading of an entry says for the live view; undefined for what is not an entry. */
export function textSeenIn(reading: EntryReading | null): TextSeen | undefined {
  if (reading?.outcome !== 'entry') return undefined;
  const text = reading.value['text'];
  return {
    firstLine: reading.facts.kind === 'message' && typeof text === 'string' ? firstLineOf(text) : null,
    reason: reading.details?.reason ?? null,
  };
}

type Projecting = {
  /** The record's source id, for each item's link. */
  source: string;
  sessionId: string;
  file(name: string): KnownFile | undefined;
  fold(): SessionFold | null;
  /** Reads a file again now, for a first line the reader did not have in hand. */
  readAgain(name: string): EntryReading | null;
};

/**
 * The items of one session that changed since the last notice, in session order: each file as
 * the index holds it now. The gaps new files opened are told apart (`projectSettledGaps`).
 */
export function projectLiveItems(projecting: Projecting, changes: ReadonlyMap<string, FileChange>): LiveItem[] {
  const files: KnownFile[] = [];
  for (const name of changes.keys()) {
    const file = projecting.file(name);
    if (file !== undefined) files.push(file);
  }
  files.sort(compareFiles);
  const items: LiveItem[] = [];
  for (const file of files) {
    const change = changes.get(file.name)!;
    let seen = change.seen;
    if (seen === undefined && hasText(file) && file.size <= READ_AGAIN_MAX_BYTES) seen = textSeenIn(projecting.readAgain(file.name));
    items.push(projectFile(projecting.source, projecting.sessionId, file, seen));
  }
  return items;
}

/**
 * The gaps still open before files that were new a moment ago. A writer's files can land out of
 * order (a burst, a slow write beside a quick one): a number missing for the few milliseconds
 * before its file lands is no gap, and a live view that showed one would show evidence that was
 * never missing. So a gap is told once it has lasted GAP_SETTLE_MS, before the file that opened it.
 */
export function projectSettledGaps(projecting: Projecting, newFiles: Iterable<string>): LiveItem[] {
  const gapsBefore = indexGaps(projecting.fold());
  const items: LiveItem[] = [];
  for (const name of newFiles) {
    const file = projecting.file(name);
    if (file === undefined || file.entryName === null) continue;
    for (const range of gapsBefore.get(name) ?? []) items.push(projectGap(projecting.source, projecting.sessionId, range, file));
  }
  return items;
}

/** How long a gap must last before it is told live. */
export const GAP_SETTLE_MS = 250;

function compareFiles(a: KnownFile, b: KnownFile): number {
  if (a.entryName === null || b.entryName === null) return a.entryName === null ? (b.entryName === null ? 0 : 1) : -1;
  return compareEntryNames(a.entryName, b.entryName);
}

function indexGaps(fold: SessionFold | null): Map<string, MissingRange[]> {
  const byBefore = new Map<string, MissingRange[]>();
  const reason = fold?.degraded.find((candidate) => candidate.code === 'sequence-gap');
  for (const range of reason?.missing ?? []) {
    const list = byBefore.get(range.before);
    if (list === undefined) byBefore.set(range.before, [range]);
    else list.push(range);
  }
  return byBefore;
}

/** Whether the file's text is worth reading for its first line: an entry as read, with a text. */
function hasText(file: KnownFile): boolean {
  return (file.evidence === 'parsed' || file.evidence === 'changed') && file.facts?.kind === 'message' && !file.facts.withheld;
}

function projectGap(source: string, sessionId: string, range: MissingRange, before: KnownFile): LiveItem {
  const jump = isSequenceJump(range);
  return {
    key: `gap-${seqToWire(range.from)}-${seqToWire(range.to)}`,
    at: before.entryName?.at ?? null,
    kind: null,
    side: null,
    peer: null,
    words: `${describeMissing(range)}: a write may have failed or a file was removed${jump ? '; how many entries a jump hides, the record cannot say' : ''}`,
    refused: false,
    evidence: 'gap',
    degraded: true,
    firstLine: null,
    link: itemAddress(source, sessionId, before.name),
  };
}

export function projectFile(source: string, sessionId: string, file: KnownFile, seen: TextSeen | undefined): LiveItem {
  const facts = file.facts;
  const message = facts?.kind === 'message' ? facts : null;
  const asEntry = file.evidence === 'parsed' || (file.evidence === 'changed' && seen !== undefined);
  return {
    key: file.name,
    at: file.entryName?.at ?? null,
    kind: facts === null ? null : facts.kind === 'unknown' ? facts.kindName : facts.kind,
    side: message?.side ?? null,
    peer: message?.peerAs ?? null,
    words: describeFile(file, seen?.reason ?? null),
    refused: message !== null && (message.side === 'sent' ? message.isQueued === false : message.outcome === 'rejected'),
    evidence: file.evidence,
    degraded: file.evidence !== 'parsed' && file.evidence !== 'stray' ? true : file.touched !== undefined,
    firstLine: asEntry && message !== null && !message.withheld ? (seen?.firstLine ?? null) : null,
    link: file.entryName === null ? conversationAddress(source, sessionId) : itemAddress(source, sessionId, file.name),
  };
}

/** What the file is, or what came of its message, in the words of a session's page. */
function describeFile(file: KnownFile, reason: string | null): string {
  switch (file.evidence) {
    case 'pending':
      return 'being written';
    case 'damaged':
      return 'unknown evidence: never parsed, for example a write cut short';
    case 'invalid':
      return `not a valid entry: ${file.why ?? 'unknown evidence'}`;
    case 'unreadable':
      return `unreadable: ${file.why ?? 'could not be read'}`;
    case 'stray':
      return `not an entry: ${file.why ?? 'a stray'}`;
    case 'removed':
      return 'removed after it was read: the writer never deletes, so something else removed it';
    case 'changed':
      return `changed after it was read${file.why !== null ? `: ${file.why}` : ''}`;
    case 'parsed':
      break;
  }
  const facts = file.facts;
  switch (facts?.kind) {
    case 'message':
      return facts.side === 'sent' ? describeSentOutcome(facts.isQueued, reason) : describeReceivedOutcome(facts.outcome);
    case 'start':
      return `a run begins: ${facts.host} ${facts.version}, inbound ${facts.inbound}`;
    case 'chain':
      return `part ${String(facts.part)} of a chain under ${facts.parent}`;
    case 'unknown':
      return 'a kind this reader does not know: shown raw';
    case undefined:
      return file.evidence;
  }
}
