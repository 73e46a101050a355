/**
 * Things as they arrive (notices, watcher events), and a wait for the first that matches,
 * whether it has already arrived or is still to come. Shared by the tests and the bench.
 */
export function createArrivals<T>(nothingMatched: string) {
  const items: T[] = [];
  const waiters = new Set<{ match: (item: T) => boolean; resolve: (item: T) => void }>();
  return {
    items,
    push(item: T): void {
      items.push(item);
      for (const waiter of [...waiters]) {
        if (!waiter.match(item)) continue;
        waiters.delete(waiter);
        waiter.resolve(item);
      }
    },
    /** `what` names the wait in its failure, beside how many arrived and the last of them. */
    next(match: (item: T) => boolean, timeoutMs: number, what?: string): Promise<T> {
      const seen = items.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (!waiters.delete(waiter)) return;
          const last = items.length === 0 ? 'none' : JSON.stringify(items.at(-1)).slice(0, 400);
          reject(new Error(`${what === undefined ? nothingMatched : `${nothingMatched}: ${what}`}, within ${timeoutMs} ms; ${items.length} arrived, the last: ${last}`));
        }, timeoutMs).unref();
      });
    },
  };
}
