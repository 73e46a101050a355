// An entry's file name is `<UTC time to the millisecond, without colons>-<sequence>.json`
// (record-spec: entryFile). The name is the only order the record gives: entries are ordered by
// (time, numeric sequence), never by the name as a string, because `-10` sorts before `-9`.

/**
 * A sequence number, exact at any length: a number while it is a safe integer, a bigint beyond.
 * A value has one form only, so `===` and `<` compare any two exactly (`<` compares a number
 * with a bigint by value). The spec sets no bound, and a writer may zero-pad to any width.
 */
export type Seq = number | bigint;

export type EntryName = {
  /** The file name as found on disk. */
  name: string;
  /** The time written in the name, as ISO 8601 with colons: `2026-11-20T09:00:01.005Z`. */
  at: string;
  /** The sequence number; the writer may or may not zero-pad it. */
  seq: Seq;
};

/**
 * `<yyyy>-<mm>-<dd>T<hh><mm><ss>.<mmm>Z-<digits>.json`: where each fixed character stands, and
 * where each run of digits before the sequence begins and ends. Read character by character
 * rather than by a regular expression: a scan reads a hundred thousand names, and a match made
 * nine strings and an array of each (entryName.test.ts holds the two readings to each other).
 */
const FIXED: readonly (readonly [number, number])[] = [
  [4, 0x2d], // -
  [7, 0x2d], // -
  [10, 0x54], // T
  [17, 0x2e], // .
  [21, 0x5a], // Z
  [22, 0x2d], // -
];
const DIGITS: readonly (readonly [number, number])[] = [
  [0, 4],
  [5, 7],
  [8, 10],
  [11, 13],
  [13, 15],
  [15, 17],
  [18, 21],
];
/** The characters before the sequence number, and after it. */
const SEQ_FROM = 23;
const SUFFIX = '.json';

/**
 * Reads an entry's time and sequence from its file name, or returns null when the name is not an
 * entry's: such a file is a stray, listed but never parsed as evidence of a message.
 */
export function parseEntryName(name: string): EntryName | null {
  const seqTo = name.length - SUFFIX.length;
  if (seqTo <= SEQ_FROM || !name.endsWith(SUFFIX)) return null;
  for (const [at, code] of FIXED) if (name.charCodeAt(at) !== code) return null;
  for (const [from, to] of DIGITS) if (!isDigits(name, from, to)) return null;
  if (!isDigits(name, SEQ_FROM, seqTo)) return null;
  // A name that looks right but is no real instant (month 13, hour 25) is not the writer's.
  // Checked by arithmetic: a Date per file was the costliest step of reading a name.
  const readAt = (from: number, to: number) => readDigits(name, from, to);
  if (!isRealInstant(readAt(0, 4), readAt(5, 7), readAt(8, 10), readAt(11, 13), readAt(13, 15), readAt(15, 17))) return null;
  return { name, at: `${name.slice(0, 13)}:${name.slice(13, 15)}:${name.slice(15, 22)}`, seq: readSeq(name.slice(SEQ_FROM, seqTo)) };
}

/** Whether the characters from `from` to `to` are all ASCII digits. */
function isDigits(name: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) {
    const code = name.charCodeAt(at);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/** The value of a few ASCII digits. */
function readDigits(name: string, from: number, to: number): number {
  let value = 0;
  for (let at = from; at < to; at++) value = value * 10 + name.charCodeAt(at) - 0x30;
  return value;
}

/** Decimal digits, leading zeros and all, as a sequence number. */
function readSeq(digits: string): Seq {
  // Fifteen digits are always a safe integer: the writer's numbers, read without a BigInt.
  if (digits.length <= 15) return Number(digits);
  return seqOf(BigInt(digits));
}

/** The one form of a value: a number while it is safe. */
function seqOf(value: bigint): Seq {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
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
  if (a.seq !== b.seq) return a.seq < b.seq ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The sequence numbers skipped between two entries, as an inclusive range and how many there
 * are; null when `next` follows `previous` or goes back. All arithmetic on sequence numbers is
 * here, and it is exact: between 12345678901234567890 and …892 one number is missing, not none.
 */
export function missingBetween(previous: Seq, next: Seq): { from: Seq; to: Seq; count: Seq } | null {
  if (typeof previous === 'number' && typeof next === 'number') {
    if (next <= previous + 1) return null;
    return { from: previous + 1, to: next - 1, count: next - previous - 1 };
  }
  const a = BigInt(previous);
  const b = BigInt(next);
  if (b <= a + 1n) return null;
  return { from: seqOf(a + 1n), to: seqOf(b - 1n), count: seqOf(b - a - 1n) };
}

/** How many numbers an inclusive range holds, exactly. */
export function countRange(range: { from: Seq; to: Seq }): Seq {
  return typeof range.from === 'number' && typeof range.to === 'number' ? range.to - range.from + 1 : seqOf(BigInt(range.to) - BigInt(range.from) + 1n);
}

/** The sum of two counts, exactly. */
export function addSeq(a: Seq, b: Seq): Seq {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a + b)) return a + b;
  return seqOf(BigInt(a) + BigInt(b));
}
