// An entry's file name is `<UTC time to the millisecond, without colons>-<sequence>.json`
// (record-spec: entryFile). The name is the only order the record gives: entries are ordered by
// (time, numeric sequence), never by the name as a string, because `-10` sorts before `-9`.

export type EntryName = {
  /** The file name as found on disk. */
  name: string;
  /** The time written in the name, as ISO 8601 with colons: `2026-11-20T09:00:01.005Z`. */
  at: string;
  /** The sequence number; the writer may or may not zero-pad it. */
  seq: number;
};

const ENTRY_NAME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})Z-(\d{1,15})\.json$/;

/**
 * Reads an entry's time and sequence from its file name, or returns null when the name is not an
 * entry's: such a file is a stray, listed but never parsed as evidence of a message.
 */
export function parseEntryName(name: string): EntryName | null {
  const m = ENTRY_NAME.exec(name);
  if (m === null) return null;
  const [, year, month, day, hour, minute, second, ms, seq] = m as unknown as string[];
  // A name that looks right but is no real instant (month 13, hour 25) is not the writer's.
  // Checked by arithmetic: a Date per file was the costliest step of reading a name.
  if (!isRealInstant(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second))) return null;
  return { name, at: `${year}-${month}-${day}T${hour}:${minute}:${second}.${ms}Z`, seq: Number(seq) };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isRealInstant(year: number, month: number, day: number, hour: number, minute: number, second: number): boolean {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** Session order: time, then numeric sequence; the name breaks a tie (`-5` and `-05`). */
export function compareEntryNames(a: EntryName, b: EntryName): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  if (a.seq !== b.seq) return a.seq - b.seq;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
