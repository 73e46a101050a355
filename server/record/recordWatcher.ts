import { statSync } from 'node:fs';
import type { Indexing } from '../../shared/wire/common.ts';
import type { PendingWindow } from '../../shared/evidence.ts';
import type { EntryReading } from '../../shared/record/entry.ts';
import { parseEntryName } from '../../shared/record/entryName.ts';
import type { KnownFile } from '../../shared/record/knownFile.ts';
import type { Observation } from '../../shared/record/observation.ts';
import { createRootPoll, type RootLook } from '../watch/rootPoll.ts';
import type { FileRead } from '../watch/safeOpen.ts';
import { createFolderWatch } from './folderWatch.ts';
import type { RecordIndex } from './recordIndex.ts';
import { createRecordEvents } from './recordEvents.ts';
import { createRecordLooks, type FreshRead } from './recordLooks.ts';
import { createReconciler } from './recordReconcile.ts';
import { createRecordStatus, type RecordState } from './recordStatus.ts';
import { createScanHandOver } from './scanHandOver.ts';
import type { RecordHeadStart } from './scanStart.ts';

type RecordWatcherOptions = PendingWindow & {
  recordDir: string;
  index: RecordIndex;
  /** Told whenever the record's presence or the indexing progress changes. */
  onStatus: (status: { record: RecordState; indexing: Indexing }) => void;
  /**
   * The least time between two reconciles, which catch what the watcher missed (an event lost
   * in a burst beyond the kernel's queue). A reconcile reads every folder's listing, so on a
   * large record the interval grows to keep its cost near 2% of one core, up to a minute.
   */
  reconcileIntervalMs?: number;
  /**
   * How long changes are gathered before they are told. A slice of a scan or reconcile waits
   * that long after a change the watcher saw, so that its notice is not held behind the slice.
   */
  noticeGatherMs?: number;
  /** Resolves once the notices gathered so far are told: a slice after a change waits for them. */
  noticesTold?: () => Promise<unknown>;
  /** Told of a session in which the watcher saw something while the first scan runs (ScanHandOver). */
  onSeenWhileScanning?: (sessionId: string) => void;
  /** Told of a file that stirred in a folder the first scan has not read yet, asked of its threads. */
  onAsked?: (sessionId: string, name: string) => void;
  /** Told of each reading of a file this thread made, after the index has what it concluded. */
  onRead?: (sessionId: string, name: string, reading: EntryReading | null) => void;
  onError?: (message: string) => void;
  /** The first scan, when the command began it before the reader was made (scanStart.ts). */
  headStart?: RecordHeadStart | null;
};

/**
 * The file system shell: watches the record (chokidar for the record directory, a watch per
 * session folder; symlinks not followed; the record directory itself looked at every second),
 * scans it meanwhile, reconciles periodically, and reads again files that do not parse yet. It
 * never writes anything in the record directory.
 *
 * Its parts: what a look concludes (recordLooks.ts), the first scan's threads (scanHandOver.ts),
 * the reconciles (recordReconcile.ts) and where the watches' events go (recordEvents.ts).
 */
export function createRecordWatcher(options: RecordWatcherOptions) {
  const { recordDir, index } = options;
  let closed = false;
  const isClosed = () => closed;
  const status = createRecordStatus(options.onStatus);
  const folders = options.headStart?.folders ?? createFolderWatch(recordDir);
  const looks = createRecordLooks({ recordDir, index, folders, onRead: options.onRead, pendingWindowMs: options.pendingWindowMs });
  const scan = createScanHandOver({ recordDir, index, status, looks, folders, onSeenWhileScanning: options.onSeenWhileScanning, onError: options.onError });
  const reconciler = createReconciler({ recordDir, index, status, folders, looks, scan, isClosed, reconcileIntervalMs: options.reconcileIntervalMs, noticeGatherMs: options.noticeGatherMs, noticesTold: options.noticesTold });
  const events = createRecordEvents({ recordDir, index, status, looks, scan, reconciler, isClosed, onAsked: options.onAsked, onError: options.onError });
  // The record directory is looked at every second, as every store's root is (rootPoll.ts):
  // chokidar watches it only once the first scan is done, and one removed before it was ready
  // told nothing; nor does any watch tell of another folder put in its place.
  let rootLooked = false;
  const rootPoll = createRootPoll(recordDir, (look: RootLook) => {
    if (closed) return;
    if (look.state !== 'present') folders.lost();
    // Another folder than the one watched (at any time, the first scan's included): watched afresh.
    const another = look.state === 'present' && !folders.isWatching(look.identity);
    if (another) folders.rewatch();
    // The first look is the start's own; after it, a look that tells what a reconcile has not
    // (gone, back, unreadable, another folder) has one read the record directory as it is.
    if (rootLooked && (another || look.state !== status.record().state)) void reconciler.reconcile(status.indexing().state !== 'ready');
  });

  return {
    /**
     * Watches the record, then scans it (or waits for it). Resolves once the first scan is done.
     * Every session folder is watched before this first yields, so before the API first answers:
     * a write from then on is read by the scan, or told by the watcher, or both.
     */
    async start(): Promise<void> {
      let exists = false;
      try {
        exists = statSync(recordDir).isDirectory();
      } catch {
        exists = false;
      }
      // Watched as it is now: the first reconcile must not take it for a record that came back.
      if (exists) status.assumePresent();
      // Begun by the command already: its threads read meanwhile, on all but one core.
      scan.adopt(options.headStart?.pool ?? null);
      folders.start(events);
      rootPoll.start();
      rootLooked = true;
      // The record directory is watched with chokidar once the first scan is done, whose CPU it
      // would take; one that is not there yet is watched at once, and waited for.
      if (exists) await reconciler.reconcile(true);
      else status.set({ record: { state: 'missing', why: null }, indexing: { state: 'waiting', files: 0 } });
      folders.watchRecordDirectory().catch((error: unknown) => options.onError?.(`watcher: ${(error as Error).message}`));
      if (closed) return;
      if (!exists) reconciler.scheduleReconcile(0);
    },
    /** Whether a change now comes from the first scan's own reading (told by its progress). */
    readingFirstScan: () => scan.isReading(),
    /** Once the record is read, the file count is the index's: files keep arriving. */
    status: () => {
      const indexing = status.indexing();
      return { record: status.record(), indexing: indexing.state === 'ready' ? { state: 'ready' as const, files: index.fileCount() } : indexing };
    },
    /** Reads a file of a session again now, for a page: what is on disk is what is shown. */
    readNow(sessionId: string, name: string): FreshRead {
      return looks.observeFile(sessionId, name);
    },
    /** Concludes from a read of an entry's file made elsewhere (a reader thread), as readNow from its own. */
    readDone(sessionId: string, name: string, read: FileRead): FreshRead {
      return looks.observeRead(sessionId, name, read);
    },
    /** Records a look at a file taken elsewhere (a reader thread), as readNow records its own. */
    recordLook(sessionId: string, name: string, look: { seen: Observation; mtimeMs: number | null }): KnownFile | undefined {
      looks.concludeLook(sessionId, name, parseEntryName(name), look.seen, look.mtimeMs);
      return index.file(sessionId, name);
    },
    pendingRetries: () => looks.pendingRetries(),
    async close(): Promise<void> {
      closed = true;
      rootPoll.stop();
      await scan.terminate();
      looks.close();
      reconciler.cancelTimer();
      await folders.close();
      await reconciler.settle();
    },
  };
}
