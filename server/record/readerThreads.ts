import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ReadReply, ReadRequest, SearchReply, SearchRequest, ThreadReply, ThreadRequest } from './readerThread.ts';

// Threads that do the work one request would otherwise do on the event loop: a search's reads
// and matches, a large entry's read and parse. Few at a time (the machine may have two cores,
// and the event loop needs one), each ended when its client goes away, and none kept long once
// idle: a thread that read a 60 MB entry gives its memory back when it ends.

/** Too many requests already running and waiting for a thread. */
export class ThreadsBusy extends Error {
  readonly running: number;
  readonly waiting: number;
  constructor(running: number, waiting: number) {
    super(`${running} running and ${waiting} waiting`);
    this.running = running;
    this.waiting = waiting;
  }
}

/** Asks the thread one thing at a time. */
/** The threads were closed: the dashboard is stopping. */
export class ThreadsClosed extends Error {
  constructor() {
    super('the dashboard is stopping');
  }
}

type Ask = {
  (request: SearchRequest): Promise<SearchReply>;
  (request: ReadRequest): Promise<ReadReply>;
};

type Lane = {
  /**
   * Runs `work` with a thread of its own, once one is free. Rejects with ThreadsBusy when too
   * many are waiting, and with the signal's reason when it aborts: the thread is then ended,
   * whatever it was doing, and the work stops. `work` calls `retire` to have the thread ended
   * rather than kept when it is done, e.g. after it held a large entry.
   */
  use<T>(signal: AbortSignal | undefined, work: (ask: Ask, retire: () => void) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

type LaneOptions = { threads: number; maxWaiting: number; idleMs: number };

type Thread = {
  worker: Worker;
  pending: { resolve: (reply: ThreadReply) => void; reject: (error: Error) => void } | null;
  ended: boolean;
  idleTimer: NodeJS.Timeout | null;
};

const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const SCRIPT = new URL(`./readerThread${ext}`, import.meta.url);

function startThread(): Thread {
  const worker = new Worker(SCRIPT);
  // A thread never keeps the process alive: the command ends when it is asked to.
  worker.unref();
  const thread: Thread = { worker, pending: null, ended: false, idleTimer: null };
  const fail = (error: Error) => {
    thread.ended = true;
    const pending = thread.pending;
    thread.pending = null;
    pending?.reject(error);
  };
  worker.on('message', (reply: ThreadReply) => {
    const pending = thread.pending;
    thread.pending = null;
    if (reply.type === 'failed') pending?.reject(new Error(reply.message));
    else pending?.resolve(reply);
  });
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('the reader thread ended')));
  return thread;
}

function askThread(thread: Thread, request: ThreadRequest): Promise<ThreadReply> {
  if (thread.ended) return Promise.reject(new Error('the reader thread ended'));
  return new Promise((resolve, reject) => {
    thread.pending = { resolve, reject };
    thread.worker.postMessage(request);
  });
}

export function createLane(options: LaneOptions): Lane {
  const all = new Set<Thread>();
  const idle: Thread[] = [];
  const waiting: { resolve: () => void; reject: (reason: unknown) => void; signal: AbortSignal | undefined; onAbort: () => void }[] = [];
  let running = 0;
  let closed = false;

  function end(thread: Thread): Promise<unknown> {
    if (thread.idleTimer !== null) clearTimeout(thread.idleTimer);
    all.delete(thread);
    const at = idle.indexOf(thread);
    if (at !== -1) idle.splice(at, 1);
    thread.ended = true;
    return thread.worker.terminate();
  }

  function park(thread: Thread): void {
    thread.idleTimer = setTimeout(() => void end(thread), options.idleMs);
    thread.idleTimer.unref();
    idle.push(thread);
  }

  /** Hands the slot to the next in line, or frees it. */
  function release(): void {
    const next = waiting.shift();
    if (next === undefined) {
      running--;
      return;
    }
    next.signal?.removeEventListener('abort', next.onAbort);
    next.resolve();
  }

  async function acquire(signal: AbortSignal | undefined): Promise<void> {
    if (running < options.threads) {
      running++;
      return;
    }
    if (waiting.length >= options.maxWaiting) throw new ThreadsBusy(running, waiting.length);
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(signal!.reason);
        },
      };
      waiting.push(waiter);
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
    });
  }

  return {
    async use(signal, work) {
      if (closed) throw new ThreadsClosed();
      signal?.throwIfAborted();
      await acquire(signal);
      // The slot may have come in the same turn as the signal: give it on.
      if (signal?.aborted) {
        release();
        throw signal.reason;
      }
      let thread = idle.pop();
      if (thread !== undefined) {
        clearTimeout(thread.idleTimer!);
        thread.idleTimer = null;
      } else {
        try {
          thread = startThread();
        } catch (error) {
          release();
          throw error;
        }
        all.add(thread);
      }
      const mine = thread;
      const onAbort = () => void end(mine);
      signal?.addEventListener('abort', onAbort, { once: true });
      let retired = false;
      try {
        return await work(((request: ThreadRequest) => askThread(mine, request)) as Ask, () => (retired = true));
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (closed) throw new ThreadsClosed();
        throw error;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        if (mine.ended || retired || closed) void end(mine);
        else park(mine);
        release();
      }
    },
    async close() {
      closed = true;
      for (const waiter of waiting.splice(0)) waiter.reject(new ThreadsClosed());
      await Promise.all([...all].map(end));
    },
  };
}

/**
 * Searches at once: one per core beside the event loop's, at most two. On two cores, two
 * searches side by side take as long as one after the other, and the event loop gets less.
 */
const SEARCH_THREADS = Math.min(2, Math.max(1, availableParallelism() - 1));
/** Searches that wait for a thread; more are refused (503) rather than queued without end. */
const SEARCH_WAITING = 4;

export type ReaderThreads = {
  search: Lane;
  /**
   * Entries over 1 MiB, one at a time, each lane: the huge ones (over 16 MiB, up to 64) in a lane
   * of their own, so that a page holding a 2 MB entry does not wait behind 60 MB ones. Each of
   * those takes hundreds of megabytes while it is parsed, and its thread is ended after it.
   */
  read: Lane;
  readHuge: Lane;
  close(): Promise<void>;
};

export function createReaderThreads(): ReaderThreads {
  // A search thread is kept a little while for the next search (starting one takes ~100 ms); a
  // read thread lets its memory go soon, and at once after a huge entry.
  const search = createLane({ threads: SEARCH_THREADS, maxWaiting: SEARCH_WAITING, idleMs: 10_000 });
  const read = createLane({ threads: 1, maxWaiting: Number.POSITIVE_INFINITY, idleMs: 2_000 });
  const readHuge = createLane({ threads: 1, maxWaiting: Number.POSITIVE_INFINITY, idleMs: 0 });
  return {
    search,
    read,
    readHuge,
    async close() {
      await Promise.all([search.close(), read.close(), readHuge.close()]);
    },
  };
}
