import { statSync } from 'node:fs';
import type { FolderEntry } from '../watch/listFolder.ts';
import { createFolderWatch, type FolderWatch } from './folderWatch.ts';
import { countScanThreads, startScanPool, type ScanPool } from './scanPool.ts';

// The record's first scan, begun as early as the command can: the folders are watched, then the
// scan threads start on them, and the rest of the command (the HTTP server, the other kinds,
// the schemas) loads meanwhile on the main thread. A write from then on is read by the scan, or
// told by the watches, or both: what they tell waits for the reader, which takes both over.

/** A first scan begun: the watches, and the scan threads reading the folders they watch. */
export type RecordHeadStart = { folders: FolderWatch; pool: ScanPool | null };

/**
 * A first scan of at least this many session folders is read by scan threads, and the main thread
 * concludes what they read. Below this, starting threads costs more than it saves.
 */
const SCAN_THREADS_MIN_FOLDERS = 50;

/** Begins a record's first scan; null when there is no record directory yet (it is waited for). */
export function beginRecordScan(recordDir: string, onError: (message: string) => void): RecordHeadStart | null {
  try {
    if (!statSync(recordDir).isDirectory()) return null;
  } catch {
    return null;
  }
  const folders = createFolderWatch(recordDir);
  // Every session folder is watched before a thread lists it.
  const listing = folders.begin() ?? [];
  // A thread on every core from the start: the thread loading the rest of the command (which the
  // first answer waits for) keeps its share, since the scan threads yield to it (scanWorker.ts).
  // Holding one back until the reader took the scan over left a core idle for a second or more.
  return { folders, pool: startScanThreads(recordDir, listing, onError) };
}

/**
 * Starts scan threads on the session folders of a listing of the record directory, each of them
 * watched already. Null when the record is read on this thread alone.
 */
export function startScanThreads(recordDir: string, listing: FolderEntry[], onError: (message: string) => void, threads = countScanThreads()): ScanPool | null {
  // A folder whose name is not UTF-8 names no session: it is listed, never read.
  const sessionIds = listing.filter((dirent) => dirent.isDirectory() && dirent.bytes === undefined).map((dirent) => dirent.name);
  if (sessionIds.length < SCAN_THREADS_MIN_FOLDERS) return null;
  return startScanPool({ recordDir, sessionIds, threads }, onError);
}
