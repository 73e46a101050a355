import { createHash } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// How the plugin writes one entry, kept as a library so tests and the demo write the record the
// way a real session does: one file per entry, written once, in pieces, never renamed into place
// (rule.oneWriter). A reader must cope with what this produces, half-written files included.

type WriteEntryOptions = {
  /** The sequence number of this entry in the current mod load (it restarts at each start entry). */
  seq: number;
  /** The time in the file name; defaults to the entry's `at`, else now (record-spec: entryFile). */
  at?: Date | string | undefined;
  /** Bytes per write; by default the whole entry goes in one write. */
  chunkBytes?: number | undefined;
  /** Pause between chunks, so a concurrent reader can see the file half-written. */
  chunkDelayMs?: number | undefined;
  /**
   * Write this many bytes and never finish: the file stays cut short, as when a writer is killed
   * mid-write. The returned promise then settles only if `signal` aborts.
   */
  stallAfterBytes?: number | undefined;
  /** Called once the stalled bytes are written; other processes see them from that moment. */
  onStalled?: (file: string) => void;
  /** Lets a stalled write go: its file is closed as it stands, still cut short. */
  signal?: AbortSignal;
  trailingNewline?: boolean | undefined;
};

/** `2026-11-20T090001.005Z-7.json`: UTC to the millisecond with the colons removed, then the sequence. */
export function entryFileName(at: Date | string, seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`seq must be a non-negative integer, got ${seq}`);
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a time: ${String(at)}`);
  return `${date.toISOString().replaceAll(':', '')}-${seq}.json`;
}

/**
 * Writes one entry into `<recordDir>/<sessionId>/` and returns the file's path. The file is opened
 * with `wx`, so an existing file is never rewritten (rule.oneWriter), and written in place: a
 * reader may see it half-written, which is the record's documented behaviour, not a bug here.
 */
export async function writeEntryFile(
  recordDir: string,
  sessionId: string,
  entry: object,
  options: WriteEntryOptions,
): Promise<string> {
  assertSegment(sessionId);
  const folder = path.join(recordDir, sessionId);
  const file = path.join(folder, entryFileName(chooseNameTime(entry, options.at), options.seq));
  const bytes = Buffer.from(JSON.stringify(entry) + (options.trailingNewline ? '\n' : ''), 'utf8');
  await mkdir(folder, { recursive: true });
  const handle = await open(file, 'wx');
  const end = options.stallAfterBytes === undefined ? bytes.length : Math.min(options.stallAfterBytes, bytes.length);
  try {
    await writeChunks(handle, bytes.subarray(0, end), options.chunkBytes ?? bytes.length, options.chunkDelayMs ?? 0);
  } catch (error) {
    await handle.close();
    throw error;
  }
  if (options.stallAfterBytes !== undefined) {
    options.onStalled?.(file);
    await waitForAbort(options.signal);
    await handle.close();
    throw new Error(`stalled write of ${file} let go after ${end} of ${bytes.length} bytes`);
  }
  await handle.close();
  return file;
}

/** The text, or in metadata mode its UTF-8 length and SHA-256 in place of it (rule.metadataOnly). */
export function textFields(
  text: string,
  mode: 'text' | 'metadata',
): { text: string } | { textLength: number; textHash: string } {
  if (mode === 'text') return { text };
  const bytes = Buffer.from(text, 'utf8');
  return { textLength: bytes.length, textHash: `sha256:${createHash('sha256').update(bytes).digest('hex')}` };
}

function chooseNameTime(entry: object, at: Date | string | undefined): Date | string {
  if (at !== undefined) return at;
  const entryAt = (entry as { at?: unknown }).at;
  return typeof entryAt === 'string' ? entryAt : new Date();
}

/** A session writes only inside its own folder (rule.oneWriter), so its id must be one path segment. */
function assertSegment(sessionId: string): void {
  if (sessionId === '' || sessionId === '.' || sessionId === '..' || /[/\\\0]/.test(sessionId)) {
    throw new Error(`session id is not a single folder name: ${JSON.stringify(sessionId)}`);
  }
}

async function writeChunks(handle: FileHandle, bytes: Buffer, chunkBytes: number, delayMs: number): Promise<void> {
  const step = Math.max(1, Math.floor(chunkBytes));
  for (let offset = 0; offset < bytes.length; ) {
    if (offset > 0 && delayMs > 0) await sleep(delayMs);
    const chunk = bytes.subarray(offset, Math.min(offset + step, bytes.length));
    // Each chunk is its own write(2); once it returns, other processes read those bytes.
    let written = 0;
    while (written < chunk.length) written += (await handle.write(chunk, written)).bytesWritten;
    offset += chunk.length;
  }
}

/** Without a signal this never settles, on purpose: the writer is meant to be killed. */
function waitForAbort(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
