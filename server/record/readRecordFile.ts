import { sep } from 'node:path';
import { readWhole, statPath, type FileRead } from '../watch/safeOpen.ts';

/** Entries larger than this are not read whole; they are reported, not parsed. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/**
 * Reads a record file whole, synchronously, through the one safe open (server/watch/safeOpen.ts):
 * never through a link, never a pipe or a device, never larger than MAX_ENTRY_BYTES, and never
 * outside the record directory, whatever folder on the way was swapped for a link. A record file
 * is `<record>/<session>/<name>`: the record is two folders up. Never throws. With `scratch`, a
 * file that fits is read into it, and its bytes are valid until the next read into it: an export
 * reads 100,000 files, and a buffer for each was garbage that RSS grew by.
 */
export function readRecordFile(path: string | Buffer, scratch?: Buffer): FileRead {
  return readWhole(path, { root: recordOf(path), maxBytes: MAX_ENTRY_BYTES }, scratch);
}

/** Facts about a path without reading it (for strays: never parsed, so never read). */
export function statRecordPath(path: string | Buffer): { size: number; mtimeMs: number; isSymbolicLink: boolean } | null {
  const stat = statPath(path);
  return stat === null ? null : { size: stat.size, mtimeMs: stat.mtimeMs, isSymbolicLink: stat.kind === 'link' };
}

/** The record directory of a file of one of its session folders. */
function recordOf(path: string | Buffer): string {
  if (typeof path === 'string') return path.slice(0, path.lastIndexOf(sep, path.lastIndexOf(sep) - 1));
  const slash = sep.charCodeAt(0);
  return path.subarray(0, path.lastIndexOf(slash, path.lastIndexOf(slash) - 1)).toString();
}
