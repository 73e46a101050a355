import { Worker } from 'node:worker_threads';

// Threads that do the work one request would otherwise do on the event loop: a search's reads
// and matches, a large entry's read and parse. Few at a time (the machine may have two cores,
// and the event loop needs one), each ended when its client goes away, and none kept long once
// idle: a thread that read a 60 MB entry gives its memory back when it ends. A lane knows no
// kind: its thread's module is given to it.

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

/** The threads were closed: the dashboard is stopping. */
export class ThreadsClosed extends Error {
  constructor() {
    super('the dashboard is stopping');
  }
}

/** Asks the thread one thing at a time. */
type Ask<Request, Reply> = (request: Request) => Promise<Reply>;

export type Lane<Request, Reply> = {
  /**
   * Runs `work` with a thread of its own, once one is free. Rejects with ThreadsBusy when too
   * many are waiting, and with the signal's reason when it aborts: the thread is then ended,
   * whatever it was doing, and the work stops. `work` calls `retire` to have the thread ended
   * rather than kept when it is done, e.g. after it held a large entry.
   */
  use<T>(signal: AbortSignal | undefined, work: (ask: Ask<Request, Reply>, retire: () => void) => Promise<T>): Promise<T>;
  /**
   * Runs `work` as `use` does if a thread is started and free now; else returns null at once. For
   * work the event loop can do itself, which would lose by waiting for a thread to start
   * (50–200 ms) or to come free.
   */
  useIdle<T>(signal: AbortSignal | undefined, work: (ask: Ask<Request, Reply>, retire: () => void) => Promise<T>): Promise<T> | null;
  /** Starts a thread and parks it, if the lane has none and room for one: `useIdle` finds it. */
  warm(): void;
  close(): Promise<void>;
};

type LaneOptions = {
  /**
   * The thread's module: it posts `{ type: 'ready' }` once loaded, then answers each message with
   * one reply, `{ type: 'failed', message }` when it cannot.
   */
  script: URL;
  threads: number;
  /**
   * Requests that may wait for a thread; more are refused. Those that share a signal (the
   * sources one search asks) count as one: they are one request of a client.
   */
  maxWaiting: number;
  idleMs: number;
};

type Thread = {
  worker: Worker;
  /**
   * Resolves when its module has loaded: work is handed a thread that can start at once, so that
   * the time a thread takes to start (seconds, on a loaded machine) is never counted as work.
   */
  ready: Promise<void>;
  pending: { resolve: (reply: unknown) => void; reject: (error: Error) => void } | null;
  ended: boolean;
  idleTimer: NodeJS.Timeout | null;
};

/** The URL of a thread's module beside `base`, as built (`.js`) or run from source (`.ts`). */
export function threadScript(name: string, base: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

function startThread(script: URL): Thread {
  const worker = new Worker(script);
  // A thread never keeps the process alive: the command ends when it is asked to.
  worker.unref();
  let ready!: { resolve: () => void; reject: (error: Error) => void };
  const thread: Thread = { worker, ready: new Promise<void>((resolve, reject) => (ready = { resolve, reject })), pending: null, ended: false, idleTimer: null };
  thread.ready.catch(() => {});
  const fail = (error: Error) => {
    thread.ended = true;
    ready.reject(error);
    const pending = thread.pending;
    thread.pending = null;
    pending?.reject(error);
  };
  worker.on('message', (reply: { type: string; message?: string }) => {
    if (reply.type === 'ready') return ready.resolve();
    const pending = thread.pending;
    thread.pending = null;
    if (reply.type === 'failed') pending?.reject(new Error(reply.message));
    else pending?.resolve(reply);
  });
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('the reader thread ended')));
  return thread;
}

function askThread(thread: Thread, request: unknown): Promise<unknown> {
  if (thread.ended) return Promise.reject(new Error('the reader thread ended'));
  return new Promise((resolve, reject) => {
    thread.pending = { resolve, reject };
    thread.worker.postMessage(request);
  });
}

export function createLane<Request, Reply>(options: LaneOptions): Lane<Request, Reply> {
  const all = new Set<Thread>();
  const idle: Thread[] = [];
  const waiting: { resolve: () => void; reject: (reason: unknown) => void; signal: AbortSignal | undefined; onAbort: () => void }[] = [];
  let running = 0;
  /** The signals of the work that has a thread now, with how many threads each holds. */
  const holding = new Map<AbortSignal, number>();
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

  function letGo(signal: AbortSignal | undefined): void {
    if (signal === undefined) return;
    const held = (holding.get(signal) ?? 1) - 1;
    if (held === 0) holding.delete(signal);
    else holding.set(signal, held);
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
    const requests = new Set(waiting.map((waiter) => waiter.signal ?? waiter));
    if (!(signal !== undefined && (requests.has(signal) || holding.has(signal))) && requests.size >= options.maxWaiting) throw new ThreadsBusy(running, requests.size);
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

  /** Runs `work` on `thread`, whose slot is taken; the slot and the thread are given back after it. */
  async function runOn<T>(thread: Thread, signal: AbortSignal | undefined, work: (ask: Ask<Request, Reply>, retire: () => void) => Promise<T>): Promise<T> {
    if (signal !== undefined) holding.set(signal, (holding.get(signal) ?? 0) + 1);
    const onAbort = () => void end(thread);
    signal?.addEventListener('abort', onAbort, { once: true });
    let retired = false;
    try {
      await thread.ready;
      return await work((request) => askThread(thread, request) as Promise<Reply>, () => (retired = true));
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (closed) throw new ThreadsClosed();
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (thread.ended || retired || closed) void end(thread);
      else park(thread);
      letGo(signal);
      release();
    }
  }

  /** A parked thread, taken from the idle ones. */
  function unpark(thread: Thread): Thread {
    clearTimeout(thread.idleTimer!);
    thread.idleTimer = null;
    return thread;
  }

  const lane: Lane<Request, Reply> = {
    async use(signal, work) {
      if (closed) throw new ThreadsClosed();
      signal?.throwIfAborted();
      await acquire(signal);
      // The slot may have come in the same turn as the signal: give it on.
      if (signal?.aborted) {
        release();
        throw signal.reason;
      }
      const parked = idle.pop();
      let thread: Thread;
      if (parked !== undefined) {
        thread = unpark(parked);
      } else {
        try {
          thread = startThread(options.script);
        } catch (error) {
          release();
          throw error;
        }
        all.add(thread);
      }
      return runOn(thread, signal, work);
    },
    useIdle(signal, work) {
      if (closed || signal?.aborted === true) return null;
      if (idle.length > 0 && running < options.threads && waiting.length === 0) {
        // The slot and the thread are taken now, before anything else can take them.
        running++;
        return runOn(unpark(idle.pop()!), signal, work);
      }
      return null;
    },
    warm() {
      // Started and parked, as after any work.
      if (!closed && all.size === 0 && running < options.threads) lane.use(undefined, async () => {}).catch(() => {});
    },
    async close() {
      closed = true;
      for (const waiter of waiting.splice(0)) waiter.reject(new ThreadsClosed());
      await Promise.all([...all].map(end));
    },
  };
  return lane;
}
