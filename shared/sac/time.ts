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
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  let offset = 0;
  if (zone !== 'Z') {
    const offsetHours = Number(oh);
    const offsetMinutes = Number(om);
    if (offsetHours > 23 || offsetMinutes > 59) return null;
    offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  }
  // Date.UTC reads years 0–99 as 1900–1999: those take the slower way.
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset * 60_000;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime() - offset * 60_000;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
