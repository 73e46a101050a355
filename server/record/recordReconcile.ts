import { join } from 'node:path';
import { FOLDER_NAME_NOT_UTF8, listFolder, pathIn, type FolderEntry } from '../watch/listFolder.ts';
import { describeError } from '../watch/describeError.ts';
import { rootIdentity } from '../watch/rootPoll.ts';
import type { FolderWatch } from './folderWatch.ts';
import { statRecordPath } from './readRecordFile.ts';
import type { RecordIndex } from './recordIndex.ts';
import type { RecordLooks } from './recordLooks.ts';
import type { RecordStatus } from './recordStatus.ts';
import { createSlices, type SeenSinceSlice, type Slices } from './reconcileSlices.ts';
import type { ScanHandOver } from './scanHandOver.ts';

const RECONCILE_COST_SHARE = 50; // Wait 50× the CPU the last reconcile used: ~2% of a core.
/**
 * The longest wait between two reconciles, whatever the last one cost: they are the safety net
 * for events the watcher lost, so a missed folder shows within a minute on any record.
 */
const MAX_RECONCILE_GAP_MS = 60_000;

type ReconcileContext = {
  recordDir: string;
  index: RecordIndex;
  status: RecordStatus;
  folders: Pick<FolderWatch, 'started' | 'rewatch' | 'isWatching' | 'lost'>;
  looks: RecordLooks;
  scan: ScanHandOver;
  isClosed: () => boolean;
  /** The least time between two reconciles (RecordWatcherOptions.reconcileIntervalMs). */
  reconcileIntervalMs?: number | undefined;
  /** How long a slice waits after a change the watcher saw (RecordWatcherOptions.noticeGatherMs). */
  noticeGatherMs?: number | undefined;
  /** Resolves once the notices gathered so far are told (RecordWatcherOptions.noticesTold). */
  noticesTold?: (() => Promise<unknown>) | undefined;
};

export type Reconciler = ReturnType<typeof createReconciler>;

/**
 * Brings the index in line with the disk: the first scan, then again and again, to catch what the
 * watcher missed. One at a time; one asked for meanwhile runs after. The next is due after a
 * wait that grows with the CPU the last one used.
 */
export function createReconciler(context: ReconcileContext) {
  const minReconcileMs = context.reconcileIntervalMs ?? 30_000;
  let reconcileTimer: NodeJS.Timeout | null = null;
  let reconciling: Promise<void> | null = null;
  let reconcileAgain = false;
  const seenSinceSlice: SeenSinceSlice = { at: null };

  /** Brings the index in line with the disk. Runs in slices; one at a time. */
  async function reconcile(initial: boolean): Promise<void> {
    if (reconciling !== null) {
      reconcileAgain = true;
      return reconciling;
    }
    const slices = createSlices({ initial, status: context.status, setScanReading: context.scan.setReading, seenSinceSlice, noticeGatherMs: context.noticeGatherMs ?? 0, noticesTold: context.noticesTold });
    reconciling = reconcileOnce(context, initial, slices);
    try {
      await reconciling;
    } finally {
      slices.end();
      reconciling = null;
      scheduleReconcile(slices.spentMs());
    }
    if (reconcileAgain && !context.isClosed()) {
      reconcileAgain = false;
      await reconcile(false);
    }
  }

  /** Sets the next reconcile from the CPU the last one used (in ms). */
  function scheduleReconcile(lastCpuMs: number): void {
    if (context.isClosed()) return;
    if (reconcileTimer !== null) clearTimeout(reconcileTimer);
    // While the record directory is missing, look for it every second: it is waited for.
    const delay = context.status.record().state === 'present' ? Math.max(minReconcileMs, Math.min(MAX_RECONCILE_GAP_MS, lastCpuMs * RECONCILE_COST_SHARE)) : 1_000;
    reconcileTimer = setTimeout(() => void reconcile(false), delay);
    reconcileTimer.unref();
  }

  return {
    reconcile,
    scheduleReconcile,
    /** The watcher saw a change: the next slice of a scan or reconcile leaves its notice room. */
    noteSeen(): void {
      seenSinceSlice.at = performance.now();
    },
    cancelTimer(): void {
      if (reconcileTimer !== null) clearTimeout(reconcileTimer);
    },
    /** Resolves once the reconcile running now, if any, has ended. */
    async settle(): Promise<void> {
      await reconciling?.catch(() => {});
    },
  };
}

/** One reconcile: the record directory's listing, each session folder's, the scan threads' looks. */
async function reconcileOnce(context: ReconcileContext, initial: boolean, slices: Slices): Promise<void> {
  const { recordDir, index, status, looks, scan, isClosed } = context;
  scan.setReading(initial);
  let dirents: FolderEntry[];
  try {
    dirents = listFolder(recordDir);
  } catch (error) {
    context.folders.lost();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      for (const sessionId of [...index.sessionIds()]) looks.observeFolderGone(sessionId);
      status.set({ record: { state: 'missing', why: null }, indexing: { state: 'waiting', files: status.indexing().files } });
    } else {
      status.set({ record: { state: 'unreadable', why: describeError(error as NodeJS.ErrnoException) } });
    }
    return;
  }
  if (status.record().state !== 'present') {
    // Unless the look at the root (recordWatcher.ts) has watched it afresh already.
    if (context.folders.started && !context.folders.isWatching(rootIdentity(recordDir))) context.folders.rewatch();
    status.set({ record: { state: 'present', why: null } });
  }
  if (initial) status.set({ indexing: { state: 'scanning', files: 0 } });
  slices.startClock();
  const seen = new Set<string>();
  // The first scan's folders are read by its threads and concluded in this thread's slices.
  const pool = initial ? scan.start(dirents) : null;
  for (const dirent of dirents) {
    if (isClosed()) return;
    seen.add(dirent.name);
    if (dirent.isDirectory() && dirent.bytes !== undefined) {
      // Listed, so that it does not vanish; its name cannot be a session id on the wire.
      index.setFolderProblem(dirent.name, FOLDER_NAME_NOT_UTF8);
    } else if (dirent.isDirectory()) {
      if (pool === null || !pool.inLine(dirent.name)) looks.reconcileSession(dirent.name, slices.countRead);
    } else {
      // A file, or a link (never followed), directly in the record directory: not a session.
      index.putLooseFile(dirent.name, statRecordPath(pathIn(recordDir, dirent))?.size ?? 0);
    }
    if (slices.due()) await slices.pause(null);
  }
  if (pool !== null && (await scan.concludeHandedOver(pool, slices, isClosed)) === 'closed') return;
  slices.end();
  const unreported = pool === null ? [] : await pool.done;
  scan.release();
  slices.begin();
  for (const sessionId of unreported) {
    if (isClosed()) return;
    looks.reconcileSession(sessionId, slices.countRead);
  }
  // Asked of a scan thread that ended before it answered.
  scan.tellUnanswered(slices.countRead);
  // Not in the listing: gone, or come since (the watcher told of it meanwhile). A look of
  // its own says which.
  for (const sessionId of [...index.sessionIds()]) if (!seen.has(sessionId)) looks.reconcileSession(sessionId, slices.countRead);
  for (const name of index.looseFiles()) if (!seen.has(name)) index.putLooseFile(name, statRecordPath(join(recordDir, name))?.size ?? null);
  if (initial || status.indexing().state !== 'ready') status.set({ indexing: { state: 'ready', files: index.fileCount() } });
}
