import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { onReaderMoves } from '../app/readerMoves.ts';
import { useKeys } from '../keyboard/useKeys.ts';
import { stepFrom, walkKeys } from '../keyboard/walkKeys.ts';
import { measureWithoutLayout } from './measureWithoutLayout.ts';
import { useFollow } from './useFollow.ts';

// A conversation's rows in order, on one time axis, as every kind's page shows them: virtualized
// (only the rows on screen are in the DOM, and only what they show is fetched), opened at its end
// and following it, or at the item a link names, selected; moved through with the keys. The kind
// says how many rows there are and what each is (ConversationList renders them); this hook holds
// where the list is.

/** Which side of the time axis a row is on: sent on the left, received on the right, or across both. */
export type Column = 'sent' | 'received' | 'both';
/** What the shell knows of a row whose data is here: its key (the item's name) and its column. */
export type RowPlace = { key: string; column: Column };

type Options = {
  /** How many rows the conversation has; null until known. */
  count: number | null;
  /** The row at a position, when what it shows is here (asked for after a render, in effects). */
  rowAt(index: number): RowPlace | undefined;
  /**
   * The item a link names, and where it sits: `index` undefined while it is looked for, null when
   * it is not there (the list opens at its start). No item: the list opens at its end, following.
   */
  target: { key: string; index: number | null | undefined } | null;
  /** A row to bring to the top and select, a new object each time (a moment picked on an activity strip). */
  jump?: { index: number } | null;
  /**
   * The reader selected an item by key: its page may put it in the address. False: this row is
   * not put there (no item's), and the address's item stays the one the list answers to.
   */
  onSelectItem?(key: string): boolean | void;
  /** Keys the kind adds, given the selected row. */
  keys?: Record<string, (selected: number | null) => void>;
  /**
   * Each row's name, where every row's data is here (a session's page across the stores): rows
   * keep their measured height by it, a reader away from the end keeps the row at the top of the
   * view in place while rows before it come and go (the oldest left out as new ones arrive), the
   * selection stays on its item, and "N new" counts the rows after the last one the reader had.
   */
  keyOf?(index: number): string;
};

const ESTIMATED_ROW_PX = 150;

export function useConversationList({ count, rowAt, target, jump = null, onSelectItem, keys = {}, keyOf }: Options) {
  // The scroll box, as state: a page may show its list only once its first answer is here.
  const [scrollElement, scrollRef] = useState<HTMLDivElement | null>(null);
  const rows = count ?? 0;
  const targetIndex = target?.index;
  // Placed once its length is known (and, for a link, where the item sits), already at the place
  // it opens on: so the first rows asked for are the ones the reader will see.
  const [placed, setPlaced] = useState(false);
  if (!placed && count !== null && (target === null || targetIndex !== undefined)) setPlaced(true);
  // Whether the list follows its newest row, as of the last render (useFollow, below, needs the virtualizer).
  const following = useRef(target === null);
  const virtualizer = useVirtualizer({
    count: rows,
    enabled: placed,
    getScrollElement: () => scrollElement,
    estimateSize: () => ESTIMATED_ROW_PX,
    // A row is measured after the frame's own layout, never by reading its height as it is put in.
    measureElement: measureWithoutLayout,
    initialOffset: () => (target === null ? rows : (targetIndex ?? 0)) * ESTIMATED_ROW_PX,
    overscan: 4,
    // Rows named by key are anchored by it: the row at the top of the view stays where it is
    // when rows before it come or go (the virtualizer's own anchoring, `anchorTo: 'end'`). Not
    // while the list follows its newest: the oldest rows leaving as new ones come moved the list
    // up by their height, which, a row taller than the view, read as the reader's and stopped it.
    ...(keyOf === undefined ? {} : { getItemKey: keyOf, anchorTo: following.current ? ('start' as const) : ('end' as const) }),
  });
  const visible: VirtualItem[] = virtualizer.getVirtualItems();
  const follow = useFollow(scrollElement, virtualizer, count, target === null, keyOf);
  following.current = follow.following;
  const [selected, setSelectedIndex] = useState<number | null>(null);
  // Where rows are named, the selection is its row's name, so that it stays on its item as rows
  // before it come or go; else its place.
  const selectedKey = useRef<string | null>(null);
  const setSelected = (index: number | null) => {
    selectedKey.current = index === null || keyOf === undefined || index >= rows ? null : keyOf(index);
    setSelectedIndex(index);
  };
  if (keyOf !== undefined && selected !== null && selectedKey.current !== null && (selected >= rows || keyOf(selected) !== selectedKey.current)) {
    let moved: number | null = null;
    for (let index = 0; index < rows; index++) {
      if (keyOf(index) === selectedKey.current) {
        moved = index;
        break;
      }
    }
    if (moved === null) selectedKey.current = null;
    setSelectedIndex(moved);
  }

  // A link to one item: select it and bring it into view, once per link. It is kept in view while
  // the page settles (what sits above the list grows as its answers come and the list's box
  // shrinks; rows above it take their measured heights), until the reader does anything.
  const handled = useRef<string | null>(null);
  const pinned = useRef<number | null>(null);
  useEffect(() => {
    if (scrollElement === null || target === null || targetIndex == null || handled.current === target.key || count === null || targetIndex >= count) return;
    handled.current = target.key;
    follow.stopFollowing();
    setSelected(targetIndex);
    pinned.current = targetIndex;
    virtualizer.scrollToIndex(targetIndex, { align: 'center' });
  }, [scrollElement, target?.key, targetIndex, count, follow, virtualizer]);
  useEffect(() => {
    if (scrollElement === null) return;
    const unpin = () => (pinned.current = null);
    const resized = new ResizeObserver(() => {
      if (pinned.current !== null) virtualizer.scrollToIndex(pinned.current, { align: 'center' });
    });
    // The box, and the rows in it as they are measured (the inner element's height is theirs).
    resized.observe(scrollElement);
    if (scrollElement.firstElementChild !== null) resized.observe(scrollElement.firstElementChild);
    const stopListening = onReaderMoves(scrollElement, unpin);
    window.addEventListener('keydown', unpin);
    return () => {
      resized.disconnect();
      stopListening();
      window.removeEventListener('keydown', unpin);
    };
  }, [scrollElement, virtualizer]);

  // An item selected by key is told once its row is here (a key may come while the rows on
  // screen are still loading).
  const toTell = useRef<number | null>(null);
  useEffect(() => {
    const index = toTell.current;
    const row = index === null ? undefined : rowAt(index);
    if (row === undefined) return;
    toTell.current = null;
    if (onSelectItem?.(row.key) !== false) handled.current = row.key;
  });

  // A moment picked elsewhere: its first item, at the top, selected.
  useEffect(() => {
    if (jump === null || count === null || count === 0) return;
    const index = Math.min(jump.index, count - 1);
    follow.stopFollowing();
    setSelected(index);
    virtualizer.scrollToIndex(index, { align: 'start' });
    // Only a new jump moves the list: not a new length, nor a new render of the follow state.
  }, [jump]);

  const select = (index: number) => {
    if (rows === 0) return;
    const next = Math.max(0, Math.min(rows - 1, index));
    setSelected(next);
    if (next < rows - 1) follow.stopFollowing();
    virtualizer.scrollToIndex(next, { align: 'auto' });
    toTell.current = next;
  };
  const toNewest = () => {
    if (rows > 0) {
      setSelected(rows - 1);
      toTell.current = rows - 1;
    }
    follow.resume();
  };
  const own = Object.fromEntries(Object.entries(keys).map(([key, run]) => [key, () => run(selected)]));
  // The selection goes with the view: a key that acts on the selected entry (r, o) acts on the
  // one now in view, never on one scrolled away from.
  useKeys({
    ...own,
    ...walkKeys({
      step: (delta) => select(stepFrom(selected, delta, virtualizer, rows)),
      newest: toNewest,
      first: () => {
        if (rows === 0) return;
        follow.stopFollowing();
        setSelected(0);
        toTell.current = 0;
        virtualizer.scrollToIndex(0, { align: 'start' });
      },
    }),
  });

  return { scrollRef, virtualizer, visible, follow, selected, setSelected };
}

export type ConversationListState = ReturnType<typeof useConversationList>;
