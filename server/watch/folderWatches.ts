import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, sep } from 'node:path';
import { describeError } from './describeError.ts';

// One fs.watch per folder a reader reads (on Linux, one inotify watch each: no walk, no stat of
// each file as chokidar makes). A watch says which name stirred, or null when only a listing can
// tell (a name that is not UTF-8, the folder itself gone or moved). A watch that fails, or whose
// folder is gone or another folder now (a watch follows the folder it was set on, wherever it
// moves), is dropped and its folder stirred whole, so that a listing says what became of it.

type FolderWatches = {
  /** Watches `folder` if it is not watched yet; says whether it is watched now. */
  watch(folder: string): boolean;
  /** Stops watching `folder` and every folder under it. */
  unwatchUnder(folder: string): void;
  isWatched(folder: string): boolean;
  size(): number;
  closeAll(): void;
};

export function createFolderWatches(onStir: (folder: string, name: string | null) => void, onError: (message: string) => void): FolderWatches {
  const watchers = new Map<string, FSWatcher>();
  /** The identity of each watched folder when its watch was set. */
  const identities = new Map<string, string>();
  /** Why a folder could not be watched, told once per reason rather than once per folder. */
  const told = new Set<string>();

  function drop(folder: string): void {
    watchers.get(folder)?.close();
    watchers.delete(folder);
    identities.delete(folder);
  }

  return {
    watch(folder) {
      if (watchers.has(folder)) return true;
      try {
        const identity = identityOf(folder);
        const watcher = watch(folder, { persistent: false }, (_event, name) => {
          if (watchers.get(folder) !== watcher) return;
          // The folder itself is told under its own name: gone, moved, or made again.
          if (name === basename(folder) && identityOf(folder) !== identity) {
            drop(folder);
            onStir(folder, null);
            return;
          }
          const text = typeof name === 'string' && !name.includes('\ufffd') ? name : null;
          onStir(folder, text);
        });
        watcher.on('error', () => {
          if (watchers.get(folder) !== watcher) return;
          drop(folder);
          onStir(folder, null);
        });
        watchers.set(folder, watcher);
        identities.set(folder, identity);
        return true;
      } catch (error) {
        const why = describeError(error as NodeJS.ErrnoException);
        // Gone already: a listing says so. Anything else (the kernel's limit of watches): the
        // folder is read by reconciles alone, and that is said once.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !told.has(why)) {
          told.add(why);
          onError(`cannot watch ${folder} (${why}); it is read again at each reconcile`);
        }
        return false;
      }
    },
    unwatchUnder(folder) {
      const prefix = `${folder}${sep}`;
      for (const path of [...watchers.keys()]) if (path === folder || path.startsWith(prefix)) drop(path);
    },
    isWatched: (folder) => watchers.has(folder),
    size: () => watchers.size,
    closeAll() {
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      identities.clear();
    },
  };
}

function identityOf(folder: string): string {
  try {
    const stat = statSync(folder);
    return `${stat.dev}:${stat.ino}:${stat.birthtimeMs}`;
  } catch {
    return 'gone';
  }
}
