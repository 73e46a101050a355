import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * A background thread's niceness: it takes the CPU the main thread leaves. The main thread loads
 * the command, answers requests and tells of writes; a scan thread that competed with it as an
 * equal held the first answer and the notices back by a third (two threads where there was one).
 */
const BACKGROUND_NICENESS = 10;

/**
 * Lowers the calling thread's priority, and this thread's only: Linux gives each thread its own
 * nice value, set by its id, which /proc/thread-self names. Elsewhere the thread keeps the
 * process's. For the threads that work beside the main thread (first scans, searches): under
 * contention they wait, never a request or a notice.
 */
export function yieldToMainThread(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (Number.isSafeInteger(threadId) && threadId > 0) setPriority(threadId, BACKGROUND_NICENESS);
  } catch {
    // Not Linux, or not allowed: the thread runs at the process's priority.
  }
}
