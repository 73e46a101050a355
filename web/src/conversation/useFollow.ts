import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';

// A list follows its newest item (a conversation's, the live view's) until the reader scrolls away;
// then it counts what arrived since, and "N new ↓", shown while some of it is below the view (a
// short list shows it in place, and a marker over it would say there is more below), brings the
// reader back. Only a reader's own scrolling (wheel, touch, keys, scrollbar) stops following, or
// starts it again down at the bottom: the list also scrolls when rows are measured, and a list
// still shorter than its estimate once put a link's item "at the bottom" and followed away from it.
// A view that opens on a link counts as new only what comes after the list's length was first
// known: nobody was away for what was there already. A list whose rows are named (`keyOf`) counts
// as new the rows after the last one the reader had when they stopped following: rows that come
// before it (an item dated earlier, older ones asked for, a filter cleared) or that leave (the
// oldest dropped) are not news.

const AT_BOTTOM_PX = 48;
const INTENT_MS = 800;

/**
 * `el`: the list's scroll box, once it is in the page; `known`: the list's length (null until the
 * first answer); `keyOf`: each row's name, where rows have one that stays theirs; `seenBefore`:
 * the last row a reader coming back had when they left, not following (the rows after it are new).
 */
export function useFollow(el: HTMLDivElement | null, virtualizer: Virtualizer<HTMLDivElement, Element>, known: number | null, startFollowing: boolean, keyOf?: (index: number) => string | number, seenBefore?: string | number | null) {
  const total = known ?? 0;
  const [following, setFollowing] = useState(startFollowing);
  /** The list's length, and its last row's name, when the reader last had the newest. */
  const [seen, setSeen] = useState<{ total: number; key: string | number | null } | null>(null);
  if (seen === null && known !== null) setSeen({ total: known, key: seenBefore ?? (known > 0 && keyOf !== undefined ? keyOf(known - 1) : null) });
  const intentAt = useRef(0);
  /** A frame is to scroll the list to its end. */
  const endPending = useRef(false);
  const totalRef = useRef(total);
  totalRef.current = total;
  const keyOfRef = useRef(keyOf);
  keyOfRef.current = keyOf;

  /** Whether the list's end is in the view: then what came is on screen, and nothing is "new ↓" below it. */
  const [endInView, setEndInView] = useState(true);
  /** Where the list's end is, read again: a boolean, so the view renders again only when it changes. */
  const readEnd = useCallback((box: HTMLDivElement) => {
    if (box.isConnected) setEndInView(box.scrollHeight - box.scrollTop - box.clientHeight <= 1);
  }, []);

  const stopFollowing = useCallback(() => {
    setFollowing((was) => {
      if (was) setSeen({ total: totalRef.current, key: totalRef.current > 0 && keyOfRef.current !== undefined ? keyOfRef.current(totalRef.current - 1) : null });
      return false;
    });
  }, []);

  const resume = useCallback(() => {
    setFollowing(true);
    if (el !== null && totalRef.current > 0) virtualizer.scrollToIndex(totalRef.current - 1, { align: 'end' });
  }, [el, virtualizer]);

  useEffect(() => {
    if (el === null) return;
    const intent = () => {
      intentAt.current = Date.now();
    };
    const onWheel = (event: WheelEvent) => {
      intent();
      if (event.deltaY < 0) stopFollowing();
    };
    let lastTop = el.scrollTop;
    const onScroll = () => {
      // A scroll told once the list has left the page (a row opened, the view gone on) reads a
      // box of no height: "at the bottom", and nothing the reader did.
      if (!el.isConnected) return;
      readEnd(el);
      const byReader = Date.now() - intentAt.current < INTENT_MS;
      // Only a scroll down reaches the end: a click on a row above the view scrolls the list up
      // to it, and that scroll, told after the press (or once the page has gone on), found a list
      // short enough "at the bottom" and followed again.
      const down = el.scrollTop > lastTop;
      lastTop = el.scrollTop;
      // Rows measured before the frame that scrolls to the end moved the list: not the reader.
      if (!byReader && endPending.current) return;
      const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
      if (fromBottom < AT_BOTTOM_PX) {
        if (byReader && down) setFollowing(true);
      }
      // Measuring rows moves the list by less than a screen; a jump further away is the reader's.
      else if (byReader || fromBottom > el.clientHeight) stopFollowing();
    };
    el.addEventListener('wheel', onWheel, { passive: true });
    el.addEventListener('touchstart', intent, { passive: true });
    el.addEventListener('pointerdown', intent);
    el.addEventListener('keydown', intent);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('touchstart', intent);
      el.removeEventListener('pointerdown', intent);
      el.removeEventListener('keydown', intent);
      el.removeEventListener('scroll', onScroll);
    };
  }, [el, stopFollowing, readEnd]);

  // The box changes size when what is above it does (a session's activity comes once its first
  // rows are shown, and its header grows): a followed list stays at its end.
  useEffect(() => {
    if (el === null || !following) return;
    const resized = new ResizeObserver(() => {
      el.scrollTop = el.scrollHeight;
    });
    resized.observe(el);
    return () => resized.disconnect();
  }, [el, following]);

  // Keep the newest item in view as items arrive and rows take their measured height; before
  // the frame is painted, so that rows never show elsewhere first. The newest item ends the
  // scroll box, so following is scrolling to its end: one layout, where the virtualizer's
  // scrollToIndex measured the box, then scrolled, then looked again on the next frames. Done at
  // the frame rather than at each commit: reading scrollHeight lays the page out, and while a
  // store is indexed the page commits several times a frame (rows, the sidebar, the counts), each
  // of which laid it out again.
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (!following || total === 0 || el === null) return;
    endPending.current = true;
    const frame = requestAnimationFrame(() => {
      endPending.current = false;
      el.scrollTop = el.scrollHeight;
    });
    return () => {
      endPending.current = false;
      cancelAnimationFrame(frame);
    };
  }, [following, total, totalSize, el]);

  // The list's box changes size, or the list grows, without a scroll: where its end is is read
  // again, at the frame once it is laid out (one read a frame, however many rows a burst brings).
  useEffect(() => {
    if (el === null) return;
    const resized = new ResizeObserver(() => readEnd(el));
    resized.observe(el);
    return () => resized.disconnect();
  }, [el, readEnd]);
  useEffect(() => {
    if (el === null) return;
    const frame = requestAnimationFrame(() => readEnd(el));
    return () => cancelAnimationFrame(frame);
  }, [el, total, totalSize, readEnd]);

  const newCount = useMemo(() => {
    if (following || seen === null) return 0;
    if (keyOf !== undefined && seen.key !== null) {
      for (let index = total - 1; index >= 0; index--) if (keyOf(index) === seen.key) return total - 1 - index;
    }
    return Math.max(0, total - seen.total);
  }, [following, seen, total, keyOf]);

  /** Rows came since the reader left the newest and some are below the view: the "N new ↓" marker's case. */
  const newBelow = newCount > 0 && !endInView;
  return { following, newCount, newBelow, stopFollowing, resume, seenKey: seen?.key ?? null };
}
