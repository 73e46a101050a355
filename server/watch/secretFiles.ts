import { lstatSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

// A store's secrets (set-agent-comm's relays.json and http-tokens.json) are never opened, and
// neither is any other name for the same file: a hard link is the same device and inode under a
// name the reader does read. Their identities are learnt by stat alone, looked at again whenever
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

/**
 * The secrets named `names` under `root`, stat'ed when first needed and whenever asked to look
 * again: a file with one name is only compared with what was last seen, at no cost.
 */
export function createSecretFiles(root: string, names: readonly string[]): SecretFiles {
  let current = new Set<string>();
  const refused = new Set<Identity>();

  function look(): void {
    const next = new Set<string>();
    for (const name of names) {
      const path = join(root, name);
      // Both the name and what it points at, if it is a link: neither is ever opened.
      for (const stat of [tryStat(lstatSync, path), tryStat(statSync, path)]) if (stat !== null) next.add(`${stat.dev}:${stat.ino}`);
    }
    current = next;
  }

  return {
    look,
    isSecret(stat) {
      // The identity is a string of four numbers, made only when a file was ever refused: a first
      // scan asks this of thousands of files with none refused.
      if (refused.size > 0 && refused.has(identityOf(stat))) return true;
      // One name only: it is not another name of a file that is a secret now.
      if (stat.nlink <= 1 && !current.has(`${stat.dev}:${stat.ino}`)) return false;
      if (stat.nlink > 1) look();
      if (!current.has(`${stat.dev}:${stat.ino}`)) return false;
      refused.add(identityOf(stat));
      return true;
    },
  };
}

function tryStat(stat: (path: string) => Stats, path: string): Stats | null {
  try {
    return stat(path);
  } catch {
    return null;
  }
}
