import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Indexing } from '../../shared/wire/common.ts';
import { createFolderWatches } from './folderWatches.ts';
import { createRootPoll, type RootLook } from './rootPoll.ts';
import { createStirBatch, type Stirred } from './stirBatch.ts';

// The watch loop every store kind shares (the record keeps its own, tuned, behind the same
// status): the root looked at every second, so a store that goes and comes back is read again
// at once; an fs.watch per folder the kind reads, its events gathered and taken in batches; the
// first scan and each reconcile walking the whole store in slices, so requests are answered
// meanwhile; and reconciles spaced by what the last one cost, about 2% of a core. A kind gives a
// walker: how to look at the whole store, and what to do with what stirred.

type WatchStatus = { state: 'present' | 'missing' | 'unreadable'; why: string | null; indexing: Indexing };

/** What a kind's reader gives the watch loop. */
export type StoreWalker = {
  /**
   * A look at the whole store, in steps (it yields after each unit of work, so that it runs in
   * slices, or yields a promise to wait for work done off the event loop): lists its folders
   * (watching each), reads what changed, forgets what went. The first scan, each reconcile and the
   * scan after the root came back are each one walk.
   */
  walk(): Generator<Promise<unknown> | void>;
  /**
   * What the watches saw, gathered: each folder with the names that stirred in it. What it gives
   * back waits for the first scan to end (a folder listed now would be read in one go, where the
   * scan reads it in slices), and is taken again then.
   */
  take(stirred: Stirred, scanning: boolean): Stirred | void;
  /** The root is gone, or another folder is under its path: everything read of it is forgotten. */
  forget(): void;
  /** How many files are read: the first scan's progress. */
  count(): number;
  /** The first scan has read everything, and is about to say so: what it read may be told now. */
  beforeReady?(): void;
};

type StoreWatch = {
  /** Looks at the root and reads it whole; resolves once that is done, or at once if it is not there. */
  start(): Promise<void>;
  status(): WatchStatus;
  /** Watches a folder the kind reads; says whether it is watched. */
  watch(folder: string): boolean;
  unwatchUnder(folder: string): void;
  /** Something in `folder` wants a look, as if its watch had told (a pending tail's retry). */
  stir(folder: string, name: string | null): void;
  /** Whether the first scan (of this root, or of the root come back) is running. */
  scanning(): boolean;
  close(): Promise<void>;
};

type StoreWatchOptions = {
  root: string;
  walker: StoreWalker;
  onStatus(): void;
  onError?: (message: string) => void;
  /** The least time between two reconciles, which catch what a watch missed. */
  reconcileMs?: number;
  /** How often the root is looked at. */
  rootPollMs?: number;
};

/** A walk gives the event loop back this often, so that the API answers while it runs. */
const SLICE_MS = 10;
/** How often the first scan's progress is told: each notice goes to every client. */
const PROGRESS_EVERY_MS = 100;
/** The next reconcile waits this many times the CPU the last one used: about 2% of a core. */
const RECONCILE_COST_SHARE = 50;
/** Reconciles are the safety net for lost events: one comes within a minute, whatever they cost. */
const MAX_RECONCILE_GAP_MS = 60_000;

export function createStoreWatch(options: StoreWatchOptions): StoreWatch {
  const { root, walker } = options;
  let state: WatchStatus['state'] = 'missing';
  let why: string | null = null;
  let indexing: Indexing = { state: 'waiting', files: 0 };
  /** The root folder being read; null while there is none. */
  let identity: string | null = null;
  /** Bumped when the root goes or is another folder: a walk of an older one stops. */
  let generation = 0;
  let scanning = false;
  let walking: Promise<void> | null = null;
  let reconcileTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const folders = createFolderWatches(
    (folder, name) => batch.stir(folder, name),
    (message) => options.onError?.(message),
  );
  /** What a walker left for the end of the first scan. */
  let deferred: Stirred = new Map();
  const batch = createStirBatch((stirred) => {
    // The root itself stirred: it may be gone, moved or made again; a look says at once.
    if (stirred.has(root)) poll.lookNow();
    if (state !== 'present' || closed) return;
    const left = walker.take(stirred, scanning);
    if (left !== undefined) for (const [folder, names] of left) for (const name of names) addTo(deferred, folder, name);
  });
  const poll = createRootPoll(root, onRoot, options.rootPollMs);

  function tell(): void {
    if (!closed) options.onStatus();
  }

  function onRoot(look: RootLook): void {
    if (closed) return;
    generation++;
    stopReconciles();
    folders.closeAll();
    const known = identity !== null;
    deferred = new Map();
    if (look.state !== 'present') {
      state = look.state;
      why = look.state === 'unreadable' ? look.why : null;
      identity = null;
      scanning = false;
      indexing = { state: 'waiting', files: 0 };
      if (known) walker.forget();
      tell();
      return;
    }
    // Back, made again, or another folder under its path: read as the store it is now.
    if (known) walker.forget();
    identity = look.identity;
    state = 'present';
    why = null;
    walking = scan(generation);
  }

  async function scan(of: number): Promise<void> {
    scanning = true;
    indexing = { state: 'scanning', files: 0 };
    tell();
    const spent = await walkInSlices(of, true);
    if (spent === null) return;
    scanning = false;
    // What stirred while the walk ran is taken before "ready": ready means everything was read.
    for (const [folder, names] of deferred) for (const name of names) batch.stir(folder, name);
    deferred = new Map();
    batch.takeNow();
    walker.beforeReady?.();
    indexing = { state: 'ready', files: walker.count() };
    tell();
    scheduleReconcile(spent);
  }

  /** Runs a walk in slices; the CPU it used (ms), or null when the root changed or the watch closed meanwhile. */
  async function walkInSlices(of: number, initial: boolean): Promise<number | null> {
    let spent = 0;
    let sliceCpu = threadCpuMs();
    let sliceAt = performance.now();
    let toldAt = sliceAt;
    for (const step of walker.walk()) {
      const waits = step instanceof Promise;
      if (!waits && performance.now() - sliceAt < SLICE_MS) continue;
      spent += threadCpuMs() - sliceCpu;
      if (initial && performance.now() - toldAt >= PROGRESS_EVERY_MS) {
        tell();
        toldAt = performance.now();
      }
      await (waits ? step : yieldToLoop());
      if (closed || of !== generation) return null;
      sliceAt = performance.now();
      sliceCpu = threadCpuMs();
    }
    return spent + threadCpuMs() - sliceCpu;
  }

  function scheduleReconcile(lastCpuMs: number): void {
    stopReconciles();
    if (closed) return;
    const least = options.reconcileMs ?? 30_000;
    const delay = Math.max(least, Math.min(MAX_RECONCILE_GAP_MS, lastCpuMs * RECONCILE_COST_SHARE));
    reconcileTimer = setTimeout(() => void reconcile(), delay);
    reconcileTimer.unref();
  }

  function stopReconciles(): void {
    if (reconcileTimer !== null) clearTimeout(reconcileTimer);
    reconcileTimer = null;
  }

  async function reconcile(): Promise<void> {
    reconcileTimer = null;
    if (closed || state !== 'present') return;
    const of = generation;
    const run = walkInSlices(of, false);
    walking = run.then(() => {});
    const spent = await run;
    if (spent === null) return;
    batch.takeNow();
    scheduleReconcile(spent);
  }

  return {
    async start() {
      poll.start();
      await walking;
    },
    status: () => ({ state, why, indexing: scanning ? { state: 'scanning', files: walker.count() } : indexing.state === 'ready' ? { state: 'ready', files: walker.count() } : indexing }),
    watch: (folder) => !closed && folders.watch(folder),
    unwatchUnder: (folder) => folders.unwatchUnder(folder),
    stir: (folder, name) => batch.stir(folder, name),
    scanning: () => scanning,
    async close() {
      closed = true;
      generation++;
      poll.stop();
      stopReconciles();
      batch.close();
      folders.closeAll();
      await walking?.catch(() => {});
    },
  };
}

function addTo(stirred: Stirred, folder: string, name: string | null): void {
  let names = stirred.get(folder);
  if (names === undefined) stirred.set(folder, (names = new Set()));
  names.add(name);
}

/** CPU time this thread has used, in ms; the whole process's where Node cannot tell a thread's. */
function threadCpuMs(): number {
  const usage = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}
