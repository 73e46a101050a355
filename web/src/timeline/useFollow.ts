import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

// The view follows the newest entry until the reader scrolls away; then it counts what arrived
// since, and "N new" brings the reader back. Only a reader's own scrolling (wheel, touch, keys,
// scrollbar) stops following: the list also scrolls when rows are measured, which must not.

const AT_BOTTOM_PX = 48;
const INTENT_MS = 800;

export function useFollow(scrollRef: RefObject<HTMLDivElement | null>, virtualizer: Virtualizer<HTMLDivElement, Element>, total: number, startFollowing: boolean) {
  const [following, setFollowing] = useState(startFollowing);
  const [seenTotal, setSeenTotal] = useState(total);
  const intentAt = useRef(0);
  const totalRef = useRef(total);
  totalRef.current = total;

  const stopFollowing = useCallback(() => {
    setFollowing((was) => {
      if (was) setSeenTotal(totalRef.current);
      return false;
    });
  }, []);

  const resume = useCallback(() => {
    setFollowing(true);
    const el = scrollRef.current;
    if (el !== null && totalRef.current > 0) virtualizer.scrollToIndex(totalRef.current - 1, { align: 'end' });
  }, [scrollRef, virtualizer]);

  useEffect(() => {
    const el = scrollRef.current;
    if (el === null) return;
    const intent = () => {
      intentAt.current = Date.now();
    };
    const onWheel = (event: WheelEvent) => {
      intent();
      if (event.deltaY < 0) stopFollowing();
    };
    const onScroll = () => {
      const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
      if (fromBottom < AT_BOTTOM_PX) setFollowing(true);
      // Measuring rows moves the list by less than a screen; a jump further away is the reader's.
      else if (Date.now() - intentAt.current < INTENT_MS || fromBottom > el.clientHeight) stopFollowing();
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
  }, [scrollRef, stopFollowing]);

  // Keep the newest entry in view as entries arrive and rows take their measured height; before
  // the frame is painted, so that rows never show elsewhere first.
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (!following || total === 0) return;
    virtualizer.scrollToIndex(total - 1, { align: 'end' });
  }, [following, total, totalSize, virtualizer]);

  return { following, newCount: following ? 0 : Math.max(0, total - seenTotal), stopFollowing, resume };
}
