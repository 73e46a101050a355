import { useSyncExternalStore, type PointerEvent } from 'react';
import { useSettings } from '../settings/Settings.tsx';
import { formatRelative, formatShortTime, formatTime } from './formatTime.ts';

/**
 * A time in the zone the reader chose. Shown relative ("3 minutes ago") when the reader chose so,
 * with the exact time in that zone on hover; otherwise exact, and the relative form is worked out
 * when the pointer arrives, so nothing re-renders on a timer. The hover also has the time as its
 * store wrote it (`written`, else the instant as the wire carries it).
 */
export function Time({ at, short = false, withDate = true, written = at, className }: { at: string; short?: boolean; withDate?: boolean; written?: string; className?: string }) {
  const { timeZone, relativeTimes } = useSettings();
  const now = useNow(relativeTimes);
  const exact = short ? formatShortTime(at, timeZone) : formatTime(at, timeZone, withDate);
  if (relativeTimes) {
    return (
      <time dateTime={at} title={`${formatTime(at, timeZone)} · ${written}`} className={`time-relative${className === undefined ? '' : ` ${className}`}`}>
        {formatRelative(at, Math.max(now, Date.now()))}
      </time>
    );
  }
  const onEnter = (event: PointerEvent<HTMLElement>) => {
    event.currentTarget.title = `${formatRelative(at)} · ${written}`;
  };
  return (
    <time dateTime={at} onPointerEnter={onEnter} title={written} className={className}>
      {exact}
    </time>
  );
}

// One clock for every relative time on the page, ticking only while relative times are shown:
// "3 minutes ago" becomes "4 minutes ago" without each time keeping a timer of its own. A time
// drawn between two ticks is told against the time it is drawn at, never the last tick's: an
// item that landed since read "in 3 seconds".
const TICK_MS = 15_000;
let clockNow = Date.now();
const clockListeners = new Set<() => void>();
let clockTimer: number | null = null;

function subscribeClock(listener: () => void): () => void {
  clockListeners.add(listener);
  if (clockTimer === null) {
    clockNow = Date.now();
    clockTimer = window.setInterval(() => {
      clockNow = Date.now();
      for (const each of clockListeners) each();
    }, TICK_MS);
  }
  return () => {
    clockListeners.delete(listener);
    if (clockListeners.size === 0 && clockTimer !== null) {
      window.clearInterval(clockTimer);
      clockTimer = null;
    }
  };
}

const subscribeNothing = () => () => {};

function useNow(ticking: boolean): number {
  return useSyncExternalStore(ticking ? subscribeClock : subscribeNothing, () => (ticking ? clockNow : 0));
}
