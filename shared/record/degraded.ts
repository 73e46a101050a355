import { addSeq, countRange, type Seq } from './entryName.ts';

// Degraded-recording reasons: evidence that a session's record is incomplete, each with a stable
// code and the files it rests on. A reason is never a verdict that nothing happened
// (rule.recordingMayFail, rule.oneWriter, rule.startEntry).

export const DEGRADED_CODES = [
  'no-start',
  'damaged-file',
  'invalid-entry',
  'sequence-gap',
  'session-mismatch',
  'unreadable',
  'changed-after-read',
  'removed-after-read',
] as const;

export type DegradedCode = (typeof DEGRADED_CODES)[number];

export type MissingRange = { from: Seq; to: Seq; after: string | null; before: string };

export type DegradedReason = {
  code: DegradedCode;
  /** The files the reason rests on, in session order. */
  files: string[];
  /** For sequence-gap: the missing sequence numbers, as inclusive ranges. */
  missing?: MissingRange[];
  /** For unreadable: why the folder could not be read, when it is the folder. */
  folder?: string;
};

/** The reason in plain words, for a banner. Never says that nothing was sent. */
export function describeReason(reason: DegradedReason): string {
  const n = reason.files.length;
  const files = n === 1 ? 'file' : 'files';
  switch (reason.code) {
    case 'no-start':
      return 'No start entry: coverage unknown. The record cannot say what this session sent or received.';
    case 'damaged-file':
      return `${n} ${files} never parsed (for example a write cut short): unknown evidence, not nothing.`;
    case 'invalid-entry':
      return `${n} ${files} ${n === 1 ? 'holds' : 'hold'} JSON that is not a valid entry: shown raw, unknown evidence.`;
    case 'sequence-gap': {
      const count = (reason.missing ?? []).reduce<Seq>((sum, range) => addSeq(sum, countRange(range)), 0);
      return `${count} ${count === 1 ? 'entry is' : 'entries are'} missing from the sequence: a write may have failed or a file was removed.`;
    }
    case 'session-mismatch':
      return `${n} ${n === 1 ? 'entry names' : 'entries name'} a session other than this folder's.`;
    case 'unreadable':
      return reason.folder !== undefined
        ? `The session folder could not be read (${reason.folder}): what it holds is unknown.`
        : `${n} ${files} could not be read: unknown evidence.`;
    case 'changed-after-read':
      return `${n} ${files} changed after they were read; the writer writes each file once, so something else touched ${n === 1 ? 'it' : 'them'}.`;
    case 'removed-after-read':
      return `${n} ${files} disappeared after they were read; the writer never deletes, so something else removed ${n === 1 ? 'it' : 'them'}.`;
  }
}
