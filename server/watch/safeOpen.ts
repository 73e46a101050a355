import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { describeError } from './describeError.ts';
import { secretsOfStores, type SecretFiles } from './secretFiles.ts';

// The one door through which every reader (the record, spex, set-agent-comm) opens a store's file,
// whether it reads it whole, reads a range of it again for a page, or reads what was appended.
// Whatever a listing or a watch event said, the file is opened without following a link, and read
// only if it is a regular file, within the size asked for, not a secret (by device and inode),
// and, by the real path of what was opened (so every folder walked to it counts, however it was
// swapped meanwhile), inside the store's root. Never throws; every outcome is one shape.

export type FileIdentity = { dev: number; ino: number };

/** Why a file was not read although it is there. */
type Refusal =
  /** A symbolic link: never followed, whatever it points at. */
  | 'link'
  | 'folder'
  /** A named pipe, a socket or a device: never read (a pipe would hang the reader). */
  | 'not-a-file'
  /** The same file as one of the store's secrets. */
  | 'secret'
  /** Its real path is outside the store's root: a folder on the way was a link out. */
  | 'outside'
  | 'too-large';

export type FileRead =
  /** `bytes` are the file's from the offset asked for; `size` and `mtimeMs` are fstat's when opened. */
  | { type: 'bytes'; bytes: Buffer; size: number; mtimeMs: number; identity: FileIdentity }
  | { type: 'missing' }
  | { type: 'refused'; refusal: Refusal; why: string; size: number | null; mtimeMs: number | null }
  /** Not the file that was read before (another file under its name), or shorter than what was read. */
  | { type: 'changed'; why: string; size: number; mtimeMs: number }
  | { type: 'unreadable'; why: string; size: number | null };

export type OpenRules = {
  /** The store's root: nothing whose real path lies outside it is read. */
  root: string;
  /** Files that are never read, whatever they are called. */
  secrets?: SecretFiles | null;
  /** A file larger than this is not read whole (a range or an append is read in pieces instead). */
  maxBytes?: number;
};

type Opened = { type: 'open'; fd: number; stat: Stats };

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Opens `path` under the rules: the open file and its fstat, or why not. The caller reads and
 * closes. Exported for the readers of this folder (whole, range, append), never for a kind.
 */
export function openSafely(path: string | Buffer, rules: OpenRules): Opened | Exclude<FileRead, { type: 'bytes' }> {
  // A secret is known before it is opened: its other name is never even opened.
  if (rules.secrets != null) {
    const named = lstatOrNull(path);
    if (named !== null && named.isFile() && rules.secrets.isSecret(named)) return refusedSecret(named);
  }
  const opened = openWithin(path, rules.root);
  if (typeof opened !== 'number') return opened;
  const fd = opened;
  let keep = false;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { type: 'refused', refusal: stat.isDirectory() ? 'folder' : 'not-a-file', why: describeKind(stat), size: stat.size, mtimeMs: stat.mtimeMs };
    if (rules.secrets != null && rules.secrets.isSecret(stat)) return refusedSecret(stat);
    // Another store's secret, hard-linked into this one, is withheld as it would be there.
    if (secretsOfStores()?.isOtherName(stat) === true) return refusedSecret(stat);
    if (rules.maxBytes !== undefined && stat.size > rules.maxBytes) return { type: 'refused', refusal: 'too-large', why: `${stat.size} bytes, more than the ${rules.maxBytes} read whole`, size: stat.size, mtimeMs: stat.mtimeMs };
    keep = true;
    return { type: 'open', fd, stat };
  } catch (error) {
    return { type: 'unreadable', why: describeError(error as NodeJS.ErrnoException), size: null };
  } finally {
    if (!keep) closeSync(fd);
  }
}

/**
 * Reads of up to this many bytes (a spex segment is bounded at 4 MiB, a record entry a page reads
 * on the event loop at 1 MiB) go through a reader's one scratch buffer.
 */
const SCRATCH_BYTES = 8 * 1024 * 1024;

/**
 * A buffer a reader reads into (appends, or a record entry whole), again and again, where each
 * read would otherwise take a buffer of its own: a first scan of thousands of files then leaves
 * the collector no buffer a file, and touches no fresh memory a file (a buffer is memory outside
 * V8's heap, which starts full collections of its own). One per reader; its bytes are valid
 * until its next read.
 */
export function createReadScratch(): Buffer {
  return Buffer.allocUnsafe(SCRATCH_BYTES);
}

/**
 * Reads a file whole (a record entry, session.json, a store's JSON file). With `scratch`, a file
 * that fits is read into it, and its bytes are valid until the next read into it.
 */
export function readWhole(path: string | Buffer, rules: OpenRules, scratch?: Buffer): FileRead {
  const opened = openSafely(path, rules);
  if (opened.type !== 'open') return opened;
  const { fd, stat } = opened;
  try {
    // What is there now, which may be more than fstat saw while the writer writes.
    const buffer = scratch !== undefined && stat.size <= scratch.length ? scratch.subarray(0, stat.size) : Buffer.allocUnsafe(stat.size);
    const filled = readInto(fd, buffer, 0);
    return { type: 'bytes', bytes: filled === buffer.length ? buffer : buffer.subarray(0, filled), size: stat.size, mtimeMs: stat.mtimeMs, identity: { dev: stat.dev, ino: stat.ino } };
  } catch (error) {
    return { type: 'unreadable', why: describeError(error as NodeJS.ErrnoException), size: stat.size };
  } finally {
    closeSync(fd);
  }
}

/** A stretch of a file read again, with what the reader knew of the file when it read it. */
type RangeRequest = { path: string | Buffer; start: number; end: number; identity?: FileIdentity | null };

/** A range read again: never `missing`, since the file was there when it was read (it is `changed`). */
export type RangeRead = Exclude<FileRead, { type: 'missing' }>;

/**
 * Reads ranges of files read before (a page reads a line or a body again), each file opened once:
 * a file that is no longer the one read, or shorter than a range's end, is `changed` for it.
 */
export function readRanges(requests: readonly RangeRequest[], rules: OpenRules): RangeRead[] {
  const byPath = new Map<string, number[]>();
  requests.forEach((request, index) => {
    const key = typeof request.path === 'string' ? request.path : request.path.toString('latin1');
    const list = byPath.get(key);
    if (list === undefined) byPath.set(key, [index]);
    else list.push(index);
  });
  const results: RangeRead[] = new Array(requests.length);
  for (const indexes of byPath.values()) {
    const opened = openSafely(requests[indexes[0]!]!.path, rules);
    if (opened.type !== 'open') {
      for (const index of indexes) results[index] = opened.type === 'missing' ? { type: 'changed', why: 'the file is gone; the writer never removes one', size: 0, mtimeMs: 0 } : opened;
      continue;
    }
    const { fd, stat } = opened;
    try {
      for (const index of indexes) {
        const { start, end, identity } = requests[index]!;
        if (identity != null && (identity.dev !== stat.dev || identity.ino !== stat.ino)) {
          results[index] = { type: 'changed', why: 'another file now has this name: the writer only appends to one', size: stat.size, mtimeMs: stat.mtimeMs };
        } else if (stat.size < end) {
          results[index] = { type: 'changed', why: `the file is shorter (${stat.size} bytes) than what was read; the writer only appends`, size: stat.size, mtimeMs: stat.mtimeMs };
        } else {
          const bytes = Buffer.allocUnsafe(Math.max(0, end - start));
          results[index] = { type: 'bytes', bytes: bytes.subarray(0, readInto(fd, bytes, start)), size: stat.size, mtimeMs: stat.mtimeMs, identity: { dev: stat.dev, ino: stat.ino } };
        }
      }
    } catch (error) {
      for (const index of indexes) results[index] ??= { type: 'unreadable', why: describeError(error as NodeJS.ErrnoException), size: stat.size };
    } finally {
      closeSync(fd);
    }
  }
  return results;
}

/** Reads into `buffer` from `at` until it is full or the file ends; returns how many bytes. */
export function readInto(fd: number, buffer: Buffer, at: number): number {
  let filled = 0;
  while (filled < buffer.length) {
    const n = readSync(fd, buffer, filled, buffer.length - filled, at + filled);
    if (n === 0) break;
    filled += n;
  }
  return filled;
}

/** Facts about a path without opening it or following it (a stray is listed, never read). */
export function statPath(path: string | Buffer): { size: number; mtimeMs: number; kind: 'file' | 'folder' | 'link' | 'other' } | null {
  const stat = lstatOrNull(path);
  if (stat === null) return null;
  const kind = stat.isSymbolicLink() ? 'link' : stat.isFile() ? 'file' : stat.isDirectory() ? 'folder' : 'other';
  return { size: stat.size, mtimeMs: stat.mtimeMs, kind };
}

// ——— containment ———

const OUTSIDE = 'outside the store: a folder on its way is a link out of it, not followed';

/**
 * Opens a file of the store, or says why not. On Linux its folder is opened first, its real path
 * checked once (/proc/self/fd), and the file opened through that open folder by its name alone
 * (never through a link): a folder swapped for a link at any moment is then either the folder that
 * was checked or not reached. Elsewhere the file is opened by its path, and its folder's real path
 * resolved after, which leaves that moment open.
 */
function openWithin(path: string | Buffer, root: string): number | Exclude<FileRead, { type: 'bytes' }> {
  const at = typeof path === 'string' ? path.lastIndexOf(sep) : path.lastIndexOf(sep.charCodeAt(0));
  const folder = procUsable && at > 0 ? pinFolder(typeof path === 'string' ? path.slice(0, at) : path.subarray(0, at), root) : null;
  if (folder !== null && typeof folder !== 'number') return folder.type === 'missing' ? folder : failedOpen(path, folder.error);
  if (folder === -1) return { type: 'refused', refusal: 'outside', why: OUTSIDE, size: null, mtimeMs: null };
  try {
    if (folder !== null) {
      const name = typeof path === 'string' ? path.slice(at) : path.subarray(at);
      return openSync(typeof name === 'string' ? `${PROC_FD}${folder}${name}` : Buffer.concat([Buffer.from(`${PROC_FD}${folder}`), name]), OPEN_FLAGS);
    }
    const fd = openSync(path, OPEN_FLAGS);
    if (isInside(fd, path, root)) return fd;
    closeSync(fd);
    return { type: 'refused', refusal: 'outside', why: OUTSIDE, size: null, mtimeMs: null };
  } catch (error) {
    return failedOpen(path, error as NodeJS.ErrnoException);
  }
}

/**
 * The last folder a file was opened in, kept open to the end of this turn of the event loop: a
 * scan reads a folder's files one after the other, and each then costs its own open only.
 */
let pinned: { key: string; root: string; fd: number; inside: boolean } | null = null;

/** An open descriptor of `folder` (-1 when it is outside the root), or why it cannot be opened. */
function pinFolder(folder: string | Buffer, root: string): number | { type: 'missing' } | { type: 'error'; error: NodeJS.ErrnoException } {
  const key = typeof folder === 'string' ? folder : folder.toString('latin1');
  if (pinned !== null && pinned.key === key && pinned.root === root) return pinned.inside ? pinned.fd : -1;
  unpin();
  let fd: number;
  try {
    fd = openSync(folder, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { type: 'missing' } : { type: 'error', error: error as NodeJS.ErrnoException };
  }
  pinned = { key, root, fd, inside: isFolderInside(fd, folder, root) };
  setImmediate(unpin).unref();
  return pinned.inside ? fd : -1;
}

/**
 * Keeps a folder just listed open as the pinned folder (the listing opened it without following
 * a link and checked its real path, more than a pin asks): a reader lists a folder and then opens
 * its files, and the first of them then costs no open of the folder and no look at its real path.
 * Takes `fd` over: the caller does not close it.
 */
export function pinListedFolder(folder: string, root: string, fd: number): void {
  unpin();
  pinned = { key: folder, root, fd, inside: true };
  setImmediate(unpin).unref();
}

function unpin(): void {
  if (pinned !== null) closeSync(pinned.fd);
  pinned = null;
}

/** Each root's real path, as last resolved, as text and as bytes; resolved again when an open file seems outside it. */
const realRoots = new Map<string, { text: string; bytes: Buffer }>();
const PROC_FD = '/proc/self/fd/';
let procUsable = true;

/**
 * Whether the open file's real path lies under the root's. Linux says where an open file really
 * is (/proc/self/fd), so a folder swapped for a link between listing and opening is caught; other
 * systems resolve the path's folder, which leaves that moment open.
 */
function isInside(fd: number, path: string | Buffer, root: string): boolean {
  const real = realPathOf(fd, path);
  if (real === null) return false;
  if (isUnder(real, realRootOf(root, false))) return true;
  // The root may have moved or been made again since its real path was resolved.
  return isUnder(real, realRootOf(root, true));
}

function realRootOf(root: string, again: boolean): { text: string; bytes: Buffer } {
  let real = again ? undefined : realRoots.get(root);
  if (real === undefined) {
    let bytes: Buffer;
    try {
      bytes = realpathSync.native(root, { encoding: 'buffer' });
    } catch {
      bytes = Buffer.from(root);
    }
    real = { text: bytes.toString(), bytes };
    realRoots.set(root, real);
  }
  return real;
}

function realPathOf(fd: number, path: string | Buffer): string | Buffer | null {
  // A path given as bytes (a name that is not UTF-8) is compared as bytes; any other as text, which costs less.
  const asText = typeof path === 'string';
  if (procUsable) {
    try {
      return asText ? readlinkSync(`${PROC_FD}${fd}`) : readlinkSync(`${PROC_FD}${fd}`, { encoding: 'buffer' });
    } catch {
      procUsable = false;
    }
  }
  try {
    return asText ? realpathSync.native(path) : realpathSync.native(path, { encoding: 'buffer' });
  } catch {
    return null;
  }
}

function isUnder(real: string | Buffer, root: { text: string; bytes: Buffer }): boolean {
  if (typeof real === 'string') return real.length > root.text.length + 1 && real.charCodeAt(root.text.length) === 0x2f && real.startsWith(root.text);
  return real.length > root.bytes.length + 1 && real[root.bytes.length] === 0x2f && real.subarray(0, root.bytes.length).equals(root.bytes);
}

/** Whether a folder's real path is the root or under it: for listings, which open no file. */
export function isFolderInside(fd: number, path: string | Buffer, root: string): boolean {
  const real = realPathOf(fd, path);
  if (real === null) return false;
  const inside = (rootReal: { text: string; bytes: Buffer }) => (typeof real === 'string' ? real === rootReal.text : real.equals(rootReal.bytes)) || isUnder(real, rootReal);
  return inside(realRootOf(root, false)) || inside(realRootOf(root, true));
}

// ——— outcomes ———

function refusedSecret(stat: Stats): Extract<FileRead, { type: 'refused' }> {
  return { type: 'refused', refusal: 'secret', why: 'the same file (device and inode) as a secret of a store read here, under another name: withheld, never read', size: stat.size, mtimeMs: stat.mtimeMs };
}

function failedOpen(path: string | Buffer, error: NodeJS.ErrnoException): Exclude<FileRead, { type: 'bytes' }> {
  if (error.code === 'ENOENT') return { type: 'missing' };
  const stat = lstatOrNull(path);
  if (error.code === 'ELOOP') return { type: 'refused', refusal: 'link', why: 'a symbolic link, not followed', size: stat?.size ?? null, mtimeMs: stat?.mtimeMs ?? null };
  if (error.code === 'EISDIR') return { type: 'refused', refusal: 'folder', why: 'a folder', size: stat?.size ?? null, mtimeMs: stat?.mtimeMs ?? null };
  return { type: 'unreadable', why: describeError(error), size: stat?.size ?? null };
}

function lstatOrNull(path: string | Buffer): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function describeKind(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}
