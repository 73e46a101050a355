import { constants, closeSync, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { hash } from 'node:crypto';
import { describeError } from '../watch/describeError.ts';

/** Entries larger than this are not read whole; they are reported, not parsed. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

export type RecordFileRead =
  | { type: 'bytes'; bytes: Buffer; size: number; mtimeMs: number }
  /** A symlink, a folder or a device: never read (symlinks are not followed). */
  | { type: 'not-a-file'; size: number; mtimeMs: number; what: string }
  | { type: 'too-large'; size: number; mtimeMs: number }
  | { type: 'missing' }
  /** `size` when the path could still be stat'ed. */
  | { type: 'unreadable'; why: string; size?: number };

// O_NOFOLLOW: a file swapped for a link after it was listed is still not followed.
// O_NONBLOCK: a FIFO planted in the record must not hang the reader.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Reads a record file whole, synchronously: entries are small and written once. Never throws.
 * With `scratch`, a file that fits is read into it, and its bytes are valid until the next read
 * into it: an export reads 100,000 files, and a buffer for each was garbage that RSS grew by.
 */
export function readRecordFile(path: string | Buffer, scratch?: Buffer): RecordFileRead {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    return failedOpen(path, error as NodeJS.ErrnoException);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { type: 'not-a-file', size: stat.size, mtimeMs: stat.mtimeMs, what: describeKind(stat) };
    if (stat.size > MAX_ENTRY_BYTES) return { type: 'too-large', size: stat.size, mtimeMs: stat.mtimeMs };
    // Read what is there now, which may be more than fstat saw if the writer is still writing.
    const bytes = scratch !== undefined && stat.size <= scratch.length ? scratch.subarray(0, stat.size) : Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < bytes.length) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return { type: 'bytes', bytes: filled === bytes.length ? bytes : bytes.subarray(0, filled), size: stat.size, mtimeMs: stat.mtimeMs };
  } catch (error) {
    return { type: 'unreadable', why: describeError(error as NodeJS.ErrnoException) };
  } finally {
    closeSync(fd);
  }
}

/** Facts about a path without reading it (for strays: never parsed, so never read). */
export function statRecordPath(path: string | Buffer): { size: number; mtimeMs: number; isSymbolicLink: boolean } | null {
  try {
    const stat = lstatSync(path);
    return { size: stat.size, mtimeMs: stat.mtimeMs, isSymbolicLink: stat.isSymbolicLink() };
  } catch {
    return null;
  }
}

function failedOpen(path: string | Buffer, error: NodeJS.ErrnoException): RecordFileRead {
  if (error.code === 'ENOENT') return { type: 'missing' };
  if (error.code === 'ELOOP' || error.code === 'EISDIR') {
    const stat = statRecordPath(path);
    return { type: 'not-a-file', size: stat?.size ?? 0, mtimeMs: stat?.mtimeMs ?? 0, what: error.code === 'ELOOP' ? 'a symbolic link, not followed' : 'a folder' };
  }
  const stat = statRecordPath(path);
  return stat === null ? { type: 'unreadable', why: describeError(error) } : { type: 'unreadable', why: describeError(error), size: stat.size };
}

function describeKind(stat: import('node:fs').Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}


/**
 * A fingerprint of an entry's bytes, to tell a file that changed after it parsed. Trailing
 * white space is left out: a writer may finish with a newline after a reader already parsed
 * the object, and that is the same entry.
 */
export function fingerprintEntry(bytes: Uint8Array): number {
  let end = bytes.length;
  while (end > 0) {
    const b = bytes[end - 1];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) break;
    end--;
  }
  // The first 48 bits of the digest: read as a number, not through its hex text.
  return hash('sha1', bytes.subarray(0, end), 'buffer').readUIntBE(0, 6);
}
