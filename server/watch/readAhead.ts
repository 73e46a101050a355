import { awaitLater } from '../../shared/awaitLater.ts';
import { createLane, threadScript, type Lane } from '../search/threadLane.ts';
import type { FileReadAt, ReadFilesReply, ReadFilesRequest } from './readFilesThread.ts';
import { readWhole, type FileIdentity, type FileRead, type OpenRules } from './safeOpen.ts';

// Many small files read whole, in order, on a thread a batch ahead of the one the event loop is
// taking (readFilesThread.ts): an export of 100,000 entries spent most of its loop time in the
// opens, fstats, reads and closes of its files, a step the loop could not cut, and now spends it
// escaping and sending while the next batch is read beside it.

/** Files a batch, and bytes: a batch read ahead is held in memory until it is taken. */
const BATCH_FILES = 64;
const BATCH_BYTES = 1024 * 1024;
/**
 * Batches asked for before the one being taken is done: with one, the thread waited while the
 * loop took a batch, and the loop waited while the thread read the next (each was idle a third
 * of an export). With more, the lane's threads read them side by side and the next is ready.
 */
const BATCHES_AHEAD = 2;

export type FileReadLane = Lane<ReadFilesRequest, ReadFilesReply>;

/**
 * A file read on a thread that made it a JSON text there (readFilesThread.ts, `asJson`): `json` is
 * a JSON string value, quotes included (server/watch/jsonText.ts: the bytes escaped, or their
 * base64 when they are not UTF-8), and `fingerprint` the kind's of the bytes.
 */
export type JsonTextRead = { type: 'json'; json: Buffer; base64: boolean; fingerprint: number; size: number; mtimeMs: number; identity: FileIdentity };

/** A file read ahead: as readWhole gives it, or made a JSON text on the thread. */
export type AheadRead = FileRead | JsonTextRead;

/** Threads that read files ahead, as many as exports run at once; each lets its memory go when idle. */
export function createFileReadLane(threads: number): FileReadLane {
  return createLane<ReadFilesRequest, ReadFilesReply>({ script: threadScript('readFilesThread', import.meta.url), threads, maxWaiting: Number.POSITIVE_INFINITY, idleMs: 2_000 });
}

/**
 * Each file of `files` read whole under `rules` (the one safe open: readWhole), in order, as
 * readWhole on the loop would give it, a batch at a time (a file a step cost an await each); a
 * batch is read on a thread while the one before it is taken. A batch the thread could not read is
 * read on the loop instead: it costs time, never a file. `size` is what the reader last knew of a
 * file: it only cuts the batches. With `asJson`, a file read on the thread comes as a JsonTextRead
 * (one read on the loop still as its bytes).
 */
export async function* readFilesAhead(
  lane: FileReadLane,
  files: Iterable<{ path: string; size: number }>,
  rules: Pick<OpenRules, 'root' | 'maxBytes'>,
  signal: AbortSignal,
  asJson?: ReadFilesRequest['asJson'],
): AsyncGenerator<AheadRead[]> {
  const next = files[Symbol.iterator]();
  const takeBatch = (): string[] => {
    const paths: string[] = [];
    let bytes = 0;
    while (paths.length < BATCH_FILES && bytes < BATCH_BYTES) {
      const file = next.next();
      if (file.done === true) break;
      paths.push(file.value.path);
      bytes += file.value.size;
    }
    return paths;
  };
  const readBatch = (paths: string[]): Promise<AheadRead[]> | null => {
    if (paths.length === 0) return null;
    return lane.use(signal, (ask) => ask({ type: 'read-files', paths, rules, ...(asJson === undefined ? {} : { asJson }) })).then(
      (reply) => reply.reads.map((read) => ('at' in read ? withBytes(read, reply.buffer) : read)),
      (error: unknown) => {
        if (signal.aborted) throw error;
        return paths.map((path) => readWhole(path, rules));
      },
    );
  };
  const pending: Promise<AheadRead[]>[] = [];
  const askAhead = () => {
    while (pending.length < BATCHES_AHEAD) {
      const batch = readBatch(takeBatch());
      if (batch === null) return;
      // A batch read ahead fails when the client goes away, often while the one before it is being sent.
      pending.push(awaitLater(batch));
    }
  };
  try {
    askAhead();
    while (pending.length > 0) {
      const reads = await pending.shift()!;
      askAhead();
      yield reads;
    }
  } finally {
    // Taken no further (the client went away): the batches read ahead are let go, their failures with them.
    pending.length = 0;
  }
}

/**
 * Each of `paths` read whole under `rules` on a thread of the lane that is free now, as readWhole
 * gives them, in order; null at once when none is (the caller reads them itself; `lane.warm()`
 * starts a thread for later).
 */
export function readFilesIfIdle(lane: FileReadLane, paths: string[], rules: Pick<OpenRules, 'root' | 'maxBytes'>, signal: AbortSignal): Promise<FileRead[]> | null {
  const reading = lane.useIdle(signal, (ask) => ask({ type: 'read-files', paths, rules }));
  if (reading === null) return null;
  return reading.then((reply) => reply.reads.map((read) => ('at' in read ? bytesOf(read, reply.buffer) : read)));
}

/** A read whose bytes (or JSON text) the thread placed in the reply's buffer, with them a view of it. */
function withBytes(read: Extract<FileReadAt, { at: number }>, buffer: ArrayBuffer): AheadRead {
  if (read.json === undefined) return bytesOf(read, buffer);
  return { type: 'json', json: Buffer.from(buffer, read.at, read.length), base64: read.json.base64, fingerprint: read.json.fingerprint, size: read.size, mtimeMs: read.mtimeMs, identity: read.identity };
}

/** A read the thread placed in the reply's buffer as its bytes, with them a view of it. */
function bytesOf(read: Extract<FileReadAt, { at: number }>, buffer: ArrayBuffer): FileRead {
  return { type: 'bytes', bytes: Buffer.from(buffer, read.at, read.length), size: read.size, mtimeMs: read.mtimeMs, identity: read.identity };
}
