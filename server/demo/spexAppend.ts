import { closeSync, mkdirSync, openSync, readdirSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

// Writes a spex home as spex's own writer does (spex-timeline-format: Layout, Lines): each event is
// one JSON object and a `\n`, appended with one O_APPEND write, to the highest numbered segment
// (12 digits) of the session's `timeline/`; once that segment has reached the byte bound, the next
// number is begun and the old file is never touched again. session.json is written whole and
// renamed into place. Used by the demo and by the test writer, so both write what spex writes.

/** spex's bound: 4 MiB. The demo and tests roll at much smaller bounds. */
const SPEX_SEGMENT_BOUND = 4 * 1024 * 1024;

export type AppendOptions = {
  /** Roll to the next segment once the current one has this many bytes. */
  bound?: number;
  /** Append to the legacy `timeline.ndjson` while the session has no numbered segment yet. */
  legacy?: boolean;
};

/** The folder of a session in a spex home. */
export function spexSessionFolder(home: string, projectFolder: string, sessionId: string): string {
  return join(home, 'projects', projectFolder, 'sessions', sessionId);
}

/** Appends `bytes` in one O_APPEND write to the segment spex would write to; returns its name. */
export function appendToTimeline(sessionFolder: string, bytes: Uint8Array, options: AppendOptions = {}): string {
  const name = currentSegment(sessionFolder, options);
  const fd = openSync(join(sessionFolder, name), 'a');
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
  return name;
}

/** One event as spex writes it: its JSON and a newline, in one write. */
export function appendEvent(sessionFolder: string, event: Record<string, unknown>, options: AppendOptions = {}): string {
  return appendToTimeline(sessionFolder, Buffer.from(`${JSON.stringify(event)}\n`), options);
}

/** Writes session.json whole and renames it into place, as spex does. */
export function writeSessionJson(sessionFolder: string, value: Record<string, unknown>): void {
  mkdirSync(sessionFolder, { recursive: true });
  const temporary = join(sessionFolder, `.session.json.${process.pid}.tmp`);
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, Buffer.from(`${JSON.stringify(value, null, 2)}\n`));
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, join(sessionFolder, 'session.json'));
}

function currentSegment(sessionFolder: string, options: AppendOptions): string {
  const bound = options.bound ?? SPEX_SEGMENT_BOUND;
  const timeline = join(sessionFolder, 'timeline');
  let numbers: number[] = [];
  try {
    numbers = readdirSync(timeline)
      .map((name) => /^(\d{12})\.ndjson$/.exec(name)?.[1])
      .filter((digits) => digits !== undefined)
      .map(Number);
  } catch {
    numbers = [];
  }
  if (numbers.length === 0) {
    mkdirSync(sessionFolder, { recursive: true });
    if (options.legacy === true) return 'timeline.ndjson';
    mkdirSync(timeline, { recursive: true });
    return segmentName(1);
  }
  const highest = Math.max(...numbers);
  const size = statSync(join(timeline, segmentName(highest).slice('timeline/'.length))).size;
  return size >= bound ? segmentName(highest + 1) : segmentName(highest);
}

function segmentName(number: number): string {
  return `timeline/${String(number).padStart(12, '0')}.ndjson`;
}
