import type { LineColumns } from './columns.ts';
import { appendLineOutcome, createLineColumns, listLineItems, trimLineColumns } from './columns.ts';
import type { LineOutcome } from './line.ts';
import { readLine } from './line.ts';
import { stripPrivateData } from './privateData.ts';
import { forEachLine, scanLeanLineInto } from './scan.ts';

// Reading one segment incrementally (spex-timeline-format: What a reader must do). The writer
// appends whole lines with O_APPEND, which a reader can see half done; so the reader takes the
// complete lines up to the last `\n`, remembers that offset, and reads from there next time. What
// follows the last `\n` is a tail, held as a byte range and read again, never as a copy.

/** One line of the log in its place: the one model of what a stretch of a segment's bytes is. */
export type TimelineItem = {
  /** The segment's name within the session folder (layout.ts). */
  segment: string;
  /** Where the line's bytes begin in its segment. */
  start: number;
  /** Where they end, the `\n` left out: a page reads [start, end) again to show the line. */
  end: number;
} & LineOutcome;

/** What a reader holds of one segment between reads. */
export type SegmentReading = {
  segment: string;
  /** Where the next read begins: every complete line before it has been read. */
  offset: number;
  /**
   * How far the bytes from `offset` on are known to hold no `\n`: a long tail is not searched
   * again, and a reader may look for a `\n` in the bytes past this before reading from `offset`.
   */
  scanned: number;
  /** The complete lines, in file order, as columns (columns.ts); private lines leave none. */
  lines: LineColumns;
  /**
   * The complete lines' items, made from the columns at each read of this: code that walks the
   * lines of a whole home reads `lines`.
   */
  readonly items: TimelineItem[];
  /** The bytes after the last `\n`, pending or torn; null when there are none. */
  tail: TimelineItem | null;
  /** A later segment exists, so the writer will never write to this one again. */
  closed: boolean;
  /**
   * Why the bytes already read are no longer as they were read (the caller compared their
   * fingerprint, or a closed segment grew). The reading then stops: what was read is kept, and
   * nothing more is read from this segment, so a change is never taken for new lines.
   */
  changed: string | null;
  /** Why the segment could not be read the last time the reader tried; null once it could. */
  unreadable: string | null;
};

/** How the caller finds the segment's end, which only it can time. */
export type SegmentEnd = {
  /** A later segment exists: an unterminated end is a write cut short, damaged at once. */
  closed?: boolean;
  /** The unterminated end has stayed so past the pending window (isPastPendingWindow, shared/evidence.ts): it is torn. */
  pastWindow?: boolean;
};

export function createSegmentReading(segment: string): SegmentReading {
  return {
    segment,
    offset: 0,
    scanned: 0,
    lines: createLineColumns(segment),
    get items() {
      return listLineItems(this.lines);
    },
    tail: null,
    closed: false,
    changed: null,
    unreadable: null,
  };
}

/**
 * Reads a segment's bytes from `reading.offset` on (`bytes[0]` is the byte at that offset) to the
 * end the caller read. Updates `reading` and returns the items of the lines this read completed.
 * Reading the bytes in any number of pieces gives the same reading as reading them at once.
 */
export function readSegmentBytes(reading: SegmentReading, bytes: Uint8Array, end: SegmentEnd = {}): TimelineItem[] {
  const before = reading.lines.count;
  readSegmentLines(reading, bytes, end);
  return listLineItems(reading.lines, before);
}

/** readSegmentBytes without making the items of what it read: returns how many lines it added. */
export function readSegmentLines(reading: SegmentReading, bytes: Uint8Array, end: SegmentEnd = {}): number {
  if (reading.changed !== null) return 0;
  reading.unreadable = null;
  if (reading.closed) {
    if (bytes.length > 0) markSegmentChanged(reading, 'a closed segment grew after it was read; the writer never writes to one again');
    return 0;
  }
  const known = reading.scanned - reading.offset;
  if (bytes.length < known) {
    markSegmentChanged(reading, 'the segment is shorter than when it was read; the writer only appends');
    return 0;
  }
  const { lines, offset } = reading;
  const before = lines.count;
  let lineStart = 0;
  forEachLine(bytes, known, (start, end, chunk, textStart, textEnd) => {
    lineStart = end + 1;
    // The lean scan reads a plain line that names nothing private; anything else is read whole,
    // by the one set of rules, its private data taken out first.
    if (chunk !== null && scanLeanLineInto(chunk, textStart, textEnd, lines, offset + start, offset + end)) return;
    const outcome = readLine(bytes.subarray(start, end));
    if (outcome !== null) appendLineOutcome(lines, offset + start, offset + end, outcome);
  });
  const rest = bytes.subarray(lineStart);
  const tailStart = reading.offset + lineStart;
  const tail = rest.length === 0 || isPrivateLine(rest) ? null : { segment: reading.segment, start: tailStart, end: tailStart + rest.length };
  if (end.closed === true) {
    // Nothing will complete the last line now: it takes its place as a line, and is read.
    if (tail !== null) appendLineOutcome(lines, tail.start, tail.end, { evidence: 'damaged', why: 'the last line of a closed segment has no newline: a write cut short' });
    reading.offset = tailStart + rest.length;
    reading.tail = null;
    reading.closed = true;
    trimLineColumns(lines);
  } else {
    reading.offset = tailStart;
    reading.tail =
      tail === null
        ? null
        : end.pastWindow === true
          ? { ...tail, evidence: 'torn', why: 'no newline came in the time a write is given to complete: a write cut short (torn)' }
          : { ...tail, evidence: 'pending', why: 'no newline yet: the writer may still be writing it' };
  }
  reading.scanned = tailStart + rest.length;
  return lines.count - before;
}

/**
 * Says that the bytes already read changed (the caller's fingerprint of them differs). What was
 * read is kept, the tail is dropped, and nothing more is read from this segment.
 */
export function markSegmentChanged(reading: SegmentReading, why: string): void {
  reading.changed ??= why;
  reading.tail = null;
}

/** Says that the segment could not be read this time; what was read before is kept. */
export function markSegmentUnreadable(reading: SegmentReading, why: string): void {
  reading.unreadable = why;
}

/**
 * Whether unterminated bytes are a whole private line that only lacks its `\n`. Such a tail is no
 * item: private data is not even counted. Parsed only when it could be whole (it ends in `}`), so
 * a long tail still being written is not parsed at each read.
 */
function isPrivateLine(rest: Uint8Array): boolean {
  let last = rest.length - 1;
  while (last >= 0 && (rest[last] === 0x20 || rest[last] === 0x09 || rest[last] === 0x0d)) last--;
  return last >= 0 && rest[last] === 0x7d && stripPrivateData(rest).seen === 'private';
}
