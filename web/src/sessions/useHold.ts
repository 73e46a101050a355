import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type RefObject } from 'react';

// The reader's hold on a live list: while any reason holds it (the pointer over it, the focus in
// it, a reason of the list's own: the sidebar's reader who scrolled it), what the list was when
// the hold began is kept (`take`'s snapshot: an order), so that a write told meanwhile does not
// move the row about to be clicked. Let go by every reason, it is forgotten and the list is fresh
// again. One hook for the sidebar's list (Sidebar.tsx) and the overview's tables (useHeldOrder).

/** `Reason`: the list's own reasons to hold, beside the pointer and the focus (the sidebar's 'reader'). */
export function useHold<K, Reason extends string = never>(take: () => K, focusBox: RefObject<HTMLElement | null>) {
  const [kept, setKept] = useState<K | null>(null);
  const holding = useRef(new Set<'pointer' | 'focus' | Reason>());
  // What is taken is what the reader sees: the list as last committed, not as a render under way
  // (the sidebar renders a deferred list, whose render may be dropped).
  const takeNow = useRef(take);
  useLayoutEffect(() => {
    takeNow.current = take;
  });
  const hold = useCallback((by: 'pointer' | 'focus' | Reason, on: boolean) => {
    const before = holding.current.size > 0;
    if (on) holding.current.add(by);
    else holding.current.delete(by);
    const held = holding.current.size > 0;
    if (held && !before) setKept(takeNow.current());
    if (!held && before) setKept(null);
  }, []);
  // A focused element removed (a re-sort pressed, a row gone, a row scrolled out of a virtual
  // list) tells no blur: the focus has left all the same.
  useEffect(() => {
    if (holding.current.has('focus') && focusBox.current?.contains(document.activeElement) !== true) hold('focus', false);
  });
  return {
    /** The snapshot held; null while nothing holds the list. */
    kept,
    held: useCallback((): boolean => holding.current.size > 0, []),
    /** Holds for a reason of the list's own, or lets it go. */
    hold,
    /** Takes a fresh snapshot while held: the reader asked for the list as it is now. */
    retake: useCallback((): void => setKept(takeNow.current()), []),
    /** Spread on the element the pointer holds. */
    pointer: { onPointerEnter: () => hold('pointer', true), onPointerLeave: () => hold('pointer', false) },
    /** Spread on `focusBox`'s element: the focus in it holds. */
    focus: {
      onFocus: () => hold('focus', true),
      onBlur: (event: FocusEvent) => {
        if (!event.currentTarget.contains(event.relatedTarget)) hold('focus', false);
      },
    },
  };
}
