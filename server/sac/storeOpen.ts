import { join } from 'node:path';
import { SECRET_FILES, mayOpen } from '../../shared/sac/layout.ts';
import { readRanges, type FileIdentity, type OpenRules, type RangeRead } from '../watch/safeOpen.ts';
import { createSecretFiles } from '../watch/secretFiles.ts';

// Where the sac reader may open a file, asked of the core's allowlist (`mayOpen`) before the one
// safe open (server/watch/safeOpen.ts) opens it: a secret's name (`relays.json`,
// `http-tokens.json`) is never opened whatever a listing or a watcher event says, and any other
// name for the same file is refused there by device and inode.

/** Thrown, never caught by a reader: a path outside the allowlist is a bug, not an input. */
class NotAllowed extends Error {}

/** The absolute path of `relative` (`/`-separated, under the root), once the allowlist says yes. */
export function allowedPath(root: string, relative: string): string {
  if (!mayOpen(relative)) throw new NotAllowed(`not a file the sac reader opens: ${JSON.stringify(relative)}`);
  return join(root, ...relative.split('/'));
}

/** The rules every open of a sac store's file follows: within the root, never a secret. */
export function storeRules(root: string): OpenRules {
  return { root, secrets: createSecretFiles([{ root, prefixes: SECRET_FILES }]) };
}

/**
 * Reads bytes [start, start + length) of a seat file for a page, an item or a search, after
 * checking that it is still the file that was read (same identity, not shorter than `end`).
 */
export function readSeatRange(root: string, relative: string, identity: FileIdentity | null, start: number, length: number, end: number): RangeRead {
  const [read] = readRanges([{ path: allowedPath(root, relative), start, end: start + Math.max(0, length), identity }], storeRules(root));
  if (read!.type === 'bytes' && read!.size < end) return { type: 'changed', why: `the file is shorter (${read!.size} bytes) than what was read; the writer only appends`, size: read!.size, mtimeMs: read!.mtimeMs };
  return read!;
}
