import type { PointerEvent } from 'react';
import { useSettings } from '../settings/Settings.tsx';
import { formatRelative, formatShortTime, formatTime } from './formatTime.ts';

/**
 * A time from the record in the zone the reader chose. The relative form ("3 minutes ago") is
 * worked out when the pointer arrives, so it is never stale and nothing re-renders on a timer.
 */
export function Time({ at, short = false, withDate = true }: { at: string; short?: boolean; withDate?: boolean }) {
  const { timeZone } = useSettings();
  const text = short ? formatShortTime(at, timeZone) : formatTime(at, timeZone, withDate);
  const onEnter = (event: PointerEvent<HTMLElement>) => {
    event.currentTarget.title = `${formatRelative(at)} · ${at}`;
  };
  return (
    <time dateTime={at} onPointerEnter={onEnter} title={at}>
      {text}
    </time>
  );
}
