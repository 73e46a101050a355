import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import type { RecordStatus } from './recordStatus.ts';

/**
 * Scan in slices so the API keeps answering while a large record is read: a write seen meanwhile
 * waits for what is left of a slice before its notice is gathered, up to this long.
 */
const SLICE_MS = 5;

/**
 * When the watcher last saw a change since the last slice of a scan or reconcile (on the steady
 * clock), null when it saw none.
 */
export type SeenSinceSlice = { at: number | null };

type SlicesOptions = {
  /** Whether this is the first scan, whose reading is told by its progress. */
  initial: boolean;
  status: RecordStatus;
  /** Told whether the first scan is reading now: in its slices, not between them. */
  setScanReading: (reading: boolean) => void;
  seenSinceSlice: SeenSinceSlice;
  noticeGatherMs: number;
  /** Resolves once the notices gathered so far are told (the reader's gatherers). */
  noticesTold?: (() => Promise<unknown>) | undefined;
};

export type Slices = ReturnType<typeof createSlices>;

/**
 * A reconcile's slices and the pauses between them: each slice runs for SLICE_MS, then the
 * event loop has a turn. It counts the CPU this thread spends in the slices, not the time
 * between them, which other work (a burst of searches) can stretch to minutes.
 */
export function createSlices(options: SlicesOptions) {
  const { initial, status, setScanReading, seenSinceSlice } = options;
  let spentUs = 0;
  let sliceCpu = threadCpuUs();
  let sliceStart = 0;
  let read = 0;

  function end(): void {
    spentUs += threadCpuUs() - sliceCpu;
    setScanReading(false);
  }

  function begin(): void {
    sliceCpu = threadCpuUs();
    setScanReading(initial);
  }

  return {
    end,
    begin,
    /** Starts the first slice's clock: the reconcile's work begins. */
    startClock(): void {
      sliceStart = performance.now();
    },
    /** A change the watcher saw, or an asked folder's look: the next slice leaves its notice room. */
    noteSeen(): void {
      seenSinceSlice.at = performance.now();
    },
    /** Counts a file read; the first scan tells its progress by it. */
    countRead(): void {
      read++;
      if (initial && read % 256 === 0) status.set({ indexing: { state: 'scanning', files: read } }, false);
    },
    /** Whether this slice has had its time. */
    due: (): boolean => performance.now() - sliceStart > SLICE_MS,
    /** When this slice's time is up, on the steady clock. */
    until: (): number => sliceStart + SLICE_MS,
    /**
     * Ends this slice and begins the next once `until` resolves (the next turn of the event loop
     * without one). After a change the watcher saw, the next slice waits until the notice's
     * gathering time has passed since the change, so that the notice is not held behind it; a
     * pause that lasted that long already (waiting for a scan thread's look) waits no more than
     * for what was gathered by then to be told.
     */
    async pause(until: Promise<void> | null): Promise<void> {
      if (initial) status.set({ indexing: { state: 'scanning', files: read } }, false);
      end();
      await (until ?? yieldToLoop());
      const seenAt = seenSinceSlice.at;
      if (seenAt !== null) {
        seenSinceSlice.at = null;
        const left = seenAt + options.noticeGatherMs + 1 - performance.now();
        if (left > 0) await sleep(left);
        // A loaded machine can hold the thread past the notice's time before the pause reckons
        // it: its time has passed, but its timer has not run. The slice waits for the notice.
        await options.noticesTold?.();
      }
      begin();
      sliceStart = performance.now();
    },
    /** The CPU spent in the slices so far, in ms. */
    spentMs: (): number => spentUs / 1000,
  };
}

/** CPU time this thread has used, in µs; the whole process's where Node cannot tell a thread's. */
function threadCpuUs(): number {
  const usage = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : process.cpuUsage();
  return usage.user + usage.system;
}
