import { statSync } from 'node:fs';
import type { FolderEntry } from '../watch/listFolder.ts';
import { createFolderWatch, type FolderWatch } from './folderWatch.ts';
import { countScanThreads, startScanPool, type ScanPool } from './scanPool.ts';

// The record's first scan, begun as early as the command can: the record directory is listed,
// the scan threads start on its session folders, and the rest of the command (the HTTP server,
// the other kinds, the schemas) loads meanwhile on the main thread. The head of the line of
// folders is watched at once, the rest in turns of its event loop from then on, each before a
// thread reads it: the first request is answered between two turns, not after 1,000 watches.
// A write from then on is read by the scan, or told by the watches, or both: what they tell
// waits for the reader, which takes both over.

/** A first scan begun: the watches, and the scan threads reading the folders they watch. */
export type RecordHeadStart = { folders: FolderWatch; pool: ScanPool | null };

/**
 * A first scan of at least this many session folders is read by scan threads, and the main thread
 * concludes what they read. Below this, starting threads costs more than it saves.
 */
const SCAN_THREADS_MIN_FOLDERS = 50;

/**
 * Session folders watched before the head start returns, the head of the threads' line: enough
 * to keep them reading while the rest of the command loads (a thread reads a folder of 100
 * entries in ~3 ms), at ~10 ms of the main thread's CPU rather than 70-90 ms for 1,000.
 */
const WATCHED_AT_ONCE = 128;

/** Begins a record's first scan; null when there is no record directory yet (it is waited for). */
export function beginRecordScan(recordDir: string, onError: (message: string) => void): RecordHeadStart | null {
  try {
    if (!statSync(recordDir).isDirectory()) return null;
  } catch {
    return null;
  }
  const folders = createFolderWatch(recordDir);
  const sessionIds = sessionIdsOf(folders.beginListing() ?? []);
  if (sessionIds.length < SCAN_THREADS_MIN_FOLDERS) {
    // Read by the reader on this thread, which watches each folder before it reads it.
    folders.watchNow(sessionIds);
    return { folders, pool: null };
  }
  // A thread on every core from the start: the thread loading the rest of the command (which the
  // first answer waits for) keeps its share, since the scan threads yield to it (scanWorker.ts).
  // Holding one back until the reader took the scan over left a core idle for a second or more.
  const watched = new Int32Array(new SharedArrayBuffer(4));
  const pool = startScanPool({ recordDir, sessionIds, threads: countScanThreads(), watched: watched.buffer as SharedArrayBuffer }, onError);
  folders.watchInTurns(sessionIds, watched, WATCHED_AT_ONCE);
  return { folders, pool };
}

/**
 * Starts scan threads on the session folders of a listing of the record directory, each of them
 * watched already. Null when the record is read on this thread alone.
 */
export function startScanThreads(recordDir: string, listing: FolderEntry[], onError: (message: string) => void, threads = countScanThreads()): ScanPool | null {
  const sessionIds = sessionIdsOf(listing);
  if (sessionIds.length < SCAN_THREADS_MIN_FOLDERS) return null;
  return startScanPool({ recordDir, sessionIds, threads }, onError);
}

/** A folder whose name is not UTF-8 names no session: it is listed, never read. */
function sessionIdsOf(listing: FolderEntry[]): string[] {
  return listing.filter((dirent) => dirent.isDirectory() && dirent.bytes === undefined).map((dirent) => dirent.name);
}
