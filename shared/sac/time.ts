// Times as sac writes them: local time with its offset, at millisecond resolution
// (`2026-11-30T17:18:53.482+00:00`). Entries are ordered by the instant a time names, never by
// its text: two offsets make the text order lie across a DST switch or between two machines.

const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant (epoch milliseconds) a time names, or null when it names none: no offset (the
 * writer's local time, which a reader elsewhere cannot place), or not a calendar time. sac's
 * header pattern admits more than its writer writes (`T[\d:.]+`), so a header can parse and
 * still carry a time that orders nothing. Digits past the millisecond are cut, as Date.parse does.
 */
export function parseInstant(time: string): number | null {
  const match = TIME.exec(time);
  if (match === null) return null;
  const [, y, mo, d, h, mi, s, fraction, zone, sign, oh, om] = match;
  const ms = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const offset = zone === 'Z' ? 0 : readOffset(sign === '-', Number(oh), Number(om));
  if (offset === null) return null;
  return composeInstant(Number(y), Number(mo), Number(d), Number(h), Number(mi), s === undefined ? 0 : Number(s), ms, offset);
}

/** The offset in minutes east of UTC; null when it is out of a clock's range. */
export function readOffset(negative: boolean, hours: number, minutes: number): number | null {
  if (hours > 23 || minutes > 59) return null;
  return (negative ? -1 : 1) * (hours * 60 + minutes);
}

/** The instant of a local time at an offset (minutes east of UTC); null when no calendar holds it. */
export function composeInstant(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number, offset: number): number | null {
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  // Date.UTC reads years 0–99 as 1900–1999: those take the slower way.
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset * 60_000;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime() - offset * 60_000;
}

// A time in the one form sac's writer writes (`2026-11-30T17:18:53.482+00:00`, or with `Z`) is
// given back exactly by its instant and the way its zone is written, so a reader of a million
// entries keeps two numbers for it rather than its text. A zone is its offset in minutes, or:
/** `Z`. */
export const ZONE_Z = 2000;
/** `-00:00`, which is not `+00:00` as written. */
export const ZONE_MINUS_ZERO = 2001;

const WRITTEN_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(?:Z|[+-]\d{2}:\d{2})$/;

/** How the zone of a time in the writer's form is written; null for a time in any other form, or one naming no instant. */
export function readZone(time: string): number | null {
  if (!WRITTEN_FORM.test(time) || parseInstant(time) === null) return null;
  if (time.endsWith('Z')) return ZONE_Z;
  const offset = readOffset(time[23] === '-', Number(time.slice(24, 26)), Number(time.slice(27, 29)))!;
  return offset === 0 && time[23] === '-' ? ZONE_MINUS_ZERO : offset;
}

/** A time in the writer's form, from its instant and its zone (see readZone): the text it was written as. */
export function formatTime(instant: number, zone: number): string {
  const offset = zone === ZONE_Z || zone === ZONE_MINUS_ZERO ? 0 : zone;
  const local = new Date(instant + offset * 60_000);
  const suffix = zone === ZONE_Z ? 'Z' : `${zone === ZONE_MINUS_ZERO || offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return (
    `${String(local.getUTCFullYear()).padStart(4, '0')}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}` +
    `T${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}.${String(local.getUTCMilliseconds()).padStart(3, '0')}${suffix}`
  );
}

function two(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
