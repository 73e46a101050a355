import { isAbsolute, relative, sep } from 'node:path';
import { describeError } from '../watch/describeError.ts';
import type { FolderWatchHandlers, WatchEvent } from './folderWatch.ts';
import { statRecordPath } from './readRecordFile.ts';
import type { RecordIndex } from './recordIndex.ts';
import type { RecordLooks } from './recordLooks.ts';
import type { Reconciler } from './recordReconcile.ts';
import type { RecordStatus } from './recordStatus.ts';
import type { ScanHandOver } from './scanHandOver.ts';

type RecordEventsContext = {
  recordDir: string;
  index: RecordIndex;
  status: RecordStatus;
  looks: RecordLooks;
  scan: ScanHandOver;
  reconciler: Pick<Reconciler, 'reconcile' | 'noteSeen'>;
  isClosed: () => boolean;
  /** Told of a file that stirred in a folder asked of the scan threads (ScanHandOver.ask). */
  onAsked?: ((sessionId: string, name: string) => void) | undefined;
  onError?: ((message: string) => void) | undefined;
};

/**
 * What the record's watches tell, sent where it is read: a change in the record directory to a
 * reconcile or to the index, a file that stirred to a look at it, a folder the first scan has
 * not read yet to the scan threads.
 */
export function createRecordEvents(context: RecordEventsContext): FolderWatchHandlers {
  const { recordDir, index, status, looks, scan, reconciler, isClosed } = context;

  function onEvent(event: WatchEvent, path: string): void {
    const where = locate(recordDir, path);
    if (where === null || isClosed()) return;
    reconciler.noteSeen();
    const { sessionId, name } = where;
    // The record directory itself came or went, or something stirs in a record that was gone:
    // a whole reconcile says first whether the record is there, then reads what it holds.
    if (sessionId === null || status.record().state !== 'present') {
      void reconciler.reconcile(status.indexing().state !== 'ready');
      return;
    }
    if (name === null) {
      switch (event) {
        case 'addDir':
          looks.reconcileSession(sessionId, () => {});
          scan.tellSeen(sessionId);
          return;
        case 'unlinkDir':
          looks.observeFolderGone(sessionId);
          return;
        case 'unlink':
          index.putLooseFile(sessionId, null);
          return;
        default:
          index.putLooseFile(sessionId, statRecordPath(path)?.size ?? 0);
          return;
      }
    }
    if (event === 'unlink' || event === 'unlinkDir') looks.observeGone(sessionId, name);
    else looks.observeFile(sessionId, name);
  }

  function onStir(sessionId: string, name: string | null): void {
    if (isClosed()) return;
    reconciler.noteSeen();
    // A folder the first scan has not read yet is read whole, by the scan threads; what stirred
    // in it is told meanwhile (earlyItems.ts).
    if (scan.ask(sessionId, name)) {
      if (name !== null) context.onAsked?.(sessionId, name);
      return;
    }
    if (name === null || !index.hasSession(sessionId)) {
      looks.reconcileSession(sessionId, () => {});
    } else {
      looks.observeFile(sessionId, name);
    }
    scan.tellSeen(sessionId);
  }

  function onError(err: NodeJS.ErrnoException): void {
    const where = err.path !== undefined ? locate(recordDir, err.path) : null;
    if (where?.sessionId != null && where.name === null) index.setFolderProblem(where.sessionId, describeError(err));
    else context.onError?.(`watcher: ${err.message}`);
  }

  return { onEvent, onError, onStir };
}

/** Splits a watched path into its session folder and file name. */
function locate(recordDir: string, path: string): { sessionId: string | null; name: string | null } | null {
  const rel = relative(recordDir, path);
  if (rel === '') return { sessionId: null, name: null };
  // Outside the record is `..` or `../…`; a session folder may well be named `..hidden`.
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  const parts = rel.split(sep);
  if (parts.length === 1) return { sessionId: parts[0]!, name: null };
  if (parts.length === 2) return { sessionId: parts[0]!, name: parts[1]! };
  return null;
}
