import { readdirSync } from 'node:fs';
import { sep } from 'node:path';
import { decodeName, escapeNameBytes } from '../../shared/record/nameBytes.ts';

/** One name in a folder's listing. */
export type FolderEntry = {
  /** The name as text; a name that is not UTF-8 is shown with those bytes as `\xhh`. */
  name: string;
  isDirectory(): boolean;
  isFile(): boolean;
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
    return name !== null ? { name, isDirectory, isFile } : { name: escapeNameBytes(dirent.name), isDirectory, isFile, bytes: dirent.name };
  });
}

/** The path of a name in `folder`, by its bytes where it has them. */
export function pathIn(folder: string, entry: { name: string; bytes?: Buffer | undefined }): string | Buffer {
  return entry.bytes === undefined ? `${folder}${sep}${entry.name}` : Buffer.concat([Buffer.from(`${folder}${sep}`), entry.bytes]);
}

/** Why a session folder whose name is not UTF-8 is listed and not read. */
export const FOLDER_NAME_NOT_UTF8 = 'its name is not valid UTF-8 (shown with the bytes escaped), so it names no session; not read';
