import { readRanges as readFileRanges, readWhole, type RangeRead } from '../watch/safeOpen.ts';

// A line's bytes read again for a page, a single item or a search: the reader keeps byte ranges,
// never texts. Read through the one safe open (server/watch/safeOpen.ts), within the home `root`.

/** Reads [start, end) of the segments named, each file opened once. Never throws. */
export function readRanges(requests: readonly { path: string; start: number; end: number }[], root: string): RangeRead[] {
  return readFileRanges(requests, { root });
}

/** Reads a small whole file (session.json) within the home; null when it cannot. */
export function readSmallFile(path: string, root: string, maxBytes: number): Buffer | null {
  const read = readWhole(path, { root, maxBytes });
  return read.type === 'bytes' ? read.bytes : null;
}
