import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
// What sac's `send` appends is the core's account of it, so the demo writes what the reader reads.
import { composeAppendedEntry, type AppendedEntry } from '../../shared/sac/appendedEntry.ts';

// How set-agent-comm writes its store (sac-channels-format), kept as a library so the demo and the
// tests write a store the way sac's own CLI does: `send` appends one entry to the writer's own
// seat file in one write (`\n` unless the file is empty, the header and `\n`, the trimmed body
// with every line that would read as a header pushed one space right, and `\n`); the JSON files
// are written whole to `<file>.tmp.<pid>` and renamed into place.


export type SacEntry = AppendedEntry;

/** The bytes one `send` appends to a seat file that holds `existing` bytes. */
export function sacEntryBytes(existing: number, entry: SacEntry): Buffer {
  return Buffer.from(composeAppendedEntry(existing, entry), 'utf8');
}

/** sac's time: local time with its offset, to the millisecond (`2026-11-30T17:18:53.482+00:00`). */
export function sacTime(date: Date = new Date()): string {
  const pad = (n: number, width = 2) => String(Math.trunc(Math.abs(n))).padStart(width, '0');
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}` +
    `${sign}${pad(offset / 60)}:${pad(offset % 60)}`
  );
}

export type AppendOptions = {
  /** Write the entry in pieces of this many bytes, `pieceDelayMs` apart: a reader may see it half-written. */
  pieceBytes?: number | undefined;
  pieceDelayMs?: number | undefined;
  /** Write only this many bytes of the entry and stop, as a writer killed mid-write leaves it. */
  stopAfterBytes?: number | undefined;
};

/** Appends one entry to `channels/<room>/<seat>.md` under `root`, as sac's `send` does. */
export async function appendSacEntry(root: string, room: string, seat: string, entry: SacEntry, options: AppendOptions = {}): Promise<string> {
  const folder = path.join(root, 'channels', room);
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `${seat}.md`);
  const handle = await open(file, 'a');
  try {
    const { size } = await handle.stat();
    const bytes = sacEntryBytes(size, entry);
    const end = options.stopAfterBytes === undefined ? bytes.length : Math.min(bytes.length, options.stopAfterBytes);
    const piece = options.pieceBytes ?? end;
    for (let at = 0; at < end; at += piece) {
      if (at > 0 && options.pieceDelayMs !== undefined) await sleep(options.pieceDelayMs);
      await handle.write(bytes.subarray(at, Math.min(end, at + piece)));
    }
  } finally {
    await handle.close();
  }
  return file;
}

/** Writes a store JSON file as sac's `writeJson` does: whole, to a temporary, renamed into place. */
export async function writeSacJson(root: string, name: string, value: unknown): Promise<void> {
  await mkdir(root, { recursive: true });
  const file = path.join(root, name);
  const temporary = `${file}.tmp.${process.pid}`;
  await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`);
  await rename(temporary, file);
}

/** Creates a seat's file in a room without writing to it, as `sac join` does: 0 bytes. */
export async function joinSacRoom(root: string, room: string, seat: string): Promise<void> {
  const folder = path.join(root, 'channels', room);
  await mkdir(folder, { recursive: true });
  const handle = await open(path.join(folder, `${seat}.md`), 'a');
  await handle.close();
}

/** Reads a store JSON file as sac's `readJson` does: a file that is missing or does not parse is empty. */
async function readSacJson(root: string, name: string): Promise<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(await readFile(path.join(root, name), 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** sac's `focus "<text>" --files a,b [--phase p]`: the seat's record in focus.json, replaced whole. */
export async function declareSacFocus(root: string, seat: string, focus: { text: string; files?: readonly string[] | undefined; phase?: string | undefined; ts: string }): Promise<void> {
  const all = await readSacJson(root, 'focus.json');
  all[seat] = { text: focus.text, files: [...(focus.files ?? [])], ...(focus.phase !== undefined ? { phase: focus.phase } : {}), ts: focus.ts };
  await writeSacJson(root, 'focus.json', all);
}

/** sac's `quiet [--for 2h]`: the seat declared quiet in presence.json from `since`, until `until` or until it says otherwise. */
export async function declareSacQuiet(root: string, seat: string, quiet: { since: string; until?: string | undefined }): Promise<void> {
  const all = await readSacJson(root, 'presence.json');
  all[seat] = { quiet: true, since: quiet.since, ...(quiet.until !== undefined ? { until: quiet.until } : {}) };
  await writeSacJson(root, 'presence.json', all);
}
