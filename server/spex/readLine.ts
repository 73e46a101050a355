import { stripPrivateData, type PublicBytes } from '../../shared/spex/privateData.ts';
import { readRanges as readFileRanges, readWhole } from '../watch/safeOpen.ts';

// A line's bytes read again for a page, a single item, an export, a search or the live view: the
// reader keeps byte ranges, never texts. Read through the one safe open (server/watch/safeOpen.ts),
// within the home `root`. spex's private data is taken out of the bytes here, as they are read, so
// no reader of a range ever has it.

export type RangeRead =
  /** The bytes as the file holds them, or (`stripped`) without spex's private receipt. */
  | { type: 'bytes'; bytes: Buffer & PublicBytes; stripped: boolean }
  /** The range holds a private line, or bytes that may hold private data: none of it is given. */
  | { type: 'withheld'; why: string }
  | { type: 'gone'; why: string };

/** Reads [start, end) of the segments named, each file opened once. Never throws. */
export function readRanges(requests: readonly { path: string; start: number; end: number }[], root: string): RangeRead[] {
  return readFileRanges(requests, { root }).map((read) => (read.type === 'bytes' ? readPublicRange(read.bytes) : { type: 'gone', why: read.why }));
}

function readPublicRange(bytes: Buffer): RangeRead {
  const seen = stripPrivateData(bytes);
  if (seen.seen === 'private' || seen.seen === 'withheld') return { type: 'withheld', why: seen.why };
  // A Buffer over the same memory: the bytes the core gave, as the shells read them.
  return { type: 'bytes', bytes: Buffer.from(seen.bytes.buffer, seen.bytes.byteOffset, seen.bytes.byteLength) as Buffer & PublicBytes, stripped: seen.seen === 'stripped' };
}

/** Reads a small whole file (session.json) within the home; null when it cannot. */
export function readSmallFile(path: string, root: string, maxBytes: number): Buffer | null {
  const read = readWhole(path, { root, maxBytes });
  return read.type === 'bytes' ? read.bytes : null;
}
