import type { TimeZoneSetting } from '../settings/Settings.tsx';

// Times in the record are UTC to the millisecond (record-spec: timeFormat). They are shown with
// the milliseconds, because entries a few milliseconds apart are common and order matters.

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function formatTime(iso: string, zone: TimeZoneSetting, withDate = true): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  if (zone === 'utc') {
    const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
    const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}`;
    return withDate ? `${day} ${time} UTC` : `${time} UTC`;
  }
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
  return withDate ? `${day} ${time} ${localZoneName(date)}` : `${time} ${localZoneName(date)}`;
}

/** A short form for lists: no seconds, and no date when it is today. */
export function formatShortTime(iso: string, zone: TimeZoneSetting, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const utc = zone === 'utc';
  const parts = utc
    ? [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes()]
    : [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes()];
  const today = utc
    ? [now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate()]
    : [now.getFullYear(), now.getMonth() + 1, now.getDate()];
  const [y, mo, d, h, mi] = parts as [number, number, number, number, number];
  const sameDay = y === today[0] && mo === today[1] && d === today[2];
  const clock = `${pad(h)}:${pad(mi)}`;
  return sameDay ? clock : `${y}-${pad(mo)}-${pad(d)} ${clock}`;
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
