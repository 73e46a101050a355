import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SourceKind } from '../../shared/wire/common.ts';
import { STORE_KINDS, type StoreKind } from './kinds.ts';

/** `holdsNone`: the directory was read and holds no store (as against one that cannot be looked at). */
type Recognized = { kind: SourceKind } | { kind: null; why: string; holdsNone: boolean };

/** What is looked for, said in the error for a directory that is none of the kinds: "a record (…), a spex home (…) or …". */
function describeKindsLookedFor(): string {
  const said = [...STORE_KINDS].reverse().map((kind) => `${kind.holds.name} (${kind.holds.what})`);
  return said.length === 1 ? said[0]! : `${said.slice(0, -1).join(', ')} or ${said.at(-1)!}`;
}

/**
 * The kind of store a directory holds, recognised by what it holds and nothing else, each kind
 * asked in turn (server/sources/kinds.ts). A directory that does not exist yet, or is empty, is a
 * record nobody has written to yet (a record's writer makes it when it first writes); it is
 * waited for, as before stores had kinds.
 */
export function recognizeStore(dir: string): Recognized {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) return { kind: null, why: `${dir} is a file, not a store directory. Give the folder of ${describeKindsLookedFor()}.`, holdsNone: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'record' };
    return { kind: null, why: `cannot look at ${dir}: ${(error as Error).message}`, holdsNone: false };
  }
  try {
    accessSync(dir, constants.R_OK | constants.X_OK);
    names = readdirSync(dir);
  } catch {
    return { kind: null, why: `${dir} cannot be read by this user. Run rec-dashboard as the user who owns it.`, holdsNone: false };
  }
  if (names.length === 0) return { kind: 'record' };
  const found = STORE_KINDS.find((kind) => kind.recognize(dir, names));
  return found !== undefined ? { kind: found.kind } : { kind: null, why: `${dir} holds none of: ${describeKindsLookedFor()}.`, holdsNone: true };
}

/** The folders in a directory looked into for stores, at most, in name order: a home folder is not walked whole. */
const NEARBY_LOOKED_AT = 50;

/**
 * What a directory given that holds no store has beside it, said after the refusal (and worked
 * out only then: it reads folders): the stores in its folders (the folder that holds a record, a
 * spex home and a store, given instead of them), or the store it is inside (a spex home's
 * `projects`, a store's `channels`), two folders up at most.
 */
export function describeStoresNearby(dir: string): string {
  let folders: string[];
  try {
    folders = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
      .slice(0, NEARBY_LOOKED_AT);
  } catch {
    folders = [];
  }
  const inside = folders.flatMap((name) => {
    const kind = kindHeldBy(join(dir, name));
    return kind === undefined ? [] : [`${name}/ holds ${kind.holds.name}`];
  });
  if (inside.length > 0) return ` Inside it, ${inside.join('; ')}: give ${inside.length === 1 ? 'that folder' : 'those folders'}.`;
  for (let up = dirname(dir), steps = 0; up !== dirname(up) && steps < 2; up = dirname(up), steps++) {
    const kind = kindHeldBy(up);
    if (kind !== undefined) return ` It is inside ${kind.holds.name}, ${up}: give that folder.`;
  }
  return '';
}

/** The kind of store a folder holds, by what it holds; undefined for none, an empty folder, or one not read. */
function kindHeldBy(dir: string): StoreKind | undefined {
  try {
    if (!statSync(dir).isDirectory()) return undefined;
    const names = readdirSync(dir);
    return names.length === 0 ? undefined : STORE_KINDS.find((kind) => kind.recognize(dir, names));
  } catch {
    return undefined;
  }
}
