import type { Worker } from 'node:worker_threads';
import { startBackgroundThread } from './threadPriority.ts';
import type { AppendMark } from './appendRead.ts';

// A first scan of append-only files on both cores: a thread reads the line of files from its
// end (appendScanWorker.ts) while the caller reads it from the front, each file claimed once in
// shared memory, until they meet. The caller adopts what the thread hands over, between slices of
// its own reading; it reads itself whatever the thread left, or never handed over (a thread
// that failed costs time, never files). The thread reads and never writes; what is appended
// after the first scan is read on the main thread, as before. The thread is started before its
// line is known: its start (an isolate, its modules, the kind's core: ~0.1 s of a core) runs while
// the caller lists the files, and the line is handed to it once listed.

/** What a scan thread works with from its start: the store, its secrets, and the kind's core. */
export type AppendScanWork = {
  root: string;
  /** The names at the root, each a prefix in any case, that are secrets (server/watch/secretFiles.ts). */
  secretPrefixes: readonly string[];
  /** A pure core function by module and export: `(bytes) => { offset, value, transfer } | null`. */
  reader: { module: string; name: string };
};

/** The line, handed to a started thread: its files, and one claim a file. */
export type AppendScanLine = {
  /** Absolute paths, already allowed by the kind. */
  paths: readonly string[];
  /** One slot a file: 0 nobody's yet, 1 the main thread's, 2 this thread's. */
  claims: SharedArrayBuffer;
};

/** What the kind's core makes of a file's bytes: how far it consumed them, and what to hand over. */
export type AppendScanReading = { offset: number; value: unknown; transfer: ArrayBuffer[] };

/** A file the thread took: its reading, or null when it is left to the main thread. */
export type AppendScanned = { index: number; read: { value: unknown; mark: AppendMark; mtimeMs: number } | null };

export type AppendScanMessage = { type: 'files'; files: AppendScanned[] } | { type: 'done' };

/** A claim's slot holds 0 (nobody's yet), this, or the thread's (2, appendScanWorker.ts). */
const CLAIMED_BY_MAIN = 1;

export type AppendScan = {
  /** The caller's claim on file `index` (from the front): false when the thread has it, and every file after it. */
  claim(index: number): boolean;
  /** The files handed over since the last take. */
  take(): AppendScanned[];
  /** Resolves when something is handed over, or the thread ends. */
  arrival(): Promise<void>;
  /** Whether the thread has ended: every file it will hand over has been. */
  readonly ended: boolean;
  stop(): Promise<void>;
};

/** A scan thread started, waiting for its line. */
export type AppendScanThread = {
  /** Hands the thread its line (once): it reads it from the end from then on. */
  read(paths: readonly string[]): AppendScan;
  /** Ends the thread, whether or not it was handed a line. */
  stop(): Promise<void>;
};

/** Starts a scan thread that waits for its line; null when no thread could be started (the caller reads it all). */
export function startAppendScan(work: AppendScanWork, onError: (message: string) => void): AppendScanThread | null {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  let arrived: AppendScanned[] = [];
  let ended = false;
  let wake: (() => void) | null = null;
  const tell = () => {
    wake?.();
    wake = null;
  };
  let worker: Worker;
  try {
    // A scan's garbage is short-lived and small: a small young generation keeps the thread's heap from adding to the peak.
    worker = startBackgroundThread(new URL(`./appendScanWorker${ext}`, import.meta.url), { workerData: work satisfies AppendScanWork, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
  } catch (error) {
    onError(`scan thread: ${(error as Error).message}`);
    return null;
  }
  worker.on('message', (message: AppendScanMessage) => {
    // Sent after every file it read: what came before it has come.
    if (message.type === 'done') ended = true;
    if (message.type !== 'files') return tell();
    arrived.push(...message.files);
    tell();
  });
  worker.on('error', (error) => onError(`scan thread: ${error.message}`));
  worker.on('exit', () => {
    ended = true;
    tell();
  });
  const stop = async () => {
    await worker.terminate();
  };
  return {
    read(paths) {
      const claims = new SharedArrayBuffer(4 * paths.length);
      const slots = new Int32Array(claims);
      // A thread already ended (it failed to start) takes no message: every claim stays the caller's.
      if (!ended) worker.postMessage({ paths, claims } satisfies AppendScanLine);
      return {
        claim: (index) => Atomics.compareExchange(slots, index, 0, CLAIMED_BY_MAIN) === 0,
        take() {
          const taken = arrived;
          arrived = [];
          return taken;
        },
        arrival: () => (arrived.length > 0 || ended ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve))),
        get ended() {
          return ended;
        },
        stop,
      };
    },
    stop,
  };
}
