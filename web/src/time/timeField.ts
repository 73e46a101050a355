import type { TimeZoneSetting } from '../settings/Settings.tsx';
import { clockOf } from './formatTime.ts';

// A time the reader types (a search's from and to), written as the page writes times
// (`2026-11-20 09:00:00`) in the zone the page shows, and read back from it. Not the browser's
// date input: it writes the browser's locale (11/20/2026, 09:00 AM), not the page's.

/** A time field the reader wrote that is not a time: said, never sent as no filter. */
export class TimeFieldError extends Error {}

const TIME_FIELD = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

/** A time as the page writes it, read in the reader's zone, as UTC ISO 8601; null when empty. */
function readTimeField(value: string, zone: TimeZoneSetting): string | null {
  // A time copied from the page in UTC ends in its zone word.
  const trimmed = zone === 'utc' ? value.trim().replace(/ ?(UTC|Z)$/i, '') : value.trim();
  if (trimmed === '') return null;
  const match = TIME_FIELD.exec(trimmed);
  const parts = match === null ? null : match.slice(1).map((part, i) => (part === undefined ? 0 : i === 6 ? Number(part.padEnd(3, '0')) : Number(part)));
  if (parts !== null) {
    const [year, month, day, hour, minute, second, ms] = parts as [number, number, number, number, number, number, number];
    const date = zone === 'utc' ? new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms)) : new Date(year, month - 1, day, hour, minute, second, ms);
    // 2026-02-30 or 25:00 would roll over into another day: not a time that was written.
    const back = zone === 'utc' ? [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes()] : [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes()];
    if (back.every((n, i) => n === parts[i]) && second < 60) return date.toISOString();
  }
  throw new TimeFieldError(`${value.trim()} is not a time: write it as the page does, e.g. 2026-11-20 09:00:00 (year-month-day, 24-hour clock; seconds may be left out)`);
}

/** A time from the URL, written as the page writes times, in the reader's zone: '' for none, as written for one that is no time (the search says why). */
export function writeTimeField(iso: string | null, zone: TimeZoneSetting): string {
  if (iso === null) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const { day, minute, second, ms } = clockOf(date, zone);
  return `${day} ${minute}:${second}${ms === 0 ? '' : `.${String(ms).padStart(3, '0')}`}`;
}

/**
 * A window's two fields read as readTimeField reads each; throws TimeFieldError for a start after
 * its end, in the fields' words: no time is in such a window, and a search of it finds nothing.
 */
export function readTimeWindow(from: string, to: string, zone: TimeZoneSetting): { from: string | null; to: string | null } {
  const start = readTimeField(from, zone);
  const end = readTimeField(to, zone);
  if (start !== null && end !== null && start > end) throw new TimeFieldError(`from (${from.trim()}) is after to (${to.trim()}): no time is in that window.`);
  return { from: start, to: end };
}
