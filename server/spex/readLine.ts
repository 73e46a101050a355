import { constants, closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { stripPrivateData, type PublicBytes } from '../../shared/spex/privateData.ts';

// A line's bytes read again for a page, a single item, an export, a search or the live view: the
// reader keeps byte ranges, never texts. Opened without following a link, and never a pipe's or
// device's. spex's private data is taken out of the bytes here, as they are read, so no reader of
// a range ever has it.

export type RangeRead =
  /** The bytes as the file holds them, or (`stripped`) without spex's private receipt. */
  | { type: 'bytes'; bytes: Buffer & PublicBytes; stripped: boolean }
  /** The range holds a private line, or bytes that may hold private data: none of it is given. */
  | { type: 'withheld'; why: string }
  | { type: 'gone'; why: string };

/** Reads [start, end) of the files named, each file opened once. Never throws. */
export function readRanges(requests: readonly { path: string; start: number; end: number }[]): RangeRead[] {
  const byPath = new Map<string, number[]>();
  requests.forEach((request, index) => {
    const list = byPath.get(request.path);
    if (list === undefined) byPath.set(request.path, [index]);
    else list.push(index);
  });
  const results: RangeRead[] = new Array(requests.length);
  for (const [path, indexes] of byPath) {
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the segment is gone' : 'the segment cannot be read now';
      for (const index of indexes) results[index] = { type: 'gone', why };
      continue;
    }
    try {
      const stat = fstatSync(fd);
      for (const index of indexes) {
        const { start, end } = requests[index]!;
        if (!stat.isFile()) results[index] = { type: 'gone', why: 'the segment is no longer a file' };
        else if (stat.size < end) results[index] = { type: 'gone', why: 'the segment is shorter than when the line was read' };
        else results[index] = readPublicRange(readExactly(fd, start, end - start));
      }
    } catch {
      for (const index of indexes) results[index] ??= { type: 'gone', why: 'the segment cannot be read now' };
    } finally {
      closeSync(fd);
    }
  }
  return results;
}

function readPublicRange(bytes: Buffer): RangeRead {
  const seen = stripPrivateData(bytes);
  if (seen.seen === 'private' || seen.seen === 'withheld') return { type: 'withheld', why: seen.why };
  // A Buffer over the same memory: the bytes the core gave, as the shells read them.
  return { type: 'bytes', bytes: Buffer.from(seen.bytes.buffer, seen.bytes.byteOffset, seen.bytes.byteLength) as Buffer & PublicBytes, stripped: seen.seen === 'stripped' };
}

function readExactly(fd: number, at: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const n = readSync(fd, buffer, filled, length - filled, at + filled);
    if (n === 0) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

/** Reads a small whole file (session.json) without following a link; null when it cannot. */
export function readSmallFile(path: string, maxBytes: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return null;
    return readExactly(fd, 0, stat.size);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
