import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { startBackgroundThread } from '../watch/threadPriority.ts';
import { openLooks, type OpenedLooks, type PackedLooks } from './scanLooks.ts';

// The first scan on every core. Reading an entry is work in JavaScript (decoding, parsing,
// checking, fingerprinting) plus four system calls, once per file; scan threads share the
// session folders, each taking the next one in line from a counter in shared memory, so that a
// thread slowed by a large folder holds the others back in nothing. The thread that answers
// requests and watches the record only concludes what they hand over (scanLooks.ts). They read,
// and never write.

/**
 * A session folder as a scan thread looked at it: why it could not be listed, or its files; `soon`
 * when it was asked for.
 */
export type FolderLooked = { sessionId: string; problem: string | null; gone: boolean; soon: boolean; files: number };

/**
 * Folders a scan thread hands over together, their files packed one after the other: a message
 * costs the receiving thread a turn of its event loop and more, and a folder a message was a
 * third of the time it spent on a scan.
 */
export type ScanThreadMessage = { type: 'folders'; folders: FolderLooked[]; looks: PackedLooks } | { type: 'done' };

/** A folder handed over: its files are `looks`' from `first`, `files` of them. */
export type ScannedFolder = FolderLooked & { looks: OpenedLooks; first: number };

/**
 * What a scan thread is given. `queue` is shared by the threads of one scan: at 0 the next
 * folder in line; at 1 + i who has folder i (0 nobody yet, else the thread's number + 1).
 */
export type ScanShare = {
  recordDir: string;
  sessionIds: string[];
  queue: SharedArrayBuffer;
  thread: number;
  /**
   * Started at the process's priority, to lower its own once loaded: the first thread. The main
   * thread loads the server on one core while this one starts up on the other, so a write in a
   * folder not read yet, asked of a thread in the first moments after the first answer, finds one
   * loaded. Started niced, both threads started up only once the main thread and every other
   * process at normal priority left them the CPU: such a write's notice waited ~100–180 ms, where
   * ~30–60 ms otherwise, for ~30 ms later first answers (docs/performance.md, "The seventh round").
   * The others start niced from their first instruction: a third thread starting as an equal
   * would take CPU from the main thread's start.
   */
  startedAsEqual: boolean;
  asks: MessagePort;
  /** At each thread's number, how many of the asks it was sent it has begun to answer. */
  asksBegun: SharedArrayBuffer;
  /** At each thread's number, how many asks it was sent: a thread looks here between two files. */
  asksSent: SharedArrayBuffer;
};

export type ScanPool = {
  /**
   * The next folder handed over, in the order they came, but one asked for first: its notice
   * waits for it, and it holds whatever the looks of it before it held.
   */
  take(): ScannedFolder | undefined;
  /** Set by whoever takes the folders: told when one arrives, and when the last thread ends. */
  wake: (() => void) | null;
  /** Whether every thread has ended. */
  readonly finished: boolean;
  /** How many threads were started, ended or not. */
  readonly started: number;
  /** Whether a folder is in the threads' line, as listed when they started. */
  inLine(sessionId: string): boolean;
  /** Adds threads up to `threads` in all, while folders are still in line. */
  grow(threads: number): void;
  /** Resolves with the folders no thread reported: all of them if none could run. */
  done: Promise<string[]>;
  /**
   * Asks for a folder to be looked at before the next one in line (something stirred in it):
   * its look comes with `soon`, taken after the ask, even if the folder was looked at before.
   * Every ask for one folder goes to the thread that has it, so its looks come in order.
   */
  askSoon(sessionId: string): void;
  /**
   * How many looks of a folder asked for are still to come or to be taken: asks sent whose look
   * has not arrived, and asked looks arrived and not taken. An asked look taken when none is left
   * answers every ask of its folder; one taken before may not hold what stirred a later ask.
   */
  asksWaiting(sessionId: string): number;
  /**
   * The folders asked of a thread that ended before it answered (it failed), each once, since the
   * last call: the caller reads them itself, at once rather than when the scan ends. An ask for a
   * folder such a thread had is one of them as soon as it is made. Any look of them still to be
   * taken is dropped: the caller's reading is newer.
   */
  takeUnanswered(): string[];
  terminate(): Promise<void>;
};

/** No more threads than this: beyond it, the disk and the thread concluding are the limit. */
const MAX_SCAN_THREADS = 4;

/** The scan threads' name, which Node gives their system threads too (at most 15 characters there). */
const SCAN_THREAD_NAME = 'rec-scan';

/** As many scan threads as the machine has cores, within the limit. */
export function countScanThreads(): number {
  return Math.max(1, Math.min(availableParallelism(), MAX_SCAN_THREADS));
}

/** `asksSent`: how many asks it was sent. */
type Thread = { worker: Worker; asks: MessagePort; alive: boolean; lineDone: boolean; asksSent: number };

/**
 * Starts scan threads on these session folders. A thread that fails leaves its unreported
 * folders for the caller to read itself: it can cost time, never files.
 */
export function startScanPool(work: { recordDir: string; sessionIds: string[]; threads: number; /** The threads' script, if not scanWorker's (a test's, that fails). */ script?: URL }, onError: (message: string) => void): ScanPool {
  const { sessionIds } = work;
  const unreported = new Set(sessionIds);
  const queue = new SharedArrayBuffer(4 * (1 + sessionIds.length));
  const claims = new Int32Array(queue, 4);
  const asksBegun = new SharedArrayBuffer(4 * Math.max(MAX_SCAN_THREADS, work.threads));
  const begun = new Int32Array(asksBegun);
  const asksSent = new SharedArrayBuffer(asksBegun.byteLength);
  const sent = new Int32Array(asksSent);
  /** Per folder asked for, the thread asked and how many asks it had been sent with that one. */
  const lastAsks = new Map<string, { thread: number; sent: number }>();
  /** Per folder, the asks sent to a thread whose look has not come yet: each is answered by one look. */
  const unanswered = new Map<string, number>();
  const positions = new Map(sessionIds.map((sessionId, at) => [sessionId, at]));
  /** Folders asked for that are not in line (come since the listing): the thread that has each. */
  const askedElsewhere = new Map<string, number>();
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const threads: Thread[] = [];
  let stopped = false;
  let finished = false;
  let asks = 0;
  let resolveDone: (unreported: string[]) => void = () => {};
  const done = new Promise<string[]>((resolve) => (resolveDone = resolve));

  const inTurn: ScannedFolder[] = [];
  const asked: ScannedFolder[] = [];
  /** Folders whose asks a thread that ended left unanswered, not taken yet (ScanPool.takeUnanswered). */
  const lost = new Set<string>();
  const dropLooks = (sessionId: string) => {
    for (const waiting of [inTurn, asked]) {
      for (let at = waiting.findIndex((other) => other.sessionId === sessionId); at !== -1; at = waiting.findIndex((other) => other.sessionId === sessionId)) waiting.splice(at, 1);
    }
  };
  const loseAsk = (sessionId: string) => {
    unanswered.delete(sessionId);
    lastAsks.delete(sessionId);
    dropLooks(sessionId);
    lost.add(sessionId);
  };
  const pool: ScanPool = {
    take: () => asked.shift() ?? inTurn.shift(),
    wake: null,
    get finished() {
      return finished;
    },
    get started() {
      return threads.length;
    },
    done,
    inLine: (sessionId) => positions.has(sessionId),
    asksWaiting: (sessionId) => (unanswered.get(sessionId) ?? 0) + asked.filter((folder) => folder.sessionId === sessionId).length,
    takeUnanswered() {
      const taken = [...lost];
      lost.clear();
      return taken;
    },
    grow(count) {
      while (!stopped && !finished && threads.length < count && !threads.every((thread) => thread.lineDone)) if (!spawn()) return;
    },
    askSoon(sessionId) {
      const live = threads.filter((thread) => thread.alive);
      if (stopped || live.length === 0) return;
      // An idle thread answers at once; otherwise the asks take turns.
      const chosen = threads.indexOf(live.find((thread) => thread.lineDone) ?? live[asks++ % live.length]!);
      const at = positions.get(sessionId);
      let thread: number;
      if (at === undefined) {
        thread = askedElsewhere.get(sessionId) ?? chosen;
        askedElsewhere.set(sessionId, thread);
      } else {
        const claimed = Atomics.compareExchange(claims, at, 0, chosen + 1);
        thread = claimed === 0 ? chosen : claimed - 1;
      }
      // The look the last ask asked for has not begun: it begins after this ask, and is its look too.
      const last = lastAsks.get(sessionId);
      if (last !== undefined && last.thread === thread && Atomics.load(begun, thread) < last.sent) return;
      const asked = threads[thread]!;
      if (!asked.alive) {
        loseAsk(sessionId);
        pool.wake?.();
        return;
      }
      asked.asks.postMessage(sessionId);
      unanswered.set(sessionId, (unanswered.get(sessionId) ?? 0) + 1);
      Atomics.store(sent, thread, ++asked.asksSent);
      lastAsks.set(sessionId, { thread, sent: asked.asksSent });
    },
    async terminate() {
      stopped = true;
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
    },
  };

  /** Once every folder in line is taken, the threads stay for asks until the last is done. */
  const endWhenLineDone = () => {
    if (threads.every((thread) => thread.lineDone || !thread.alive)) for (const thread of threads) void thread.worker.terminate();
  };
  const end = () => {
    if (threads.some((thread) => thread.alive)) return;
    finished = true;
    resolveDone([...unreported]);
    pool.wake?.();
  };
  const arrive = (thread: Thread, message: ScanThreadMessage) => {
    if (stopped) return;
    if (message.type === 'done') {
      thread.lineDone = true;
      endWhenLineDone();
      return;
    }
    const looks = openLooks(message.looks);
    let first = 0;
    for (const folder of message.folders) {
      unreported.delete(folder.sessionId);
      const scanned = { ...folder, looks, first };
      first += folder.files;
      if (!folder.soon) {
        inTurn.push(scanned);
        continue;
      }
      // Come after its thread ended: its ask was counted lost, the caller reads the folder itself.
      if (!thread.alive) continue;
      const left = (unanswered.get(folder.sessionId) ?? 1) - 1;
      if (left > 0) unanswered.set(folder.sessionId, left);
      else unanswered.delete(folder.sessionId);
      // Taken after the ask, so after any look of it still waiting (in turn or asked before), which it supersedes.
      dropLooks(folder.sessionId);
      asked.push(scanned);
    }
    pool.wake?.();
  };

  /** Starts one more thread; false when it could not be started. */
  function spawn(): boolean {
    const channel = new MessageChannel();
    const startedAsEqual = threads.length === 0;
    const share: ScanShare = { recordDir: work.recordDir, sessionIds, queue, thread: threads.length, startedAsEqual, asks: channel.port2, asksBegun, asksSent };
    let worker: Worker;
    try {
      // A scan's garbage is short-lived and small: a small young generation keeps each thread's
      // heap from adding to the process's peak. Named, so that the system (top -H, /proc) and the
      // bench can tell the scan threads' CPU from the main thread's and the collector's.
      const script = work.script ?? new URL(`./scanWorker${ext}`, import.meta.url);
      const options = { name: SCAN_THREAD_NAME, workerData: share, transferList: [channel.port2], resourceLimits: { maxYoungGenerationSizeMb: 4 } };
      worker = startedAsEqual ? new Worker(script, options) : startBackgroundThread(script, options);
    } catch (error) {
      onError(`scan thread: ${(error as Error).message}`);
      channel.port1.close();
      return false;
    }
    const thread: Thread = { worker, asks: channel.port1, alive: true, lineDone: false, asksSent: 0 };
    threads.push(thread);
    worker.on('message', (message: ScanThreadMessage) => arrive(thread, message));
    worker.on('error', (error) => onError(`scan thread: ${error.message}`));
    worker.on('exit', () => {
      thread.alive = false;
      thread.asks.close();
      // What it was asked and did not answer is the caller's to read, now: the other threads may
      // read on for seconds, and a write's notice waits for its folder's look.
      const number = threads.indexOf(thread);
      for (const [sessionId, last] of lastAsks) if (last.thread === number && unanswered.has(sessionId)) loseAsk(sessionId);
      if (lost.size > 0) pool.wake?.();
      endWhenLineDone();
      end();
    });
    return true;
  }

  for (let number = 0; number < Math.max(1, work.threads); number++) spawn();
  if (threads.length === 0) {
    finished = true;
    resolveDone([...unreported]);
  }
  return pool;
}
