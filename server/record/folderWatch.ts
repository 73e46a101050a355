import { lstatSync, watch as watchEntries, type FSWatcher as EntriesWatcher } from 'node:fs';
import { join } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { listFolder, type FolderEntry } from '../watch/listFolder.ts';
import { rootIdentity } from '../watch/rootPoll.ts';
import { createSessionFolderWatches, type SessionFolderWatches } from './sessionFolderWatches.ts';

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
  const folders = createSessionFolderWatches(recordDir, handlers);
  let closed = false;
  /** The record directory the watches were set up on (rootPoll.ts's identity); null: it was not there. */
  let watched: string | null = null;
  const root: RecordRoot = { recordDir, folders, handlers, isClosed: () => closed };
  const isCurrent = (watcher: FSWatcher) => watcher === rootWatcher;

  function begin(): FolderEntry[] | null {
    if (folders.begun) return null;
    // Taken before the watches: a folder put in its place after this is another one.
    watched = rootIdentity(recordDir);
    folders.begin();
    rootEntries = watchRecordEntries(root);
    const listing = listRecordDirectory(recordDir);
    for (const dirent of listing) if (dirent.isDirectory()) folders.watchOne(dirent.name);
    return listing;
  }

  function closeAll(): void {
    rootEntries?.close();
    rootEntries = null;
    folders.closeAll();
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
      rootWatcher = watchRecordRoot(root, isCurrent);
      const watching = rootWatcher;
      await new Promise<void>((resolve) => watching.once('ready', () => resolve()));
    },

    watchFolder: folders.watchFolder,

    /** Whether a session folder is watched now. */
    isWatched: folders.isWatched,

    /**
     * The record directory is gone (or cannot be listed): whatever comes back under its path, even
     * the same folder moved back, is watched afresh, since the watches made before are dead.
     */
    lost(): void {
      watched = null;
    },

    /** Whether the watches are of the folder whose identity is given (rootPoll.ts), not of one that was there before it. */
    isWatching(identity: string | null): boolean {
      return identity === watched;
    },

    forgetFolder: folders.forget,

    /**
     * Watches the record directory afresh, when it appeared after the command started, came back
     * after it was removed, or is another folder: the watchers made before then watch a folder
     * that is gone or elsewhere.
     */
    rewatch(): void {
      const old = rootWatcher;
      closeAll();
      watched = rootIdentity(recordDir);
      folders.begin();
      rootEntries = watchRecordEntries(root);
      rootWatcher = watchRecordRoot(root, isCurrent);
      void old?.close();
    },

    async close(): Promise<void> {
      closed = true;
      folders.close();
      rootEntries?.close();
      rootEntries = null;
      await rootWatcher?.close();
    },
  };
}

/** What the record directory's two watches share: where they tell, and which folders are watched. */
type RecordRoot = { recordDir: string; folders: SessionFolderWatches; handlers: FolderWatchHandlers; isClosed: () => boolean };

/** The record directory, watched with chokidar; `isCurrent` is false once a rewatch replaced it. */
function watchRecordRoot({ recordDir, folders, handlers, isClosed }: RecordRoot, isCurrent: (watcher: FSWatcher) => boolean): FSWatcher {
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
    if (isClosed() || !isCurrent(created)) return;
    for (const dirent of listRecordDirectory(recordDir)) {
      if (dirent.isDirectory() && !folders.isWatched(dirent.name)) handlers.onEvent('addDir', join(recordDir, dirent.name));
      else if (!dirent.isDirectory()) handlers.onEvent('add', join(recordDir, dirent.name));
    }
  });
  return created;
}

/** The record directory's own entries, watched for new session folders only (rootEntries). */
function watchRecordEntries({ recordDir, folders, handlers, isClosed }: RecordRoot): EntriesWatcher | null {
  try {
    const watcher = watchEntries(recordDir, { persistent: true }, (_event, name) => {
      if (isClosed() || typeof name !== 'string' || !folders.begun || folders.isWatched(name)) return;
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

function listRecordDirectory(recordDir: string): FolderEntry[] {
  try {
    // A folder whose name is not UTF-8 names no session: it is listed, never watched or read.
    return listFolder(recordDir).filter((dirent) => dirent.bytes === undefined);
  } catch {
    // Missing or unreadable: a reconcile says so, and finds the folders once it is back.
    return [];
  }
}
