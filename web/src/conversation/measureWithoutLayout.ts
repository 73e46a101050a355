import type { Virtualizer } from '@tanstack/react-virtual';

/**
 * A virtualizer's `measureElement` that never lays the page out: a row is measured by its
 * ResizeObserver entry, after the frame's own layout; until then (just put in the page) it keeps
 * the size it was last measured at, or its estimate. The default reads a new row's offsetHeight
 * as it is put in, which lays out the whole page there and then: while a store is indexed, the
 * sidebar puts new rows in with each write, and each write laid the page out once more.
 */
export function measureWithoutLayout<E extends Element>(element: E, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, E>): number {
  const box = entry?.borderBoxSize[0];
  if (box !== undefined) return Math.round(box.blockSize);
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}
