import { join } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { listFolder } from './listFolder.ts';

// chokidar, as the record needs it: folders watched (never files one by one), symlinks not
// followed, one level deep from each watched folder.

/**
 * chokidar's events, and 'rename': the native watch saw a name come or go in a watched folder.
 * chokidar says nothing when a folder takes the name of a file it knows (paulmillr/chokidar#165).
 */
export type WatchEvent = 'add' | 'addDir' | 'change' | 'unlink' | 'unlinkDir' | 'rename';

export type FolderWatchHandlers = {
  onEvent(event: WatchEvent, path: string): void;
  onError(error: NodeJS.ErrnoException): void;
  /** A folder given to a watcher after the first walk is due to be listed again. */
  onSettle(sessionId: string): void;
  /** These folders' watch is set up: what was written to them before it was is found now. */
  onWatching(sessionIds: string[]): void;
  /** When a session was last active (an ISO time), so that the liveliest are watched first. */
  lastActive(sessionId: string): string | null;
};

// chokidar lists and stats every folder it is given at once; given a thousand folders, it holds
// a hundred thousand stats in flight and the heap balloons (bench: 400 MB for 100k files, against
// 230 MB and a faster walk when it is given 20 folders at a time).
const FOLDERS_PER_WATCHER = 20;
/** When a newly watched folder is listed again, while its watch is being set up. */
const SETTLE_DELAYS_MS = [25, 100, 400, 1_500];

export type FolderWatch = ReturnType<typeof createFolderWatch>;

export function createFolderWatch(recordDir: string, handlers: FolderWatchHandlers) {
  /** The record directory itself: session folders and strays come and go here. */
  let rootWatcher: FSWatcher | null = null;
  /** Session folders present at the start, a few per watcher. */
  const folderWatchers: FSWatcher[] = [];
  /** Folders that appeared after the first walk. */
  let laterFolders: FSWatcher | null = null;
  /** Session folders handed to a watcher; null until watching begins. */
  let watchedFolders: Set<string> | null = null;
  /** Listings of newly watched folders, due while chokidar sets up their watches. */
  const settleTimers = new Set<NodeJS.Timeout>();
  let closed = false;

  function createWatcher(paths: string | string[]): FSWatcher {
    const created = watch(paths, {
      ignoreInitial: true,
      followSymlinks: false,
      // The record directory lists session folders; a session folder lists entries.
      depth: 0,
      // The writer never renames; an unlink and an add are two real events, not one save.
      atomic: false,
      persistent: true,
    });
    for (const event of ['add', 'addDir', 'change', 'unlink', 'unlinkDir'] as const) {
      created.on(event, (path: string) => handlers.onEvent(event, path));
    }
    // chokidar calls its raw events unstable: only their documented shape is used, and only as
    // a hint to look at a name again (a reconcile looks too).
    created.on('raw', (event: unknown, name: unknown, details: unknown) => {
      const folder = (details as { watchedPath?: unknown } | null)?.watchedPath;
      if (event === 'rename' && typeof name === 'string' && name !== '' && typeof folder === 'string') handlers.onEvent('rename', join(folder, name));
    });
    created.on('error', (error: unknown) => handlers.onError(error as NodeJS.ErrnoException));
    return created;
  }

  function whenReady(target: FSWatcher): Promise<void> {
    return new Promise((resolve) => target.once('ready', () => resolve()));
  }

  return {
    /** Whether watching has begun (the record directory has a watcher). */
    get started(): boolean {
      return rootWatcher !== null;
    },

    /**
     * Watches the record directory, then its session folders a few at a time, each group once
     * the one before is ready. Watching a large record takes a while (at 1M entries, 11 s after
     * the scan), and live traffic is in the sessions active last: those are watched first, and
     * each group is listed again once it is watched, so that nothing waits for them all.
     * Resolves when all are ready.
     */
    async start(): Promise<void> {
      rootWatcher = createWatcher(recordDir);
      await whenReady(rootWatcher);
      let folders: string[] = [];
      try {
        // A folder whose name is not UTF-8 is not read, so not watched.
        folders = listFolder(recordDir).filter((dirent) => dirent.isDirectory() && dirent.bytes === undefined).map((dirent) => dirent.name);
      } catch {
        // Missing or unreadable: the folders are watched once a reconcile finds them.
      }
      const active = new Map(folders.map((name) => [name, handlers.lastActive(name) ?? '']));
      folders.sort((a, b) => (active.get(a)! < active.get(b)! ? 1 : active.get(a)! > active.get(b)! ? -1 : 0));
      watchedFolders = new Set(folders);
      for (let at = 0; at < folders.length && !closed; at += FOLDERS_PER_WATCHER) {
        const names = folders.slice(at, at + FOLDERS_PER_WATCHER);
        const group = createWatcher(names.map((name) => join(recordDir, name)));
        folderWatchers.push(group);
        await whenReady(group);
        if (!closed) handlers.onWatching(names);
      }
    },

    /** Watches a session folder found after the first walk (new, or back after it was removed). */
    watchFolder(sessionId: string): void {
      if (watchedFolders === null || watchedFolders.has(sessionId) || closed) return;
      watchedFolders.add(sessionId);
      const path = join(recordDir, sessionId);
      if (laterFolders === null) laterFolders = createWatcher(path);
      else laterFolders.add(path);
      // chokidar sets up the watch a moment later and says nothing when it has: an entry written
      // into a new folder meanwhile (a session's first entries are) is found by listing it again.
      for (const delay of SETTLE_DELAYS_MS) {
        const timer = setTimeout(() => {
          settleTimers.delete(timer);
          if (!closed && watchedFolders?.has(sessionId) === true) handlers.onSettle(sessionId);
        }, delay);
        settleTimers.add(timer);
      }
    },

    /** Forgets a folder that is gone; if it comes back, it is watched again from scratch. */
    forgetFolder(sessionId: string): void {
      if (watchedFolders?.delete(sessionId) === true) laterFolders?.unwatch(join(recordDir, sessionId));
    },

    /**
     * Watches the record directory afresh, when it appeared after the command started or came
     * back after it was removed: the watchers made before then watch a folder that is gone.
     */
    rewatch(): void {
      const old = [rootWatcher, laterFolders, ...folderWatchers.splice(0)];
      laterFolders = null;
      watchedFolders = new Set();
      rootWatcher = createWatcher(recordDir);
      for (const each of old) void each?.close();
    },

    async close(): Promise<void> {
      closed = true;
      for (const timer of settleTimers) clearTimeout(timer);
      await Promise.all([rootWatcher, laterFolders, ...folderWatchers].map((each) => each?.close()));
    },
  };
}
