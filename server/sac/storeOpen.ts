import { constants, closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { mayOpen } from '../../shared/sac/layout.ts';
import { describeError } from '../watch/describeError.ts';

// The one door through which the sac reader opens a file. Every path is asked of the core's
// allowlist (`mayOpen`) first, so a secret (`relays.json`, `http-tokens.json`) is never opened
// whatever a listing or a watcher event says, and a link is never followed.

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Thrown, never caught by a reader: a path outside the allowlist is a bug, not an input. */
class NotAllowed extends Error {}

/** The absolute path of `relative` (`/`-separated, under the root), once the allowlist says yes. */
export function allowedPath(root: string, relative: string): string {
  if (!mayOpen(relative)) throw new NotAllowed(`not a file the sac reader opens: ${JSON.stringify(relative)}`);
  return join(root, ...relative.split('/'));
}

type WholeRead = { state: 'absent' } | { state: 'unreadable'; why: string } | { state: 'read'; bytes: Uint8Array; mtimeMs: number };

/** Reads a store JSON file whole (sac writes them whole and renames them into place). */
export function readStoreFile(root: string, name: string): WholeRead {
  const path = allowedPath(root, name);
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { state: 'absent' };
    if (code === 'ELOOP') return { state: 'unreadable', why: 'a symbolic link, not followed' };
    return { state: 'unreadable', why: describeError(error as NodeJS.ErrnoException) };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { state: 'unreadable', why: 'not a regular file' };
    // A store file is a few kilobytes; one far larger is not sac's, and is not read into memory.
    if (stat.size > 64 * 1024 * 1024) return { state: 'unreadable', why: `${stat.size} bytes: larger than a store file sac writes` };
    const bytes = Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < bytes.length) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return { state: 'read', bytes: bytes.subarray(0, filled), mtimeMs: stat.mtimeMs };
  } catch (error) {
    return { state: 'unreadable', why: describeError(error as NodeJS.ErrnoException) };
  } finally {
    closeSync(fd);
  }
}

export type RangeRead =
  | { state: 'read'; bytes: Buffer; size: number }
  /** The file is no longer the one read, or is shorter than the range: what it said is kept. */
  | { state: 'changed'; why: string }
  | { state: 'unreadable'; why: string };

/**
 * Reads bytes [start, start + length) of a seat file for a page, an item or a search, after
 * checking that it is still the file that was read (same identity, not shorter than `end`).
 */
export function readSeatRange(root: string, relative: string, identity: { dev: number; ino: number } | null, start: number, length: number, end: number): RangeRead {
  const path = allowedPath(root, relative);
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { state: 'changed', why: 'the file is gone; sac never removes a seat file' };
    if (code === 'ELOOP') return { state: 'changed', why: 'now a symbolic link, not followed' };
    return { state: 'unreadable', why: describeError(error as NodeJS.ErrnoException) };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { state: 'changed', why: 'no longer a regular file' };
    if (identity !== null && (stat.ino !== identity.ino || stat.dev !== identity.dev)) return { state: 'changed', why: 'another file now has this name: the writer only appends to one' };
    if (stat.size < end) return { state: 'changed', why: `the file is shorter (${stat.size} bytes) than what was read; the writer only appends` };
    const bytes = Buffer.allocUnsafe(Math.max(0, length));
    let filled = 0;
    while (filled < bytes.length) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, start + filled);
      if (n === 0) break;
      filled += n;
    }
    return { state: 'read', bytes: bytes.subarray(0, filled), size: stat.size };
  } catch (error) {
    return { state: 'unreadable', why: describeError(error as NodeJS.ErrnoException) };
  } finally {
    closeSync(fd);
  }
}
