import type { TimeZoneSetting } from '../settings/Settings.tsx';

// Every time on every page is written here, in the zone the reader chose (UTC or local). Times are
// shown to the millisecond (the record's are UTC to the millisecond, record-spec: timeFormat;
// set-agent-comm's and spex's too), because items a few milliseconds apart are common and order
// matters. A time field the reader types is read back in the same form (time/timeField.ts).

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An instant's calendar and clock in a zone: `2026-11-20`, `09:00` and its seconds and milliseconds. */
export function clockOf(date: Date, zone: TimeZoneSetting): { day: string; minute: string; second: string; ms: number } {
  const utc = zone === 'utc';
  const [y, mo, d, h, mi, s, ms] = utc
    ? [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()]
    : [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds()];
  return { day: `${y}-${pad(mo)}-${pad(d)}`, minute: `${pad(h)}:${pad(mi)}`, second: pad(s), ms };
}

export function formatTime(iso: string, zone: TimeZoneSetting, withDate = true): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const { day, minute, second, ms } = clockOf(date, zone);
  const time = `${minute}:${second}.${pad(ms, 3)} ${zone === 'utc' ? 'UTC' : localZoneName(date)}`;
  return withDate ? `${day} ${time}` : time;
}

/** A short form for lists: no seconds, and no date when it is today. */
export function formatShortTime(iso: string, zone: TimeZoneSetting, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const { day, minute } = clockOf(date, zone);
  return day === clockOf(now, zone).day ? minute : `${day} ${minute}`;
}

function localZoneName(date: Date): string {
  const part = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' }).formatToParts(date).find((p) => p.type === 'timeZoneName');
  return part?.value ?? 'local';
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
  ['second', 1000],
];

export function formatRelative(iso: string, now = Date.now()): string {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return iso;
  const diff = at - now;
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'second') return format.format(Math.round(diff / ms), unit);
  }
  return iso;
}
