import { readdirSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A background thread's niceness: it takes the CPU the main thread leaves. The main thread loads
 * the command, answers requests and tells of writes; a scan thread that competed with it as an
 * equal held the first answer and the notices back by a third (two threads where there was one).
 */
const BACKGROUND_NICENESS = 10;

/**
 * Starts a thread that works beside the main thread (a first scan's) at a lower priority than it
 * from the thread's first instruction: under contention it waits, never a request or a notice.
 * Linux gives each thread its own nice value, set by its id; the thread is the one task of the
 * process that its Worker added. A thread that lowered its own priority only once its script had
 * loaded started up (Node's start of a thread, then its modules: tens of ms of CPU each) as the
 * main thread's equal, while the main thread loaded the server before its first answer.
 * Elsewhere, or when not allowed, the thread runs at the process's priority.
 */
export function startBackgroundThread(script: string | URL, options?: WorkerOptions): Worker {
  const before = listThreadIds();
  const worker = new Worker(script, options);
  if (before !== null) {
    for (const threadId of listThreadIds() ?? []) if (!before.has(threadId)) lowerPriority(threadId);
  }
  return worker;
}

/**
 * Lowers the calling thread's priority, and this thread's only, once it has loaded: for a thread
 * whose start a person waits for (a search's), which starts as the main thread's equal and then
 * works in the background. Niced from its first instruction, a first search on a machine other
 * processes kept busy waited behind them for its thread to start (readDuringScan.test.ts: a sac
 * store's first scan ended before one round of a list, a page and a search was answered).
 */
export function yieldToMainThread(): void {
  try {
    lowerPriority(Number(readlinkSync('/proc/thread-self').split('/').at(-1)));
  } catch {
    // Not Linux: the thread runs at the process's priority.
  }
}

function listThreadIds(): Set<number> | null {
  try {
    return new Set(readdirSync('/proc/self/task').map(Number));
  } catch {
    return null;
  }
}

function lowerPriority(threadId: number): void {
  try {
    if (Number.isSafeInteger(threadId) && threadId > 0) setPriority(threadId, BACKGROUND_NICENESS);
  } catch {
    // Not allowed: the thread runs at the process's priority.
  }
}
