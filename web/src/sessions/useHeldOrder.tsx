import { useEffect, useMemo, useRef, useState, type FocusEvent } from 'react';
import { countOf } from '../text/count.ts';
import { countMoved } from './sessionTree.ts';

// A live table's order, held while the reader is on it: while the pointer is over it or the focus
// is in it, a write that makes another row the latest does not move the row about to be clicked,
// nor the one whose reasons were just opened. The rows' contents still change; new rows come at the
// end. It takes the fresh order when the reader lets go, or at once from "N rows moved: re-sort",
// as the sidebar's list does (Sidebar.tsx). `order`: what the rows are sorted by; the reader's own
// choice of another is taken at once, and held from there.

export function useHeldOrder<T>(fresh: readonly T[], keyOf: (row: T) => string, order: string) {
  const [kept, setKept] = useState<string[] | null>(null);
  const holding = useRef({ pointer: false, focus: false });
  const freshRef = useRef(fresh);
  freshRef.current = fresh;
  const keptFor = useRef(order);
  useEffect(() => {
    if (keptFor.current === order) return;
    keptFor.current = order;
    if (holding.current.pointer || holding.current.focus) setKept(freshRef.current.map(keyOf));
  }, [order, keyOf]);
  const hold = (by: 'pointer' | 'focus', on: boolean) => {
    const held = () => holding.current.pointer || holding.current.focus;
    const before = held();
    holding.current[by] = on;
    if (held() && !before) setKept(freshRef.current.map(keyOf));
    if (!held() && before) setKept(null);
  };
  const rows = useMemo(() => {
    // Sorted otherwise by the reader, until that order is held: the fresh one.
    if (kept === null || keptFor.current !== order) return fresh;
    const byKey = new Map(fresh.map((row) => [keyOf(row), row]));
    const place = new Set(kept);
    return [...kept.flatMap((key) => (byKey.has(key) ? [byKey.get(key)!] : [])), ...fresh.filter((row) => !place.has(keyOf(row)))];
  }, [fresh, kept, keyOf, order]);
  const moved = useMemo(() => (kept === null ? 0 : countMoved(rows.map(keyOf), fresh.map(keyOf))), [kept, rows, fresh, keyOf]);
  // A focused element removed (the re-sort pressed, a row gone) tells no blur: the focus has left.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (holding.current.focus && box.current?.contains(document.activeElement) !== true) hold('focus', false);
  });
  return {
    rows,
    /** Spread on the element that holds the table and its re-sort. */
    holdOn: {
      ref: box,
      onPointerEnter: () => hold('pointer', true),
      onPointerLeave: () => hold('pointer', false),
      onFocus: () => hold('focus', true),
      onBlur: (event: FocusEvent) => {
        if (!event.currentTarget.contains(event.relatedTarget)) hold('focus', false);
      },
    },
    /** "N rows moved: re-sort", kept at the foot of the view while the order held is not the fresh one; null while it is. */
    resort:
      moved === 0 ? null : (
        <div className="table-resort">
          <button type="button" className="resort" onClick={() => setKept(fresh.map(keyOf))} title="The table keeps its order while the pointer is over it or the focus is in it">
            {countOf(moved, 'row')} moved: re-sort
          </button>
        </div>
      ),
  };
}
