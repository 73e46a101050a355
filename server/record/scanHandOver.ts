import type { FolderEntry } from '../watch/listFolder.ts';
import type { FolderWatch } from './folderWatch.ts';
import type { RecordIndex } from './recordIndex.ts';
import type { RecordLooks } from './recordLooks.ts';
import type { RecordStatus } from './recordStatus.ts';
import type { Slices } from './reconcileSlices.ts';
import { countScanThreads, type ScanPool, type ScannedFolder } from './scanPool.ts';
import { startScanThreads } from './scanStart.ts';

/**
 * The files that stirred in a folder asked of the scan threads: all of them for a folder new
 * since the scan began; and by name, those that stirred, each looked at on this thread a moment
 * after it stirred (earlyItems.ts), so looked at again here when a thread's look of it comes.
 */
type Stirred = { all: boolean; names: Set<string> };

/**
 * How many of a scanned folder's files are concluded between two looks at the clock: a folder of
 * 100,000 entries is concluded in slices like any other work.
 */
const CONCLUDE_BETWEEN_CLOCKS = 64;

type ScanHandOverOptions = {
  recordDir: string;
  index: RecordIndex;
  status: RecordStatus;
  looks: RecordLooks;
  folders: Pick<FolderWatch, 'watchFolder'>;
  /**
   * Told of a session in which the watcher saw something while the first scan runs. The scan
   * may have read the change before the watcher's event was handled, and its own reading is
   * not told, so this is how such a change is told.
   */
  onSeenWhileScanning?: ((sessionId: string) => void) | undefined;
  onError?: ((message: string) => void) | undefined;
};

export type ScanHandOver = ReturnType<typeof createScanHandOver>;

/**
 * The first scan's threads and what they hand over. Reading entries is CPU work in JavaScript: on
 * the other cores, and off the thread that answers requests and watches the record (reading half
 * the folders here, with the garbage it makes, held a write's notice back by 40–100 ms at p95).
 * This thread concludes their looks in its slices, and asks them first for a folder that stirred.
 */
export function createScanHandOver(options: ScanHandOverOptions) {
  const { index, looks } = options;
  /** The first scan's threads, while they read. */
  let scanPool: ScanPool | null = null;
  /**
   * Folders that stirred before the first scan had them, asked of the scan threads: until its
   * look comes, whatever else stirs in them is asked too, so that no older look lands on a
   * newer one. With each, the files that stirred, which the look that brings them tells.
   */
  const askedOfWorker = new Map<string, Stirred>();
  /** Whether the first scan is reading now, as opposed to the watcher or a later reconcile. */
  let scanReading = false;

  /**
   * Records a session folder that a scan thread looked at, from its `from`th file for as long as
   * the slice lasts. Returns where it stopped: the file count once it is done.
   */
  function concludeScannedFolder(folder: ScannedFolder, from: number, slices: Slices, pool: ScanPool): number {
    const { sessionId, looks: folderLooks, first } = folder;
    const count = folder.files;
    const until = slices.until();
    if (from === 0) {
      if (folder.gone) looks.observeFolderGone(sessionId);
      else if (folder.problem !== null) index.setFolderProblem(sessionId, folder.problem);
      else {
        index.addSession(sessionId);
        index.setFolderProblem(sessionId, null);
        options.folders.watchFolder(sessionId);
      }
    }
    const stirred = askedOfWorker.get(sessionId);
    for (let at = from; at < count; at++) {
      if (at > from && at % CONCLUDE_BETWEEN_CLOCKS === 0 && performance.now() > until) return at;
      // Most files: an entry the reader held nothing of, in a folder nothing stirred in. Its
      // conclusion is made straight from the numbers handed over (no look, no observation: a
      // first scan's garbage was a fifth of this thread's time).
      if (stirred === undefined) {
        const name = folderLooks.name(first + at);
        const known = index.file(sessionId, name) === undefined ? folderLooks.firstEntry(first + at) : null;
        if (known !== null) {
          index.putFile(sessionId, name, known);
          slices.countRead();
          continue;
        }
      }
      const file = folderLooks.look(first + at);
      // An entry only the schemas can read is read again here, where they are loaded. A file that
      // stirred was looked at here when it did, maybe after the thread's look, taken while it was
      // being written: it is looked at again, so that an older look is never told over a newer one
      // (a write told as its entry was told again as being written).
      const lookedAtHere = stirred?.names.has(file.name) === true;
      const conclude = () => (file.seen === null || lookedAtHere ? looks.observeFile(sessionId, file.name) : looks.concludeLook(sessionId, file.name, file.entryName, file.seen, file.mtimeMs));
      if (stirred !== undefined && (stirred.all || lookedAtHere)) tellAsWatched(conclude);
      else conclude();
      slices.countRead();
    }
    // The ask stays open until no look of it is still to come: what stirred after this look
    // began is told as the watcher's when the later look is concluded (ScanPool.asksWaiting).
    if (folder.soon && pool.asksWaiting(sessionId) === 0 && askedOfWorker.delete(sessionId)) {
      slices.noteSeen();
      tellSeen(sessionId);
    }
    return count;
  }

  /**
   * Concludes a look as the watcher's own, so that what changed is told file by file (the live
   * view lists it), though the first scan's thread took the look and its reading is told only
   * by its progress.
   */
  function tellAsWatched(conclude: () => void): void {
    const reading = scanReading;
    scanReading = false;
    try {
      conclude();
    } finally {
      scanReading = reading;
    }
  }

  /** Reads a folder asked of a scan thread here, as the watcher's: no thread will answer. */
  function readAskedHere(sessionId: string, countRead: () => void): void {
    if (!askedOfWorker.delete(sessionId)) return;
    tellAsWatched(() => looks.reconcileSession(sessionId, countRead));
    tellSeen(sessionId);
  }

  function tellSeen(sessionId: string): void {
    if (options.status.indexing().state === 'scanning' && index.hasSession(sessionId)) options.onSeenWhileScanning?.(sessionId);
  }

  return {
    tellSeen,
    /** Whether a change now comes from the first scan's own reading (told by its progress). */
    isReading: (): boolean => scanReading,
    setReading(reading: boolean): void {
      scanReading = reading;
    },
    /** Takes over the threads the command began (scanStart.ts), and adds the last one. */
    adopt(pool: ScanPool | null): void {
      scanPool = pool;
      scanPool?.grow(countScanThreads());
    },
    /**
     * The first scan's threads, begun now on the record directory's listing unless the command
     * began them: every folder is watched already (FolderWatch.start).
     */
    start(listing: FolderEntry[]): ScanPool | null {
      if (scanPool === null) scanPool = startScanThreads(options.recordDir, listing, (message) => options.onError?.(message));
      return scanPool;
    },
    /**
     * Concludes the folders the threads hand over, in the reconcile's slices, until the last
     * thread ends. They wait in their pool: they arrive together, and a hundred concluded at
     * once held the event loop for 300 ms. 'closed' when the watcher closed meanwhile.
     */
    async concludeHandedOver(pool: ScanPool, slices: Slices, isClosed: () => boolean): Promise<'closed' | 'done'> {
      let folder: ScannedFolder | undefined;
      let concluded = 0;
      for (;;) {
        if (isClosed()) return 'closed';
        // Between two folders: a folder read here whole is newer than any look of it still to come.
        if (folder === undefined) for (const sessionId of pool.takeUnanswered()) readAskedHere(sessionId, () => slices.countRead());
        folder ??= pool.take();
        if (folder !== undefined) {
          concluded = concludeScannedFolder(folder, concluded, slices, pool);
          if (concluded === folder.files) {
            folder = undefined;
            concluded = 0;
          }
        } else if (pool.finished) {
          break;
        } else {
          await slices.pause(new Promise<void>((resolve) => (pool.wake = resolve)));
        }
        if (slices.due()) await slices.pause(null);
      }
      pool.wake = null;
      return 'done';
    },
    /** The first scan's threads have all ended. */
    release(): void {
      scanPool = null;
    },
    /** Reads again, as the watcher's, the folders asked of the scan threads that none answered. */
    tellUnanswered(countRead: () => void): void {
      for (const sessionId of [...askedOfWorker.keys()]) readAskedHere(sessionId, countRead);
    },
    /**
     * Asks the scan threads for a folder that stirred before the first scan read it, so that
     * what is told of it is the session, not the one file that stirred (here, the reading code
     * is cold: 200 files took 40–130 ms); its notice follows its look. False when the scan has
     * it already, or is over: the watcher reads it then.
     */
    ask(sessionId: string, name: string | null): boolean {
      if (scanPool === null || scanPool.finished || (!askedOfWorker.has(sessionId) && index.hasSession(sessionId))) return false;
      // A folder come since the scan began is new whole; in any other, what stirred is new.
      let stirred = askedOfWorker.get(sessionId);
      if (stirred === undefined) askedOfWorker.set(sessionId, (stirred = { all: !scanPool.inLine(sessionId), names: new Set() }));
      if (name !== null) stirred.names.add(name);
      scanPool.askSoon(sessionId);
      return true;
    },
    async terminate(): Promise<void> {
      await scanPool?.terminate();
    },
  };
}
