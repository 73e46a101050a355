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

/**
 * The widest gap whose numbers are counted as missing entries. A wider one is a jump: more entries
 * than a session writes in hours, or a writer whose numbering jumped; the record cannot tell
 * which, so it is shown as a jump of N and never counted as N missing entries.
 */
export const WIDEST_COUNTED_GAP = 10_000;

/** Whether the numbers a gap skips are too many to count as missing entries. */
export function isSequenceJump(range: { from: Seq; to: Seq }): boolean {
  return countRange(range) > WIDEST_COUNTED_GAP;
}

/** The sequence numbers missing in gaps that are not jumps. */
function countMissing(ranges: readonly MissingRange[]): number {
  let count = 0;
  // A range that is not a jump holds at most WIDEST_COUNTED_GAP numbers: a plain number.
  for (const range of ranges) if (!isSequenceJump(range)) count += Number(countRange(range));
  return count;
}

/** A gap in plain words: the numbers missing, or the jump and its size. */
export function describeMissing(range: MissingRange): string {
  const n = (value: Seq) => value.toLocaleString('en');
  if (isSequenceJump(range)) {
    return `the sequence jumps from ${n(addSeq(range.from, -1))} to ${n(addSeq(range.to, 1))} (a jump of ${n(jumpOf(range))})`;
  }
  return `${describeMissingNumbers(range)} missing`;
}

/** How far the sequence jumps across a gap: from the number before it to the number after it. */
function jumpOf(range: { from: Seq; to: Seq }): Seq {
  return addSeq(countRange(range), 1);
}

/** The numbers a gap that is not a jump skips: `entry 3`, `entries 3–4`. */
export function describeMissingNumbers(range: MissingRange): string {
  const n = (value: Seq) => value.toLocaleString('en');
  return range.from === range.to ? `entry ${n(range.from)}` : `entries ${n(range.from)}–${n(range.to)}`;
}

/**
 * What a session with no start entry cannot say, in one sentence for every place that says it
 * (a banner, a badge's hover, an export): its entries are not known to be everything
 * (record-format: coverage begins at the start entry). "Cannot say what it sent" read as a
 * contradiction beside the entries shown under it.
 */
export const COVERAGE_UNKNOWN = 'The record cannot say whether this session sent or received more than its folder holds.';

/**
 * The reason in plain words, for a banner. Never says that nothing was sent. `missingTotal`, when
 * given, is the count of missing numbers where `reason.missing` lists only some of the gaps.
 */
export function describeReason(reason: DegradedReason, missingTotal?: number): string {
  const n = reason.files.length;
  const files = n === 1 ? 'file' : 'files';
  switch (reason.code) {
    case 'no-start':
      return `No start entry: coverage unknown. ${COVERAGE_UNKNOWN}`;
    case 'damaged-file':
      return `${n} ${files} never parsed (for example a write cut short): unknown evidence, not nothing.`;
    case 'invalid-entry':
      return `${n} ${files} ${n === 1 ? 'holds' : 'hold'} JSON that is not a valid entry: shown raw, unknown evidence.`;
    case 'sequence-gap': {
      const ranges = reason.missing ?? [];
      const count = missingTotal ?? countMissing(ranges);
      const jumps = ranges.filter(isSequenceJump);
      const missing = count > 0 ? `${count.toLocaleString('en')} ${count === 1 ? 'entry is' : 'entries are'} missing from the sequence` : '';
      if (jumps.length === 0) return `${missing || 'Entries may be missing from the sequence'}: a write may have failed or a file was removed.`;
      const largest = jumps.map(jumpOf).reduce((a, b) => (b > a ? b : a)).toLocaleString('en');
      const jumped = jumps.length === 1 ? `once (a jump of ${largest})` : `${jumps.length} times (the largest a jump of ${largest})`;
      const said = missing === '' ? `The sequence jumps ${jumped}` : `${missing}, and it jumps ${jumped}`;
      return `${said}: a write may have failed or a file was removed; how many entries a jump hides, the record cannot say.`;
    }
    case 'session-mismatch':
      return `${n} ${n === 1 ? 'entry names' : 'entries name'} a session other than this folder's.`;
    case 'unreadable':
      return reason.folder !== undefined
        ? `The session folder could not be read (${reason.folder}): what it holds is unknown.`
        : `${n} ${files} ${n === 1 ? 'was' : 'were'} not read: unknown evidence.`;
    case 'changed-after-read':
      return `${n} ${files} changed after ${n === 1 ? 'it was' : 'they were'} read; the writer writes each file once, so something else touched ${n === 1 ? 'it' : 'them'}.`;
    case 'removed-after-read':
      return `${n} ${files} disappeared after ${n === 1 ? 'it was' : 'they were'} read; the writer never deletes, so something else removed ${n === 1 ? 'it' : 'them'}.`;
  }
}
