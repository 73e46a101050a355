// What the watches saw, gathered: a burst of events (a writer's pieces, a thousand files at
// once) is taken in one go at the next turn of the event loop, each folder once with every name
// that stirred in it, rather than once per event.

/** Folders where something stirred, each with the names told; null: only a listing can tell. */
export type Stirred = Map<string, Set<string | null>>;

type StirBatch = {
  stir(folder: string, name: string | null): void;
  /** Takes what is gathered now, rather than at the next turn. */
  takeNow(): void;
  pending(): number;
  close(): void;
};

export function createStirBatch(take: (stirred: Stirred) => void): StirBatch {
  let gathered: Stirred = new Map();
  let queued: NodeJS.Immediate | null = null;
  let closed = false;

  function takeNow(): void {
    if (queued !== null) clearImmediate(queued);
    queued = null;
    if (gathered.size === 0 || closed) return;
    const stirred = gathered;
    gathered = new Map();
    take(stirred);
  }

  return {
    stir(folder, name) {
      if (closed) return;
      let names = gathered.get(folder);
      if (names === undefined) gathered.set(folder, (names = new Set()));
      names.add(name);
      queued ??= setImmediate(takeNow);
    },
    takeNow,
    pending: () => gathered.size,
    close() {
      closed = true;
      if (queued !== null) clearImmediate(queued);
      queued = null;
      gathered = new Map();
    },
  };
}
