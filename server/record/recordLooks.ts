import { join, sep } from 'node:path';
import { readEntry, type EntryReading } from '../../shared/record/entry.ts';
import { parseEntryName, type EntryName } from '../../shared/record/entryName.ts';
import { nextRetryDelay, type PendingWindow } from '../../shared/evidence.ts';
import type { KnownFile } from '../../shared/record/knownFile.ts';
import { concludeObservation, type Observation } from '../../shared/record/observation.ts';
import { lookAtFile, lookAtRead } from './lookAtFile.ts';
import type { FileRead } from '../watch/safeOpen.ts';
import { listFolder, pathIn, type FolderEntry } from '../watch/listFolder.ts';
import { describeError } from '../watch/describeError.ts';
import type { RecordIndex } from './recordIndex.ts';
import { createRetryQueue } from '../watch/retryQueue.ts';
import { createReadScratch } from '../watch/safeOpen.ts';
import type { FolderWatch } from './folderWatch.ts';

/** A file read just now, for a page of a session: its state and, where it parses, its fields. */
export type FreshRead = { state: KnownFile | undefined; reading: EntryReading | null };

type RecordLooksOptions = PendingWindow & {
  recordDir: string;
  index: RecordIndex;
  /** A session folder listed is watched; one gone is forgotten, and watched afresh if it comes back. */
  folders: Pick<FolderWatch, 'watchFolder' | 'forgetFolder'>;
  /** Told of each reading of a file this thread made, after the index has what it concluded. */
  onRead?: ((sessionId: string, name: string, reading: EntryReading | null) => void) | undefined;
};

export type RecordLooks = ReturnType<typeof createRecordLooks>;

/**
 * What the reader concludes of what it sees on disk: a look at a file, a file or a session folder
 * gone, a folder's listing. A file that does not parse yet is looked at again on a back-off.
 */
export function createRecordLooks(options: RecordLooksOptions) {
  const { recordDir, index, folders, pendingWindowMs } = options;
  // The loop's reads of entries (a page's, a watched file's) go through one buffer, as spex's and
  // sac's readers' reads and a scan thread's do: a buffer a file is memory outside V8's heap, and
  // V8 starts a full collection for every ~64 MB of it (docs/performance.md, nineteenth round).
  // What a look keeps is strings.
  const scratch = createReadScratch();
  const retries = createRetryQueue((key) => {
    const slash = key.indexOf('/');
    observeFile(key.slice(0, slash), key.slice(slash + 1));
  });

  /**
   * Looks at one file of a session folder and records what the reader concludes. `bytes` is the
   * name's, when it is not UTF-8 (such a name is never an entry's: it is a stray, only stat'ed).
   */
  function observeFile(sessionId: string, name: string, bytes?: Buffer): FreshRead {
    // Both names come from a folder listing (never '.' or '..', never holding a separator), so
    // plain joining is safe, and cheaper than path.join once per file.
    const entryName = entryNameOf(sessionId, name);
    return concludeFresh(sessionId, name, entryName, lookAtFile(pathIn(`${recordDir}${sep}${sessionId}`, { name, bytes }), entryName, readEntry, scratch));
  }

  /** What observeFile concludes, from a read of an entry's file made elsewhere (a reader thread's). */
  function observeRead(sessionId: string, name: string, read: FileRead): FreshRead {
    return concludeFresh(sessionId, name, entryNameOf(sessionId, name), lookAtRead(read, readEntry));
  }

  /**
   * A file's time and sequence, as the index read them from its name when it holds the file (the
   * same name reads the same): a page of 200 files read each name again, twice with the share of
   * its files, ~190 KB of the page's 3.5 MB of garbage (docs/performance.md, eighteenth round).
   */
  function entryNameOf(sessionId: string, name: string): EntryName | null {
    const known = index.file(sessionId, name);
    return known === undefined ? parseEntryName(name) : known.entryName;
  }

  function concludeFresh(sessionId: string, name: string, entryName: EntryName | null, look: ReturnType<typeof lookAtRead>): FreshRead {
    concludeLook(sessionId, name, entryName, look.seen, look.mtimeMs);
    options.onRead?.(sessionId, name, look.reading);
    return { state: index.file(sessionId, name), reading: look.reading };
  }

  /** Records what a look at a file found, given what the reader held of it before. */
  function concludeLook(sessionId: string, name: string, entryName: EntryName | null, seen: Observation, seenMtimeMs: number | null): void {
    const previous = index.file(sessionId, name);
    const mtimeMs = seenMtimeMs ?? previous?.mtimeMs ?? 0;
    // The pending window is timed on the process's steady clock, never by the file's mtime.
    const known = concludeObservation(previous ?? null, { name, entryName, mtimeMs }, seen, Date.now(), performance.now(), pendingWindowMs);
    index.putFile(sessionId, name, known);
    if (known?.evidence === 'pending') {
      const since = known.pendingSince ?? performance.now();
      retries.schedule(`${sessionId}/${name}`, (attempt) => nextRetryDelay(attempt, performance.now(), since, pendingWindowMs));
    } else if (previous !== undefined) {
      // A file the index did not hold has no read due: a first scan's hundred thousand need no key.
      retries.cancel(`${sessionId}/${name}`);
    }
  }

  function observeGone(sessionId: string, name: string): void {
    const previous = index.file(sessionId, name);
    if (previous === undefined) return;
    index.putFile(sessionId, name, concludeObservation(previous, previous, { type: 'gone' }, Date.now()));
    retries.cancel(`${sessionId}/${name}`);
  }

  function observeFolderGone(sessionId: string): void {
    for (const file of [...index.files(sessionId)]) observeGone(sessionId, file.name);
    folders.forgetFolder(sessionId);
  }

  /** Reads a session folder's listing and looks at what is new, gone or not yet parsed. */
  function reconcileSession(sessionId: string, countRead: () => void): void {
    let dirents: FolderEntry[];
    try {
      dirents = listFolder(join(recordDir, sessionId));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') observeFolderGone(sessionId);
      else index.setFolderProblem(sessionId, describeError(error as NodeJS.ErrnoException));
      return;
    }
    index.addSession(sessionId);
    index.setFolderProblem(sessionId, null);
    folders.watchFolder(sessionId);
    const present = new Set<string>();
    for (const dirent of dirents) {
      present.add(dirent.name);
      const known = index.file(sessionId, dirent.name);
      // A parsed file is settled: the watcher reports changes to it. Anything else may have
      // moved on (a pending file finished, a permission was granted, a removed file came back),
      // and so may a parsed file whose name no longer holds a file (chokidar misses a folder).
      if (known === undefined || (known.evidence !== 'parsed' && known.evidence !== 'changed') || (known.evidence === 'parsed' && !dirent.isFile())) {
        observeFile(sessionId, dirent.name, dirent.bytes);
        countRead();
      }
    }
    for (const file of [...index.files(sessionId)]) {
      if (!present.has(file.name) && file.evidence !== 'removed') observeGone(sessionId, file.name);
    }
  }

  return {
    observeFile,
    observeRead,
    concludeLook,
    observeGone,
    observeFolderGone,
    reconcileSession,
    pendingRetries: (): number => retries.size,
    close: (): void => retries.close(),
  };
}
