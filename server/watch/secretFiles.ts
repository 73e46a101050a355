import { lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads';

// A store's secrets (set-agent-comm's relays.json and http-tokens.json, and any name at its root
// that begins with one of them, in any case: a temporary, a copy kept beside them) are never
// opened, and neither is any other name for the same file: a hard link is the same device and
// inode under a name a reader does read, in this store or in any other the command reads
// (`declareSecretStores`). Their identities are learnt by stat alone, looked at again whenever
// the store's watch says they changed, and again at once when a file about to be read has more
// than one name (only then can it be a secret's other name). A file once refused as a secret stays
// refused while it is the same file: the secret may be written anew under its own name, and the
// old one, still linked, holds what it held.

/** A file's identity and the stamps that tell another file that took its inode number. */
type Identity = string;

function identityOf(stat: Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs'>): Identity {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}

export type SecretFiles = {
  /** Looks at the secrets again: their names may now be other files. */
  look(): void;
  /** Whether a file, by what fstat or lstat said of it, is one of the secrets. */
  isSecret(stat: Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'nlink'>): boolean;
};

/** Where a store keeps its secrets: the names at `root` that begin with one of `prefixes`, in any case. */
export type SecretPlace = { root: string; prefixes: readonly string[] };

/**
 * The secrets at each place, stat'ed when first needed and whenever asked to look again: a file
 * with one name is only compared with what was last seen, at no cost.
 */
export function createSecretFiles(places: readonly SecretPlace[]): SecretFiles & { isOtherName(stat: Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'nlink'>): boolean } {
  let current = new Set<string>();
  const refused = new Set<Identity>();

  function look(): void {
    const next = new Set<string>();
    for (const { root, prefixes } of places) {
      let names: string[];
      try {
        names = readdirSync(root);
      } catch {
        continue;
      }
      for (const name of names) {
        const lower = name.toLowerCase();
        if (!prefixes.some((prefix) => lower.startsWith(prefix))) continue;
        const path = join(root, name);
        // Both the name and what it points at, if it is a link: neither is ever opened.
        for (const stat of [tryStat(lstatSync, path), tryStat(statSync, path)]) if (stat !== null) next.add(`${stat.dev}:${stat.ino}`);
      }
    }
    current = next;
  }

  function isSecret(stat: Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'nlink'>): boolean {
    // The identity is a string of four numbers, made only when a file was ever refused: a first
    // scan asks this of thousands of files with none refused.
    if (refused.size > 0 && refused.has(identityOf(stat))) return true;
    // One name only: it is not another name of a file that is a secret now.
    if (stat.nlink <= 1 && !current.has(`${stat.dev}:${stat.ino}`)) return false;
    if (stat.nlink > 1) look();
    if (!current.has(`${stat.dev}:${stat.ino}`)) return false;
    refused.add(identityOf(stat));
    return true;
  }

  return {
    look,
    isSecret,
    /**
     * Whether a file of another store is one of these secrets: only a file with more than one
     * name can be (or one refused before), so a first scan of a record pays one comparison a file.
     */
    isOtherName: (stat) => (stat.nlink > 1 || refused.size > 0) && isSecret(stat),
  };
}

const SECRET_STORES = 'rec-dashboard:secret-stores';

/**
 * Declares the stores whose secrets no reader of any store opens under another name. Threads
 * started afterwards know them too (worker_threads' environment data is cloned into each new
 * thread), so it is declared before any store's first scan begins.
 */
export function declareSecretStores(places: readonly SecretPlace[]): void {
  const known = (getEnvironmentData(SECRET_STORES) as SecretPlace[] | undefined) ?? [];
  const added = places.filter((place) => !known.some((other) => other.root === place.root));
  if (added.length === 0) return;
  setEnvironmentData(SECRET_STORES, [...known, ...added]);
  storesSecrets = undefined;
}

/** Made once a thread (every open asks for it); undefined until then. */
let storesSecrets: ReturnType<typeof createSecretFiles> | null | undefined;

/** The secrets of every store declared in this thread or before it started; null when none was. */
export function secretsOfStores(): ReturnType<typeof createSecretFiles> | null {
  if (storesSecrets === undefined) {
    const places = getEnvironmentData(SECRET_STORES) as SecretPlace[] | undefined;
    storesSecrets = places === undefined || places.length === 0 ? null : createSecretFiles(places);
  }
  return storesSecrets;
}

function tryStat(stat: (path: string) => Stats, path: string): Stats | null {
  try {
    return stat(path);
  } catch {
    return null;
  }
}
