/**
 * Files that do not parse yet are read again on a timer (rule.oneWriter). One timer serves the
 * whole queue, set for the earliest due read, so a burst of half-written files costs one timer.
 * Times are on the process's steady clock: a wall clock set back must not hold a read back.
 */
export function createRetryQueue(retry: (key: string) => void) {
  const due = new Map<string, number>();
  const attempts = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Infinity;

  function armFor(at: number): void {
    if (at >= timerAt) return;
    if (timer !== null) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(fire, Math.max(0, at - performance.now()));
  }

  function fire(): void {
    timer = null;
    timerAt = Infinity;
    const now = performance.now();
    const ready: string[] = [];
    for (const [key, at] of due) if (at <= now) ready.push(key);
    for (const key of ready) due.delete(key);
    for (const key of ready) retry(key);
    let earliest = Infinity;
    for (const at of due.values()) if (at < earliest) earliest = at;
    if (earliest !== Infinity) armFor(earliest);
  }

  return {
    /** Schedules a read of `key`, `delay` given how many reads of it were scheduled before. */
    schedule(key: string, delay: (attempt: number) => number): void {
      const attempt = attempts.get(key) ?? 0;
      attempts.set(key, attempt + 1);
      const at = performance.now() + delay(attempt);
      due.set(key, at);
      armFor(at);
    },
    cancel(key: string): void {
      // The timer may still fire for nothing; it then sets itself for what is left.
      attempts.delete(key);
      due.delete(key);
    },
    get size() {
      return due.size;
    },
    close(): void {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      due.clear();
      attempts.clear();
    },
  };
}
