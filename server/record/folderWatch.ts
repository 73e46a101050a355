import { lstatSync, watch as watchEntries, type FSWatcher as EntriesWatcher } from 'node:fs';
import { join } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { listFolder, type FolderEntry } from '../watch/listFolder.ts';

// The record directory is watched with chokidar: session folders and strays come and go there,
// and the directory itself may go and come back (a watch of its own only hastens new session
// folders). Each session folder is watched with Node's fs.watch, which is what chokidar sets up
// underneath for a folder on Linux (one inotify watch) without the walk that stats every file
// first: given the session folders, chokidar saw its first event 3 s after the start at 100k
// entries and 28 s after at 1M; fs.watch on every folder takes 30 ms at 1,000 folders and
// 140 ms at 5,000, before the API first answers.

export type WatchEvent = 'add' | 'addDir' | 'change' | 'unlink' | 'unlinkDir';

export type FolderWatchHandlers = {
  /** Something came, changed or went directly in the record directory. */
  onEvent(event: WatchEvent, path: string): void;
  onError(error: NodeJS.ErrnoException): void;
  /**
   * A file of a session folder came, changed or went: its name, or null when only a listing of
   * the folder can tell (a folder just watched, a name that is not UTF-8, the folder itself).
   * Told as the kernel tells it, at once: a file written in pieces is told once per piece.
   */
  onStir(sessionId: string, name: string | null): void;
};

/** What a watch told before it had handlers, in the order told. */
type Told = { type: 'event'; event: WatchEvent; path: string } | { type: 'error'; error: NodeJS.ErrnoException } | { type: 'stir'; sessionId: string; name: string | null };

export type FolderWatch = ReturnType<typeof createFolderWatch>;

/**
 * Watches a record directory. `begin` sets up the watches that need no library (the record
 * directory's entries, each session folder) at once, so that the first scan can read while the
 * rest of the command loads; what they tell is kept until `start` gives it handlers.
 */
export function createFolderWatch(recordDir: string) {
  let told: Told[] | null = [];
  let given: FolderWatchHandlers | null = null;
  const handlers: FolderWatchHandlers = {
    onEvent: (event, path) => (given === null ? told?.push({ type: 'event', event, path }) : given.onEvent(event, path)),
    onError: (error) => (given === null ? told?.push({ type: 'error', error }) : given.onError(error)),
    onStir: (sessionId, name) => (given === null ? told?.push({ type: 'stir', sessionId, name }) : given.onStir(sessionId, name)),
  };
  /** The record directory itself: session folders and strays come and go here. */
  let rootWatcher: FSWatcher | null = null;
  /**
   * The record directory's own entries, for new session folders only. chokidar tells of a new
   * folder after listing the whole directory again, in several turns of the event loop (during
   * the first scan, each a slice later); this tells of it at once, and chokidar again later,
   * which changes nothing.
   */
  let rootEntries: EntriesWatcher | null = null;
  /** Session folders watched, each on its own; null until watching begins. */
  let folderWatchers: Map<string, EntriesWatcher> | null = null;
  /** Listings of folders just watched, due at the next turn of the event loop. */
  const listings = new Set<NodeJS.Immediate>();
  /** Why a folder could not be watched, told once per reason rather than once per folder. */
  const failuresTold = new Set<string>();
  let closed = false;

  function createRootWatcher(): FSWatcher {
    const created = watch(recordDir, {
      ignoreInitial: true,
      followSymlinks: false,
      // The record directory lists session folders; their files are watched folder by folder.
      depth: 0,
      // The writer never renames; an unlink and an add are two real events, not one save.
      atomic: false,
      persistent: true,
    });
    for (const event of ['add', 'addDir', 'change', 'unlink', 'unlinkDir'] as const) {
      created.on(event, (path: string) => handlers.onEvent(event, path));
    }
    created.on('error', (error: unknown) => handlers.onError(error as NodeJS.ErrnoException));
    // chokidar says nothing of what came while it walked the directory: a listing once it is
    // ready tells of folders and strays that came after the folders were watched.
    created.once('ready', () => {
      if (closed || created !== rootWatcher) return;
      for (const dirent of listRecordDirectory()) {
        if (dirent.isDirectory() && folderWatchers?.has(dirent.name) !== true) handlers.onEvent('addDir', join(recordDir, dirent.name));
        else if (!dirent.isDirectory()) handlers.onEvent('add', join(recordDir, dirent.name));
      }
    });
    return created;
  }

  function watchRecordEntries(): EntriesWatcher | null {
    try {
      const watcher = watchEntries(recordDir, { persistent: true }, (_event, name) => {
        if (closed || typeof name !== 'string' || folderWatchers === null || folderWatchers.has(name)) return;
        const path = join(recordDir, name);
        try {
          // lstat: a link to a folder is a stray, never followed.
          if (lstatSync(path).isDirectory()) handlers.onEvent('addDir', path);
        } catch {
          // Gone again, or unreadable: chokidar and the reconciles say so.
        }
      });
      watcher.on('error', () => watcher.close());
      return watcher;
    } catch {
      // Missing or unreadable: chokidar waits for it, and a reconcile watches it afresh.
      return null;
    }
  }

  function listRecordDirectory(): FolderEntry[] {
    try {
      // A folder whose name is not UTF-8 names no session: it is listed, never watched or read.
      return listFolder(recordDir).filter((dirent) => dirent.bytes === undefined);
    } catch {
      // Missing or unreadable: a reconcile says so, and finds the folders once it is back.
      return [];
    }
  }

  /** Watches one session folder; the watch is set up when this returns. */
  function watchOne(sessionId: string): boolean {
    if (folderWatchers === null || folderWatchers.has(sessionId)) return false;
    try {
      const watcher = watchEntries(join(recordDir, sessionId), { persistent: true }, (_event, name) => stir(sessionId, name));
      watcher.on('error', (error) => {
        forget(sessionId);
        tellFailure(sessionId, error as NodeJS.ErrnoException);
      });
      folderWatchers.set(sessionId, watcher);
      return true;
    } catch (error) {
      // Gone already (a reconcile says so), or the kernel's limit of watches is reached: the
      // folder is then read by reconciles alone.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') tellFailure(sessionId, error as NodeJS.ErrnoException);
      return false;
    }
  }

  function tellFailure(sessionId: string, error: NodeJS.ErrnoException): void {
    const reason = error.code ?? error.message;
    if (failuresTold.has(reason)) return;
    failuresTold.add(reason);
    // Without the folder's path: a folder that cannot be watched is not therefore unreadable.
    handlers.onError(Object.assign(new Error(`cannot watch session folder ${sessionId} (${error.message}); it is read again at each reconcile`), { code: error.code }));
  }

  function stir(sessionId: string, name: string | Buffer | null): void {
    if (closed) return;
    // inotify tells a watched folder's own removal as its own name; the watch is dead then, so
    // it is dropped, and a listing says whether the folder is gone or was made again.
    if (name === sessionId) forget(sessionId);
    const listing = typeof name !== 'string' || name === sessionId || name.includes('\uFFFD');
    handlers.onStir(sessionId, listing ? null : name);
  }

  function forget(sessionId: string): void {
    const watcher = folderWatchers?.get(sessionId);
    if (watcher === undefined) return;
    folderWatchers!.delete(sessionId);
    watcher.close();
  }

  function begin(): FolderEntry[] | null {
    if (folderWatchers !== null) return null;
    folderWatchers = new Map();
    rootEntries = watchRecordEntries();
    const listing = listRecordDirectory();
    for (const dirent of listing) if (dirent.isDirectory()) watchOne(dirent.name);
    return listing;
  }

  function closeAll(): void {
    rootEntries?.close();
    rootEntries = null;
    for (const watcher of folderWatchers?.values() ?? []) watcher.close();
    folderWatchers?.clear();
  }

  return {
    /** Whether watching has begun (the record directory has a watcher). */
    get started(): boolean {
      return rootWatcher !== null;
    },

    /**
     * Watches the record directory's entries and every session folder there is now, before it
     * returns, and gives the listing they were found in; null when the folders were watched before.
     */
    begin,

    /** Tells `to` what the watches told since they began (begun now if they were not), then all they tell. */
    start(to: FolderWatchHandlers): void {
      begin();
      given = to;
      for (const one of told?.splice(0) ?? []) {
        if (one.type === 'event') to.onEvent(one.event, one.path);
        else if (one.type === 'error') to.onError(one.error);
        else to.onStir(one.sessionId, one.name);
      }
      told = null;
    },

    /**
     * Watches the record directory with chokidar, whose walk stats every session folder (0.2 s
     * of CPU at 1,000 folders): meanwhile, the record directory's own watch tells of new folders,
     * and each folder's watch of its own removal. Resolves when chokidar is ready and has told
     * what came meanwhile.
     */
    async watchRecordDirectory(): Promise<void> {
      if (closed || rootWatcher !== null) return;
      rootWatcher = createRootWatcher();
      const watching = rootWatcher;
      await new Promise<void>((resolve) => watching.once('ready', () => resolve()));
    },

    /** Watches a session folder found after the start (new, or back after it was removed). */
    watchFolder(sessionId: string): void {
      if (closed || !watchOne(sessionId)) return;
      // Found by a listing made just before its watch was set up: what was written in between
      // is found by listing it once more.
      const listing = setImmediate(() => {
        listings.delete(listing);
        if (!closed) handlers.onStir(sessionId, null);
      });
      listings.add(listing);
    },

    /** Forgets a folder that is gone; if it comes back, it is watched again from scratch. */
    forgetFolder(sessionId: string): void {
      forget(sessionId);
    },

    /**
     * Watches the record directory afresh, when it appeared after the command started or came
     * back after it was removed: the watchers made before then watch a folder that is gone.
     */
    rewatch(): void {
      const old = rootWatcher;
      closeAll();
      folderWatchers = new Map();
      rootEntries = watchRecordEntries();
      rootWatcher = createRootWatcher();
      void old?.close();
    },

    async close(): Promise<void> {
      closed = true;
      for (const listing of listings) clearImmediate(listing);
      closeAll();
      await rootWatcher?.close();
    },
  };
}
