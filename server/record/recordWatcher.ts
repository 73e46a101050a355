import { statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import type { Indexing, SourceStatus } from '../../shared/wire/common.ts';

/** Whether the record directory can be read, and why not. */
type RecordState = Pick<SourceStatus, 'state' | 'why'>;
import { readEntry, type EntryReading } from '../../shared/record/entry.ts';
import { parseEntryName, type EntryName } from '../../shared/record/entryName.ts';
import { nextRetryDelay } from '../../shared/evidence.ts';
import type { KnownFile } from '../../shared/record/knownFile.ts';
import { concludeObservation, type Observation } from '../../shared/record/observation.ts';
import { lookAtFile } from './lookAtFile.ts';
import { FOLDER_NAME_NOT_UTF8, listFolder, pathIn, type FolderEntry } from '../watch/listFolder.ts';
import { describeError } from '../watch/describeError.ts';
import { statRecordPath } from './readRecordFile.ts';
import type { RecordIndex } from './recordIndex.ts';
import { createRetryQueue } from '../watch/retryQueue.ts';
import { createFolderWatch, type WatchEvent } from './folderWatch.ts';
import { countScanThreads, type ScanPool, type ScannedFolder } from './scanPool.ts';
import { startScanThreads, type RecordHeadStart } from './scanStart.ts';

type RecordWatcherOptions = {
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
  /**
   * Told of a session in which the watcher saw something while the first scan runs. The scan
   * may have read the change before the watcher's event was handled, and its own reading is
   * not told, so this is how such a change is told.
   */
  onSeenWhileScanning?: (sessionId: string) => void;
  /** Told of each reading of a file this thread made, after the index has what it concluded. */
  onRead?: (sessionId: string, name: string, reading: EntryReading | null) => void;
  onError?: (message: string) => void;
  /** The first scan, when the command began it before the reader was made (scanStart.ts). */
  headStart?: RecordHeadStart | null;
};

/** The files that stirred in a folder asked of the scan threads: its names, or all for a folder new since the scan began. */
type Stirred = Set<string> | 'all';

/** A file read just now, for a page of a session: its state and, where it parses, its fields. */
export type FreshRead = { state: KnownFile | undefined; reading: EntryReading | null };

const SLICE_MS = 12; // Scan in slices so the API keeps answering while a large record is read.
const RECONCILE_COST_SHARE = 50; // Wait 50× the CPU the last reconcile used: ~2% of a core.
/**
 * The longest wait between two reconciles, whatever the last one cost: they are the safety net
 * for events the watcher lost, so a missed folder shows within a minute on any record.
 */
const MAX_RECONCILE_GAP_MS = 60_000;
/**
 * How many of a scanned folder's files are concluded between two looks at the clock: a folder of
 * 100,000 entries is concluded in slices like any other work.
 */
const CONCLUDE_BETWEEN_CLOCKS = 64;

/**
 * The file system shell: watches the record (chokidar for the record directory, a watch per
 * session folder; symlinks not followed), scans it meanwhile, reconciles periodically, and reads
 * again files that do not parse yet. It never writes anything in the record directory.
 */
export function createRecordWatcher(options: RecordWatcherOptions) {
  const { recordDir, index } = options;
  const minReconcileMs = options.reconcileIntervalMs ?? 30_000;
  let record: RecordState = { state: 'missing', why: null };
  let indexing: Indexing = { state: 'waiting', files: 0 };
  let reconcileTimer: NodeJS.Timeout | null = null;
  let reconciling: Promise<void> | null = null;
  let reconcileAgain = false;
  let closed = false;
  /**
   * The first scan's threads, while they read. Reading entries is CPU work in JavaScript: on the
   * other cores, and off the thread that answers requests and watches the record (reading half
   * the folders here, with the garbage it makes, held a write's notice back by 40–100 ms at p95).
   */
  let scanPool: ScanPool | null = null;
  /**
   * Folders that stirred before the first scan had them, asked of the scan threads: until its
   * look comes, whatever else stirs in them is asked too, so that no older look lands on a
   * newer one. With each, the files that stirred, which the look that brings them tells.
   */
  const askedOfWorker = new Map<string, Stirred>();
  /** Whether the first scan is reading now, as opposed to the watcher or a later reconcile. */
  let scanReading = false;
  /** Whether the watcher saw a change since the last slice of a scan or reconcile. */
  let seenSinceSlice = false;
  let lastStatusAt = 0;
  const retries = createRetryQueue((key) => {
    const slash = key.indexOf('/');
    observeFile(key.slice(0, slash), key.slice(slash + 1));
  });

  function setStatus(next: { record?: RecordState; indexing?: Indexing }, force = true): void {
    if (next.record !== undefined) record = next.record;
    if (next.indexing !== undefined) indexing = next.indexing;
    const now = Date.now();
    if (!force && now - lastStatusAt < 100) return;
    lastStatusAt = now;
    options.onStatus({ record, indexing });
  }

  /**
   * Looks at one file of a session folder and records what the reader concludes. `bytes` is the
   * name's, when it is not UTF-8 (such a name is never an entry's: it is a stray, only stat'ed).
   */
  function observeFile(sessionId: string, name: string, bytes?: Buffer): FreshRead {
    // Both names come from a folder listing (never '.' or '..', never holding a separator), so
    // plain joining is safe, and cheaper than path.join once per file.
    const entryName = parseEntryName(name);
    const look = lookAtFile(pathIn(`${recordDir}${sep}${sessionId}`, { name, bytes }), entryName, readEntry);
    concludeLook(sessionId, name, entryName, look.seen, look.mtimeMs);
    options.onRead?.(sessionId, name, look.reading);
    return { state: index.file(sessionId, name), reading: look.reading };
  }

  /** Records what a look at a file found, given what the reader held of it before. */
  function concludeLook(sessionId: string, name: string, entryName: EntryName | null, seen: Observation, seenMtimeMs: number | null): void {
    const previous = index.file(sessionId, name);
    const mtimeMs = seenMtimeMs ?? previous?.mtimeMs ?? 0;
    // The pending window is timed on the process's steady clock, never by the file's mtime.
    const known = concludeObservation(previous ?? null, { name, entryName, mtimeMs }, seen, Date.now(), performance.now());
    index.putFile(sessionId, name, known);
    if (known?.evidence === 'pending') {
      const since = known.pendingSince ?? performance.now();
      retries.schedule(`${sessionId}/${name}`, (attempt) => nextRetryDelay(attempt, performance.now(), since));
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

  /**
   * Records a session folder that a scan thread looked at, from its `from`th file for as long as
   * the clock is before `until`. Returns where it stopped: the file count once it is done.
   */
  function concludeScannedFolder(folder: ScannedFolder, from: number, until: number, countRead: () => void): number {
    const { sessionId, looks, first } = folder;
    const count = folder.files;
    if (from === 0) {
      if (folder.gone) observeFolderGone(sessionId);
      else if (folder.problem !== null) index.setFolderProblem(sessionId, folder.problem);
      else {
        index.addSession(sessionId);
        index.setFolderProblem(sessionId, null);
        folders.watchFolder(sessionId);
      }
    }
    const stirred = askedOfWorker.get(sessionId);
    for (let at = from; at < count; at++) {
      if (at > from && at % CONCLUDE_BETWEEN_CLOCKS === 0 && performance.now() > until) return at;
      const file = looks.look(first + at);
      // An entry only the schemas can read is read again here, where they are loaded.
      const conclude = () => (file.seen === null ? observeFile(sessionId, file.name) : concludeLook(sessionId, file.name, file.entryName, file.seen, file.mtimeMs));
      if (stirred !== undefined && (stirred === 'all' || stirred.has(file.name))) tellAsWatched(conclude);
      else conclude();
      countRead();
    }
    if (folder.soon && askedOfWorker.delete(sessionId)) {
      seenSinceSlice = true;
      tellSeen(sessionId);
    }
    return count;
  }

  /** Brings the index in line with the disk. Runs in slices; one at a time. */
  async function reconcile(initial: boolean): Promise<void> {
    if (reconciling !== null) {
      reconcileAgain = true;
      return reconciling;
    }
    // The CPU this thread spends in the reconcile's own slices, not the time between them,
    // which other work (a burst of searches) can stretch to minutes.
    let spentUs = 0;
    let sliceCpu = threadCpuUs();
    const endSlice = () => {
      spentUs += threadCpuUs() - sliceCpu;
      scanReading = false;
    };
    const beginSlice = () => {
      sliceCpu = threadCpuUs();
      scanReading = initial;
    };
    reconciling = (async () => {
      scanReading = initial;
      let dirents: FolderEntry[];
      try {
        dirents = listFolder(recordDir);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          for (const sessionId of [...index.sessionIds()]) observeFolderGone(sessionId);
          setStatus({ record: { state: 'missing', why: null }, indexing: { state: 'waiting', files: indexing.files } });
        } else {
          setStatus({ record: { state: 'unreadable', why: describeError(error as NodeJS.ErrnoException) } });
        }
        return;
      }
      if (record.state !== 'present') {
        if (folders.started) folders.rewatch();
        setStatus({ record: { state: 'present', why: null } });
      }
      if (initial) setStatus({ indexing: { state: 'scanning', files: 0 } });
      let read = 0;
      const countRead = () => {
        read++;
        if (initial && read % 256 === 0) setStatus({ indexing: { state: 'scanning', files: read } }, false);
      };
      let sliceStart = performance.now();
      const seen = new Set<string>();
      // The scan threads' folders wait in their pool and are concluded in this thread's slices:
      // they arrive together, and a hundred concluded at once held the event loop for 300 ms.
      // Begun by the command already, or now: every folder is watched (FolderWatch.start), and
      // reading entries is CPU work in JavaScript, on the other cores.
      if (initial && scanPool === null) scanPool = startScanThreads(recordDir, dirents, (message) => options.onError?.(message));
      const pool = initial ? scanPool : null;
      const pause = async (until: Promise<void> | null) => {
        if (initial) setStatus({ indexing: { state: 'scanning', files: read } }, false);
        endSlice();
        await (until ?? yieldToLoop());
        if (seenSinceSlice) {
          seenSinceSlice = false;
          await sleep((options.noticeGatherMs ?? 0) + 1);
        }
        beginSlice();
        sliceStart = performance.now();
      };
      for (const dirent of dirents) {
        if (closed) return;
        seen.add(dirent.name);
        if (dirent.isDirectory() && dirent.bytes !== undefined) {
          // Listed, so that it does not vanish; its name cannot be a session id on the wire.
          index.setFolderProblem(dirent.name, FOLDER_NAME_NOT_UTF8);
        } else if (dirent.isDirectory()) {
          if (pool === null || !pool.inLine(dirent.name)) reconcileSession(dirent.name, countRead);
        } else {
          // A file, or a link (never followed), directly in the record directory: not a session.
          index.putLooseFile(dirent.name, statRecordPath(pathIn(recordDir, dirent))?.size ?? 0);
        }
        if (performance.now() - sliceStart > SLICE_MS) await pause(null);
      }
      let folder: ScannedFolder | undefined;
      let concluded = 0;
      while (pool !== null) {
        if (closed) return;
        folder ??= pool.take();
        if (folder !== undefined) {
          concluded = concludeScannedFolder(folder, concluded, sliceStart + SLICE_MS, countRead);
          if (concluded === folder.files) {
            folder = undefined;
            concluded = 0;
          }
        } else if (pool.finished) {
          break;
        } else {
          await pause(new Promise<void>((resolve) => (pool.wake = resolve)));
        }
        if (performance.now() - sliceStart > SLICE_MS) await pause(null);
      }
      if (pool !== null) pool.wake = null;
      endSlice();
      const unreported = pool === null ? [] : await pool.done;
      scanPool = null;
      beginSlice();
      for (const sessionId of unreported) {
        if (closed) return;
        reconcileSession(sessionId, countRead);
      }
      // Asked of a scan thread that ended before it answered.
      for (const sessionId of askedOfWorker.keys()) {
        tellAsWatched(() => reconcileSession(sessionId, countRead));
        tellSeen(sessionId);
      }
      askedOfWorker.clear();
      // Not in the listing: gone, or come since (the watcher told of it meanwhile). A look of
      // its own says which.
      for (const sessionId of [...index.sessionIds()]) if (!seen.has(sessionId)) reconcileSession(sessionId, countRead);
      for (const name of index.looseFiles()) if (!seen.has(name)) index.putLooseFile(name, statRecordPath(join(recordDir, name))?.size ?? null);
      if (initial || indexing.state !== 'ready') setStatus({ indexing: { state: 'ready', files: index.fileCount() } });
    })();
    try {
      await reconciling;
    } finally {
      endSlice();
      reconciling = null;
      scheduleReconcile(spentUs / 1000);
    }
    if (reconcileAgain && !closed) {
      reconcileAgain = false;
      await reconcile(false);
    }
  }

  /** Sets the next reconcile from the CPU the last one used (in ms). */
  function scheduleReconcile(lastCpuMs: number): void {
    if (closed) return;
    if (reconcileTimer !== null) clearTimeout(reconcileTimer);
    // While the record directory is missing, look for it every second: it is waited for.
    const delay = record.state === 'present' ? Math.max(minReconcileMs, Math.min(MAX_RECONCILE_GAP_MS, lastCpuMs * RECONCILE_COST_SHARE)) : 1_000;
    reconcileTimer = setTimeout(() => void reconcile(false), delay);
    reconcileTimer.unref();
  }

  /** Splits a watched path into its session folder and file name. */
  function locate(path: string): { sessionId: string | null; name: string | null } | null {
    const rel = relative(recordDir, path);
    if (rel === '') return { sessionId: null, name: null };
    // Outside the record is `..` or `../…`; a session folder may well be named `..hidden`.
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
    const parts = rel.split(sep);
    if (parts.length === 1) return { sessionId: parts[0]!, name: null };
    if (parts.length === 2) return { sessionId: parts[0]!, name: parts[1]! };
    return null;
  }

  function onWatchEvent(event: WatchEvent, path: string): void {
    const where = locate(path);
    if (where === null || closed) return;
    seenSinceSlice = true;
    const { sessionId, name } = where;
    // The record directory itself came or went, or something stirs in a record that was gone:
    // a whole reconcile says first whether the record is there, then reads what it holds.
    if (sessionId === null || record.state !== 'present') {
      void reconcile(indexing.state !== 'ready');
      return;
    }
    if (name === null) {
      switch (event) {
        case 'addDir':
          reconcileSession(sessionId, () => {});
          tellSeen(sessionId);
          return;
        case 'unlinkDir':
          observeFolderGone(sessionId);
          return;
        case 'unlink':
          index.putLooseFile(sessionId, null);
          return;
        default:
          index.putLooseFile(sessionId, statRecordPath(path)?.size ?? 0);
          return;
      }
    }
    if (event === 'unlink' || event === 'unlinkDir') observeGone(sessionId, name);
    else observeFile(sessionId, name);
  }

  const folders = options.headStart?.folders ?? createFolderWatch(recordDir);
  const folderHandlers = {
    onEvent: onWatchEvent,
    onError(err: NodeJS.ErrnoException) {
      const where = err.path !== undefined ? locate(err.path) : null;
      if (where?.sessionId != null && where.name === null) index.setFolderProblem(where.sessionId, describeError(err));
      else options.onError?.(`watcher: ${err.message}`);
    },
    onStir: onFolderStirred,
  };

  function onFolderStirred(sessionId: string, name: string | null): void {
    if (closed) return;
    seenSinceSlice = true;
    // A folder the first scan has not read yet is read whole, so that what is told of it is the
    // session, not the one file that stirred. While the scan threads read, one reads that folder
    // next (here, the reading code is cold: 200 files took 40–130 ms); its notice follows its look.
    if (scanPool !== null && !scanPool.finished && (askedOfWorker.has(sessionId) || !index.hasSession(sessionId))) {
      // A folder come since the scan began is new whole; in any other, what stirred is new.
      let stirred = askedOfWorker.get(sessionId);
      if (stirred === undefined) askedOfWorker.set(sessionId, (stirred = scanPool.inLine(sessionId) ? new Set() : 'all'));
      if (stirred !== 'all' && name !== null) stirred.add(name);
      scanPool.askSoon(sessionId);
      return;
    }
    if (name === null || !index.hasSession(sessionId)) {
      reconcileSession(sessionId, () => {});
    } else {
      observeFile(sessionId, name);
    }
    tellSeen(sessionId);
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

  function tellSeen(sessionId: string): void {
    if (indexing.state === 'scanning' && index.hasSession(sessionId)) options.onSeenWhileScanning?.(sessionId);
  }

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
      if (exists) record = { state: 'present', why: null };
      // Begun by the command already: its threads read meanwhile, on all but one core.
      scanPool = options.headStart?.pool ?? null;
      scanPool?.grow(countScanThreads());
      folders.start(folderHandlers);
      // The record directory is watched with chokidar once the first scan is done, whose CPU it
      // would take; one that is not there yet is watched at once, and waited for.
      if (exists) await reconcile(true);
      else setStatus({ record: { state: 'missing', why: null }, indexing: { state: 'waiting', files: 0 } });
      folders.watchRecordDirectory().catch((error: unknown) => options.onError?.(`watcher: ${(error as Error).message}`));
      if (closed) return;
      if (!exists) scheduleReconcile(0);
    },
    /** Whether a change now comes from the first scan's own reading (told by its progress). */
    readingFirstScan: () => scanReading,
    /** Once the record is read, the file count is the index's: files keep arriving. */
    status: () => ({ record, indexing: indexing.state === 'ready' ? { state: 'ready' as const, files: index.fileCount() } : indexing }),
    /** Reads a file of a session again now, for a page: what is on disk is what is shown. */
    readNow(sessionId: string, name: string): FreshRead {
      return observeFile(sessionId, name);
    },
    /** Records a look at a file taken elsewhere (a reader thread), as readNow records its own. */
    recordLook(sessionId: string, name: string, look: { seen: Observation; mtimeMs: number | null }): KnownFile | undefined {
      concludeLook(sessionId, name, parseEntryName(name), look.seen, look.mtimeMs);
      return index.file(sessionId, name);
    },
    pendingRetries: () => retries.size,
    async close(): Promise<void> {
      closed = true;
      await scanPool?.terminate();
      retries.close();
      if (reconcileTimer !== null) clearTimeout(reconcileTimer);
      await folders.close();
      await reconciling?.catch(() => {});
    },
  };
}

/** CPU time this thread has used, in µs; the whole process's where Node cannot tell a thread's. */
function threadCpuUs(): number {
  const usage = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : process.cpuUsage();
  return usage.user + usage.system;
}
