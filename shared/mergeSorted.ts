// A stable k-way merge, for a core that orders items from many sorted lists: the record's search
// (sessions, newest first) and set-agent-comm's room flow (seat files, by header instant).

export type Merge<T> = {
  /** The next `count` items, fewer at the end. */
  take(count: number): T[];
  hasMore(): boolean;
  /** Items in all the lists, taken or not. */
  readonly total: number;
};

/**
 * Merges lists that are each sorted by `before` into one, a few items at a time, so that a caller
 * that needs only the first items orders no more than it takes. An item goes first when `before`
 * says so; at a tie the earlier list's goes first, so the whole is what a stable sort of the
 * lists one after the other would give. A binary heap of the lists' heads: [list, position].
 */
export function mergeSorted<T>(lists: readonly (readonly T[])[], before: (a: T, b: T) => boolean): Merge<T> {
  const heap: [number, number][] = [];
  const first = (x: [number, number], y: [number, number]) => {
    const a = lists[x[0]]![x[1]]!;
    const b = lists[y[0]]![y[1]]!;
    return before(a, b) || (!before(b, a) && x[0] < y[0]);
  };
  const siftUp = (at: number) => {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!first(heap[at]!, heap[parent]!)) return;
      [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
      at = parent;
    }
  };
  const siftDown = (at: number) => {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let top = at;
      if (left < heap.length && first(heap[left]!, heap[top]!)) top = left;
      if (right < heap.length && first(heap[right]!, heap[top]!)) top = right;
      if (top === at) return;
      [heap[at], heap[top]] = [heap[top]!, heap[at]!];
      at = top;
    }
  };
  lists.forEach((list, index) => {
    if (list.length === 0) return;
    heap.push([index, 0]);
    siftUp(heap.length - 1);
  });
  return {
    take(count) {
      const taken: T[] = [];
      while (taken.length < count && heap.length > 0) {
        const head = heap[0]!;
        const list = lists[head[0]]!;
        taken.push(list[head[1]]!);
        if (head[1] + 1 < list.length) {
          head[1]++;
        } else {
          heap[0] = heap.at(-1)!;
          heap.pop();
        }
        if (heap.length > 0) siftDown(0);
      }
      return taken;
    },
    hasMore: () => heap.length > 0,
    total: lists.reduce((sum, list) => sum + list.length, 0),
  };
}
