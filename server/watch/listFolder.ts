import { closeSync, constants, existsSync, openSync, readdirSync } from 'node:fs';
import { sep } from 'node:path';
import { decodeName, escapeNameBytes } from '../../shared/record/nameBytes.ts';
import { describeError } from './describeError.ts';
import { isFolderInside, pinListedFolder } from './safeOpen.ts';

/** One name in a folder's listing. */
export type FolderEntry = {
  /** The name as text; a name that is not UTF-8 is shown with those bytes as `\xhh`. */
  name: string;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
  /** The name's bytes, when they are not UTF-8: the only way to reach what it names. */
  bytes?: Buffer;
};

/**
 * Lists a folder; throws as readdirSync does. Node reads a name that is not UTF-8 with U+FFFD in
 * place of its bytes, which names nothing on disk, so such a file vanished: was neither read nor
 * listed. A listing with a U+FFFD in it is read again as bytes (a name may also hold a real
 * U+FFFD); any other costs nothing more than readdirSync.
 */
export function listFolder(path: string): FolderEntry[] {
  const dirents = readdirSync(path, { withFileTypes: true });
  if (!dirents.some((dirent) => dirent.name.includes('\ufffd'))) return dirents;
  return readdirSync(path, { withFileTypes: true, encoding: 'buffer' }).map((dirent): FolderEntry => {
    const name = decodeName(dirent.name);
    const isDirectory = () => dirent.isDirectory();
    const isFile = () => dirent.isFile();
    const isSymbolicLink = () => dirent.isSymbolicLink();
    return name !== null ? { name, isDirectory, isFile, isSymbolicLink } : { name: escapeNameBytes(dirent.name), isDirectory, isFile, isSymbolicLink, bytes: dirent.name };
  });
}

/** The path of a name in `folder`, by its bytes where it has them. */
export function pathIn(folder: string, entry: { name: string; bytes?: Buffer | undefined }): string | Buffer {
  return entry.bytes === undefined ? `${folder}${sep}${entry.name}` : Buffer.concat([Buffer.from(`${folder}${sep}`), entry.bytes]);
}

/** Why a session folder whose name is not UTF-8 is listed and not read. */
export const FOLDER_NAME_NOT_UTF8 = 'its name is not valid UTF-8 (shown with the bytes escaped), so it names no session; not read';

type FolderListing =
  | { type: 'listed'; entries: FolderEntry[] }
  | { type: 'missing' }
  /** There, but not listed: a link (never followed), not a folder, or outside the store. */
  | { type: 'refused'; why: string }
  | { type: 'unreadable'; why: string };

const PROC_FD = '/proc/self/fd/';
let procUsable = true;

/**
 * Lists a folder of a store as the safe open opens a file: never through a link (but the root,
 * which the person named, may be one), and only if its real path is the root's or under it. The
 * folder is opened first and the open folder is listed, so one swapped for a link between the
 * check and the listing is not listed either.
 */
export function listStoreFolder(path: string, root: string): FolderListing {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | (path === root ? 0 : constants.O_NOFOLLOW));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { type: 'missing' };
    if (code === 'ELOOP') return { type: 'refused', why: 'a symbolic link, not followed' };
    if (code === 'ENOTDIR') return { type: 'refused', why: 'not a folder' };
    return { type: 'unreadable', why: describeError(error as NodeJS.ErrnoException) };
  }
  let pinnedFd = false;
  try {
    if (!isFolderInside(fd, path, root)) return { type: 'refused', why: 'outside the store: a folder on its way is a link out of it, not followed' };
    if (procUsable) {
      try {
        const entries = listFolder(`${PROC_FD}${fd}`);
        // The files a reader opens next are in this folder: it stays open for them.
        pinListedFolder(path, root, fd);
        pinnedFd = true;
        return { type: 'listed', entries };
      } catch (error) {
        // Without /proc (not Linux), the folder is listed by its path.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || existsSync(PROC_FD)) throw error;
        procUsable = false;
      }
    }
    return { type: 'listed', entries: listFolder(path) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { type: 'missing' } : { type: 'unreadable', why: describeError(error as NodeJS.ErrnoException) };
  } finally {
    if (!pinnedFd) closeSync(fd);
  }
}
