import { sep } from 'node:path';
import type { KnownFile, NamedFile } from '../../shared/record/knownFile.ts';
import type { SessionItem } from '../../shared/record/session.ts';
import { awaitLater } from '../../shared/awaitLater.ts';
import type { RecordReader } from './recordReader.ts';
import { isReadForItem, type ItemRead } from './projection.ts';
import type { ReadReply } from './readerThread.ts';
import type { ReaderThreads } from './readerThreads.ts';
import { MAX_ENTRY_BYTES } from './readRecordFile.ts';
import { readFilesIfIdle } from '../watch/readAhead.ts';
import type { FileRead } from '../watch/safeOpen.ts';
import { createSharedWork } from '../sources/sharedWork.ts';

/**
 * Entries larger than this are read and parsed on a reader thread rather than on the event loop:
 * a 60 MB entry is about a second of decoding, parsing and fingerprinting, during which nothing
 * else would be answered. Below it, a thread's round trip costs more than the read.
 */
export const READ_ASIDE_BYTES = 1024 * 1024;
/**
 * Entries larger than this are read in a lane of their own, and the thread that read one is
 * ended rather than kept: its heap grew by several times the entry, and ending it is the sure
 * way to give that memory back. Starting the next one costs ~100 ms, little beside such a read.
 */
const HUGE_BYTES = 16 * 1024 * 1024;

/** A read for an item; read whole on a thread, the entry (or raw value) comes as its JSON. */
type AsideItemRead = ItemRead & { valueJson: Uint8Array | null; sourceJson: Uint8Array | null };

/**
 * A page with at least this many small files reads the second half of them on a reader thread,
 * if one is free, while the event loop reads the first: their opens, fstats, reads and closes were
 * most of a page's time on the loop. Below it, the thread's round trip costs more than it saves.
 */
const SHARE_FROM = 32;
/**
 * A page that finds no thread free starts one for the next page only if another page could have
 * shared within this long (the lane's threads are let go 2 s after their last work): a thread
 * costs ~50 ms of CPU to start and saves a page ~2 ms, so pages in a row (scrolling, a busy live
 * session) are worth one, a page every few seconds is not.
 */
const WARM_WITHIN_MS = 2_000;
/** When a page last had files to share, on the steady clock. */
let lastShareable = Number.NEGATIVE_INFINITY;

/**
 * Reads the files of a page's items, as a page shows them: small ones now, large ones on a
 * reader thread, clipped there to `textLimit`. Each file read now is a step of its own, taken
 * after `step` resolves (a turn of the event loop: server/sources/loopTurns.ts): a page of a
 * hundred files read in one go held the loop for ~18 ms, and a refusal that arrived meanwhile
 * waited for all of them. Of many small files, half may be read on a thread that is free now
 * (never waited for, started only for pages in a row), and concluded here from its reads as the
 * loop concludes from its own.
 */
export async function readItems(source: RecordReader, threads: ReaderThreads, sessionId: string, items: readonly SessionItem[], textLimit: number, signal: AbortSignal, step: () => Promise<void>): Promise<Map<string, ItemRead>> {
  const reads = new Map<string, ItemRead>();
  const aside: Promise<unknown>[] = [];
  const small: NamedFile[] = [];
  for (const item of items) {
    if (item.type !== 'file' || !isReadForItem(item.file.evidence)) continue;
    const name = item.file.name;
    if (item.file.size > READ_ASIDE_BYTES) {
      // A client gone away fails it while the small files are still read: awaited below, if reached.
      aside.push(awaitLater(readItemAside(source, threads, sessionId, item.file, textLimit, signal).then((read) => reads.set(name, read))));
    } else {
      small.push(item.file);
    }
  }
  // Each has an entry's name (a stray is an item of its own, stat'ed by the loop), so each is read whole.
  const shareable = small.length >= SHARE_FROM ? small.slice(small.length >> 1).map((file) => file.name) : [];
  const folder = `${source.recordDir}${sep}${sessionId}${sep}`;
  const shared = shareable.length === 0 ? null : readFilesIfIdle(threads.files, shareable.map((name) => folder + name), { root: source.recordDir, maxBytes: MAX_ENTRY_BYTES }, signal);
  if (shareable.length > 0) {
    const now = performance.now();
    if (shared === null && now - lastShareable < WARM_WITHIN_MS) threads.files.warm();
    lastShareable = now;
  }
  const onThread = new Set(shared === null ? [] : shareable);
  // It may fail (its client went away) while the loop reads the first half: awaited below, if reached.
  if (shared !== null) awaitLater(shared);
  for (const { name } of small) {
    if (onThread.has(name)) continue;
    await step();
    signal.throwIfAborted();
    reads.set(name, source.readNow(sessionId, name));
  }
  if (shared !== null) {
    let done: FileRead[] | null;
    try {
      done = await shared;
    } catch (error) {
      if (signal.aborted) throw error;
      // A thread that could not read them leaves them to the loop: it costs time, never a file.
      done = null;
    }
    for (const [at, name] of shareable.entries()) {
      await step();
      signal.throwIfAborted();
      reads.set(name, done === null ? source.readNow(sessionId, name) : source.readDone(sessionId, name, done[at]!));
    }
  }
  await Promise.all(aside);
  return reads;
}

/**
 * Reads one file on a reader thread, and records what it found as a read now would. `file` is
 * what the index holds of it: its size as last seen picks the lane, and the fingerprint of an
 * entry that parsed lets a page's read take the head of its text when the bytes are the same.
 */
export async function readItemAside(source: RecordReader, threads: ReaderThreads, sessionId: string, file: Pick<KnownFile, 'name' | 'size' | 'evidence' | 'fingerprint'>, textLimit: number | null, signal: AbortSignal): Promise<AsideItemRead> {
  const { name } = file;
  // Both names come from the index, which took them from a folder listing.
  const path = `${source.recordDir}${sep}${sessionId}${sep}${name}`;
  const lane = file.size > HUGE_BYTES ? threads.readHuge : threads.read;
  const parsed = file.evidence === 'parsed' ? file.fingerprint : null;
  let found;
  try {
    found = await shareRead(threads, `${textLimit}:${parsed}:${path}`, signal, (shared) =>
      lane.use(shared, async (ask, retire) => {
        const reply = await ask({ type: 'read', path, name, textLimit, parsed });
        // It may have grown since the index saw it.
        if ('size' in reply.seen && (reply.seen.size ?? 0) > HUGE_BYTES) retire();
        return reply;
      }),
    );
  } catch (error) {
    if (signal.aborted) throw error;
    // A thread that could not read it leaves the read to the event loop: it costs time, never the entry.
    return { ...source.readNow(sessionId, name), valueJson: null, sourceJson: null };
  }
  const state = source.recordLook(sessionId, name, found);
  return { state, reading: found.reading, ...(textLimit === null ? {} : { clipped: found.clipped }), asWritten: true, valueJson: found.valueJson, sourceJson: found.sourceJson };
}

const sharedReads = new WeakMap<ReaderThreads, ReturnType<typeof createSharedWork<ReadReply>>>();

/** One read for every request that wants the same file the same way at the same time. */
function shareRead(threads: ReaderThreads, key: string, signal: AbortSignal, read: (signal: AbortSignal) => Promise<ReadReply>): Promise<ReadReply> {
  let share = sharedReads.get(threads);
  if (share === undefined) sharedReads.set(threads, (share = createSharedWork<ReadReply>()));
  return share(key, signal, read);
}

/**
 * The JSON of `value` with each placeholder's JSON in its place, as its bytes: a large entry's
 * JSON and text, made on a reader thread, go out as they are, never turned into a string here. A
 * placeholder is any JSON value that appears once in `value`'s JSON.
 */
export function spliceJson(value: unknown, parts: ReadonlyArray<readonly [placeholder: unknown, json: Uint8Array]>): Uint8Array[] {
  let rest = JSON.stringify(value);
  const chunks: Uint8Array[] = [];
  const placed = parts
    .map(([placeholder, json]) => ({ marker: JSON.stringify(placeholder), json }))
    .sort((a, b) => rest.indexOf(a.marker) - rest.indexOf(b.marker));
  for (const { marker, json } of placed) {
    const at = rest.indexOf(marker);
    chunks.push(Buffer.from(rest.slice(0, at)), json);
    rest = rest.slice(at + marker.length);
  }
  chunks.push(Buffer.from(rest));
  return chunks;
}
