// A stable k-way merge, for a core that orders items from many sorted lists: every kind's search
// (a record session's, a spex log's and a set-agent-comm seat file's candidates, newest first) and
// set-agent-comm's room flow (seat files, by header instant).

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

/**
 * A list that comes in its writer's order (a record session's entries, a spex log's lines, a
 * set-agent-comm seat file's entries), newest first, as a stable sort by `atOf` would give it:
 * a time as ISO 8601 UTC in one format, or as a number. It almost always comes in time order
 * already: reversed, with each run of equal times put back in its order, it is sorted in linear
 * time.
 */
export function orderNewestFirst<T>(list: readonly T[], atOf: (item: T) => string | number): T[] {
  for (let i = 1; i < list.length; i++) {
    if (atOf(list[i - 1]!) > atOf(list[i]!)) return [...list].sort((a, b) => compareNewestFirst(atOf(a), atOf(b)));
  }
  const ordered: T[] = [];
  let end = list.length;
  while (end > 0) {
    let start = end - 1;
    const at = atOf(list[start]!);
    while (start > 0 && atOf(list[start - 1]!) === at) start--;
    for (let i = start; i < end; i++) ordered.push(list[i]!);
    end = start;
  }
  return ordered;
}

function compareNewestFirst(a: string | number, b: string | number): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

/**
 * Merges lists that are each newest first into one, newest first, a few items at a time: a
 * search that finds its hits among the newest items orders no more than it reads. Equal times
 * keep the order of the lists, so the whole is what a stable sort of the lists one after the
 * other would give.
 */
export function mergeNewestFirst<T>(lists: readonly (readonly T[])[], atOf: (item: T) => string | number): Merge<T> {
  return mergeSorted(lists, (a, b) => compareNewestFirst(atOf(a), atOf(b)) < 0);
}
