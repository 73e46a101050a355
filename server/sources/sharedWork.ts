// One piece of work for every request that wants the same thing at the same time (three clients
// asking for a page of 60 MB entries read each entry once; ten exports of one large line look
// through it once). The work stops when every request that waits for it has gone.

type Shared<T> = { result: Promise<T>; stop: AbortController; waiting: number };

/**
 * Shares work by key: `share(key, signal, work)` joins the work of that key in progress (or, up
 * to `kept` of them, finished), or starts it. `work` gets a signal that aborts once no request
 * waits for it any more.
 */
export function createSharedWork<T>(kept = 0): (key: string, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>) => Promise<T> {
  const shared = new Map<string, Shared<T>>();
  return (key, signal, work) => {
    signal.throwIfAborted();
    let mine = shared.get(key);
    if (mine === undefined) {
      const stop = new AbortController();
      const started: Shared<T> = { result: work(stop.signal), stop, waiting: 0 };
      shared.set(key, started);
      started.result.then(
        () => {
          if (kept === 0) shared.delete(key);
          // The oldest kept go first.
          while (shared.size > kept) shared.delete(shared.keys().next().value!);
        },
        () => shared.delete(key),
      );
      mine = started;
    }
    const joined = mine;
    joined.waiting++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (--joined.waiting === 0) joined.stop.abort(signal.reason);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      joined.result.then(
        (result) => {
          signal.removeEventListener('abort', onAbort);
          joined.waiting--;
          resolve(result);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  };
}
