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
  const at = `${year}-${month}-${day}T${hour}:${minute}:${second}.${ms}Z`;
  // A name that looks right but is no real instant (month 13, hour 25) is not the writer's.
  const date = new Date(at);
  if (Number.isNaN(date.getTime()) || date.toISOString() !== at) return null;
  return { name, at, seq: Number(seq) };
}

/** Session order: time, then numeric sequence; the name breaks a tie (`-5` and `-05`). */
export function compareEntryNames(a: EntryName, b: EntryName): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  if (a.seq !== b.seq) return a.seq - b.seq;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
