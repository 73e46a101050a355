import { watch as watchEntries, type FSWatcher as EntriesWatcher } from 'node:fs';
import { join } from 'node:path';
import type { FolderWatchHandlers } from './folderWatch.ts';

export type SessionFolderWatches = ReturnType<typeof createSessionFolderWatches>;

/**
 * Each session folder of a record directory, watched on its own with Node's fs.watch (one inotify
 * watch, without chokidar's walk that stats every file first). A folder whose watch dies is
 * forgotten; why a folder cannot be watched is told once per reason, not once per folder.
 */
export function createSessionFolderWatches(recordDir: string, handlers: Pick<FolderWatchHandlers, 'onError' | 'onStir'>) {
  /** Session folders watched, each on its own; null until watching begins. */
  let folderWatchers: Map<string, EntriesWatcher> | null = null;
  /** Listings of folders just watched, due at the next turn of the event loop. */
  const listings = new Set<NodeJS.Immediate>();
  /** Why a folder could not be watched, told once per reason rather than once per folder. */
  const failuresTold = new Set<string>();
  let closed = false;

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

  function closeAll(): void {
    for (const watcher of folderWatchers?.values() ?? []) watcher.close();
    folderWatchers?.clear();
  }

  return {
    /** Whether watching has begun. */
    get begun(): boolean {
      return folderWatchers !== null;
    },
    /** Whether a session folder is watched now. */
    isWatched: (sessionId: string): boolean => folderWatchers?.has(sessionId) === true,
    /** Begins watching, no folder watched yet: at the start, or afresh for a record directory that came back (closeAll first). */
    begin(): void {
      folderWatchers = new Map();
    },
    watchOne,
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
    forget,
    closeAll,
    close(): void {
      closed = true;
      for (const listing of listings) clearImmediate(listing);
      closeAll();
    },
  };
}
