import { PENDING_WINDOW_MS, isPastPendingWindow, nextRetryDelay, type FirstLook } from '../../shared/evidence.ts';
import { createRetryQueue } from './retryQueue.ts';

// Bytes a writer has not finished (a spex line without its newline, a set-agent-comm header
// without its body) are pending while the writer may still finish them, and torn once the pending
// window has passed since the reader first looked at them there (shared/evidence.ts). Each file
// is looked at again on a timer until one or the other: no later write need come to wake it.

export type PendingTails = {
  /**
   * `key` has unfinished bytes at `place` (where they begin), in a file whose mtime is `changedAt`:
   * whether they are past the pending window. Until they are, `key` is read again on a timer.
   */
  look(key: string, place: string, changedAt: number): boolean;
  /** Nothing of `key` waits for its writer now (finished, torn for good, or gone). */
  settle(key: string): void;
  close(): void;
};

/** `windowMs`: the pending window (PENDING_WINDOW_MS but in a test's own reader). */
export function createPendingTails(readAgain: (key: string) => void, windowMs = PENDING_WINDOW_MS): PendingTails {
  const looks = new Map<string, FirstLook & { place: string }>();
  const retries = createRetryQueue(readAgain);
  return {
    look(key, place, changedAt) {
      let first = looks.get(key);
      // Another place is another wait: a line completed, and a new one was begun.
      if (first === undefined || first.place !== place) {
        first = { place, steadyAt: performance.now(), wallAt: Date.now(), changedAt };
        looks.set(key, first);
      }
      const over = isPastPendingWindow(first, performance.now(), windowMs);
      const since = first.steadyAt;
      if (over) retries.cancel(key);
      else retries.schedule(key, (attempt) => nextRetryDelay(attempt, performance.now(), since, windowMs));
      return over;
    },
    settle(key) {
      looks.delete(key);
      retries.cancel(key);
    },
    close() {
      retries.close();
      looks.clear();
    },
  };
}
