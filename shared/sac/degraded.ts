import { seatFilePath } from './layout.ts';
import { listDegradedRanges, type SeatFileReading } from './seatFile.ts';
import { STORE_FILE_OF, type StoreFacts } from './storeFiles.ts';

// Reasons a view of the channels is incomplete, each with a stable code and what it rests on.
// Like the record's (shared/record/degraded.ts), a reason is evidence that something is unknown,
// never a verdict that nothing was said. A pending write is not a reason: it is being written.

export const DEGRADED_CODES = [
  /** Writes cut short: a header with no body, a tail never ended, a write the next one went on after. */
  'torn-entry',
  /** Seat files that shrank, or whose bytes already read changed: sac only appends. */
  'changed-after-read',
  /** Store JSON files that do not parse, or are not sac's shape. */
  'corrupt-store-file',
  /** Records of store JSON files that are not as sac writes them. */
  'invalid-store-record',
  /** Files the reader could not read. */
  'unreadable',
  /** Seat files the reader would not read: the same file as a secret, or a name that is not UTF-8. */
  'withheld',
  /** Text before the first header of a seat file. */
  'stray-text',
] as const;

export type DegradedCode = (typeof DEGRADED_CODES)[number];

/** A stretch of a file a reason rests on (byte offsets, end exclusive). */
type FileRange = { file: string; start: number; end: number };

export type DegradedReason = {
  code: DegradedCode;
  /** The files it rests on, relative to the sac root (`channels/team/web-app#3f9c1a20.md`, `registry.json`). */
  files: string[];
  /** For torn-entry and stray-text: where in those files. */
  ranges?: FileRange[];
  /** For withheld: why, once for each reason given. */
  whys?: string[];
};

type Collected = Map<DegradedCode, { files: string[]; ranges: FileRange[]; whys: string[] }>;

function note(collected: Collected, code: DegradedCode, file: string, range?: { start: number; end: number }, why?: string): void {
  let entry = collected.get(code);
  if (entry === undefined) collected.set(code, (entry = { files: [], ranges: [], whys: [] }));
  if (!entry.files.includes(file)) entry.files.push(file);
  if (why !== undefined && !entry.whys.includes(why)) entry.whys.push(why);
  if (range === undefined) return;
  // A header with no body and the unterminated line after it are one write: one range.
  const last = entry.ranges.at(-1);
  if (last !== undefined && last.file === file && last.end === range.start) last.end = range.end;
  else entry.ranges.push({ file, start: range.start, end: range.end });
}

/** The reasons seat files and store files give, in the order of DEGRADED_CODES. */
export function collectDegraded(readings: Iterable<SeatFileReading>, store: Partial<StoreFacts> = {}): DegradedReason[] {
  const collected: Collected = new Map();
  for (const reading of readings) {
    const file = seatFilePath(reading.room, reading.seat);
    for (const range of listDegradedRanges(reading)) note(collected, range.code, file, range);
    if (reading.problem !== null) note(collected, reading.problem.code, file, undefined, reading.problem.code === 'withheld' ? reading.problem.why : undefined);
  }
  noteStoreFiles(collected, store);
  return listReasons(collected);
}

/**
 * The reasons of several rooms' files (each as collectDegraded gave them) and of the store files,
 * as collectDegraded gives them for all those files at once: a file is in one room only, so a
 * code's files and ranges are the rooms' one after the other.
 */
export function mergeDegraded(rooms: readonly (readonly DegradedReason[])[], store: Partial<StoreFacts> = {}): DegradedReason[] {
  const collected: Collected = new Map();
  for (const reasons of rooms) {
    for (const reason of reasons) {
      let entry = collected.get(reason.code);
      if (entry === undefined) collected.set(reason.code, (entry = { files: [], ranges: [], whys: [] }));
      entry.files.push(...reason.files);
      if (reason.ranges !== undefined) entry.ranges.push(...reason.ranges.map((range) => ({ ...range })));
      for (const why of reason.whys ?? []) if (!entry.whys.includes(why)) entry.whys.push(why);
    }
  }
  noteStoreFiles(collected, store);
  return listReasons(collected);
}

/** Codes that rest on stretches shown in place in the flow, each in the file of the seat that wrote it. */
const IN_PLACE_CODES: ReadonlySet<DegradedCode> = new Set(['torn-entry', 'stray-text']);

/**
 * The reasons a seat's view carries, of those of its rooms: a torn write or stray text degrades
 * the seat whose file holds it (another seat receives it in place, as the evidence it is); a file
 * changed, unreadable or withheld leaves unknown what every seat received from it, and stays.
 * `own` are the seat's files, relative to the sac root.
 */
export function selectSeatReasons(reasons: readonly DegradedReason[], own: ReadonlySet<string>): DegradedReason[] {
  const kept: DegradedReason[] = [];
  for (const reason of reasons) {
    if (!IN_PLACE_CODES.has(reason.code)) {
      kept.push(reason);
      continue;
    }
    const files = reason.files.filter((file) => own.has(file));
    if (files.length === 0) continue;
    const ranges = reason.ranges?.filter((range) => own.has(range.file));
    kept.push(ranges === undefined ? { code: reason.code, files } : { code: reason.code, files, ranges });
  }
  return kept;
}

function noteStoreFiles(collected: Collected, store: Partial<StoreFacts>): void {
  for (const key of Object.keys(STORE_FILE_OF) as (keyof StoreFacts)[]) {
    const reading = store[key];
    if (reading === undefined) continue;
    const file = STORE_FILE_OF[key];
    if (reading.state === 'unknown') note(collected, reading.cause === 'corrupt' ? 'corrupt-store-file' : 'unreadable', file);
    else if (reading.state === 'read' && reading.invalid.length > 0) note(collected, 'invalid-store-record', file);
  }
}

function listReasons(collected: Collected): DegradedReason[] {
  const reasons: DegradedReason[] = [];
  for (const code of DEGRADED_CODES) {
    const entry = collected.get(code);
    if (entry === undefined) continue;
    if (code === 'withheld') reasons.push({ code, files: entry.files, whys: entry.whys });
    else reasons.push(entry.ranges.length > 0 ? { code, files: entry.files, ranges: entry.ranges } : { code, files: entry.files });
  }
  return reasons;
}

/** What a store file that cannot be read leaves unknown. */
const UNKNOWN_WITHOUT: Readonly<Record<string, string>> = {
  'registry.json': 'seats’ sessions, projects, rooms and liveness',
  'members.json': 'which rooms seats declared they are in',
  'rooms.json': 'which rooms are rooms of two',
  'focus.json': 'what seats said they are working on',
  'presence.json': 'which seats declared themselves quiet',
  'cursors.json': 'what sac’s cursors mark read',
};

/** The reason in plain words, for a banner. Never says that nothing was said. */
export function describeReason(reason: DegradedReason): string {
  const n = reason.files.length;
  const files = n === 1 ? 'file' : 'files';
  const names = reason.files.join(', ');
  const unknown = reason.files.map((file) => UNKNOWN_WITHOUT[file]).filter((what) => what !== undefined);
  const leaving = unknown.length > 0 ? ` ${unknown.join('; ')}: unknown` : '';
  switch (reason.code) {
    case 'torn-entry': {
      const count = reason.ranges?.length ?? n;
      const where = n === 1 ? names : `${n} seat files (${names})`;
      return `${count} torn ${count === 1 ? 'write' : 'writes'} in ${where}: ${count === 1 ? 'a write' : 'writes'} stopped part way, unknown evidence, not nothing. Whatever was being said there may be lost.`;
    }
    case 'changed-after-read':
      return `${n} seat ${files} changed after ${n === 1 ? 'it was' : 'they were'} read (shrank, or bytes already read are different). sac only appends, so something else rewrote ${n === 1 ? 'it' : 'them'}: what was read is kept, and nothing more is read from ${n === 1 ? 'it' : 'them'}.`;
    case 'corrupt-store-file':
      return `${names} ${n === 1 ? 'does' : 'do'} not parse as sac writes ${n === 1 ? 'it' : 'them'}: what ${n === 1 ? 'it holds' : 'they hold'} is unknown, not empty.${leaving}.`;
    case 'invalid-store-record':
      return `Some records of ${names} are not as sac writes them: those records are unknown, not absent.`;
    case 'unreadable':
      return `${n} ${files} could not be read (${names}): what ${n === 1 ? 'it holds' : 'they hold'} is unknown.${leaving === '' ? '' : `${leaving}.`}`;
    case 'withheld':
      return `${n} ${files} withheld, never read (${names}): ${(reason.whys ?? []).join('; ')}. What ${n === 1 ? 'it holds' : 'they hold'} is unknown, not nothing.`;
    case 'stray-text':
      return `${n} seat ${files} ${n === 1 ? 'holds' : 'hold'} text before ${n === 1 ? 'its' : 'their'} first header: not entries sac wrote; shown as written.`;
  }
}
