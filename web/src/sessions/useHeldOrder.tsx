import { useEffect, useMemo, useRef } from 'react';
import { countOf } from '../text/count.ts';
import { countMoved } from './sessionTree.ts';
import { useHold } from './useHold.ts';

// A live table's order, held while the reader is on it: while the pointer is over it or the focus
// is in it, a write that makes another row the latest does not move the row about to be clicked,
// nor the one whose reasons were just opened. The rows' contents still change; new rows come at the
// end. It takes the fresh order when the reader lets go, or at once from "N rows moved: re-sort",
// as the sidebar's list does (Sidebar.tsx; both hold by useHold). `order`: what the rows are sorted by; the reader's own
// choice of another is taken at once, and held from there.

export function useHeldOrder<T>(fresh: readonly T[], keyOf: (row: T) => string, order: string) {
  const box = useRef<HTMLDivElement>(null);
  const { kept, held, retake, pointer, focus } = useHold(() => fresh.map(keyOf), box);
  const keptFor = useRef(order);
  useEffect(() => {
    if (keptFor.current === order) return;
    keptFor.current = order;
    if (held()) retake();
  }, [order, held, retake]);
  const rows = useMemo(() => {
    // Sorted otherwise by the reader, until that order is held: the fresh one.
    if (kept === null || keptFor.current !== order) return fresh;
    const byKey = new Map(fresh.map((row) => [keyOf(row), row]));
    const place = new Set(kept);
    return [...kept.flatMap((key) => (byKey.has(key) ? [byKey.get(key)!] : [])), ...fresh.filter((row) => !place.has(keyOf(row)))];
  }, [fresh, kept, keyOf, order]);
  const moved = useMemo(() => (kept === null ? 0 : countMoved(rows.map(keyOf), fresh.map(keyOf))), [kept, rows, fresh, keyOf]);
  return {
    rows,
    /** Spread on the element that holds the table and its re-sort. */
    holdOn: { ref: box, ...pointer, ...focus },
    /** "N rows moved: re-sort", kept at the foot of the view while the order held is not the fresh one; null while it is. */
    resort:
      moved === 0 ? null : (
        <div className="table-resort">
          <button type="button" className="resort" onClick={retake} title="The table keeps its order while the pointer is over it or the focus is in it">
            {countOf(moved, 'row')} moved: re-sort
          </button>
        </div>
      ),
  };
}
