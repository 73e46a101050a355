import { parentPort } from 'node:worker_threads';
import type { EntryReading } from '../../shared/record/entry.ts';
import { valueAsWritten } from '../../shared/jsonText.ts';
import { readEntry } from '../../shared/record/entry.ts';
import { parseEntryName } from '../../shared/record/entryName.ts';
import type { Observation } from '../../shared/record/observation.ts';
import { createReadScratch } from '../watch/safeOpen.ts';
import { clipLargeEntry } from './clipLargeEntry.ts';
import { fingerprintEntry } from './entryFingerprint.ts';
import { lookAtFile, lookAtRead } from './lookAtFile.ts';
import { readRecordFile } from './readRecordFile.ts';
import { clipEntry, type Clipping } from './projection.ts';

// A reader thread: what the HTTP app would otherwise do on its event loop for one request while
// every other request waited. It reads and parses large entries for a page or the file endpoint
// (a search's reads are the search pool's: server/search/). It reads, and never writes.

/**
 * One file, for a page (entry clipped to `textLimit`) or whole (`textLimit` null). `parsed` is
 * the fingerprint the index took of the file's bytes when they last read as an entry, if they
 * did: the same bytes are clipped for a page from the head of their text (clipLargeEntry.ts).
 */
export type ReadRequest = { type: 'read'; path: string; name: string; textLimit: number | null; parsed: number | null };
/**
 * What one look at the file found, as the watcher concludes from it. Read whole, the value
 * comes as its JSON in `valueJson` (moved, not copied, to the main thread), not in `reading`.
 */
export type ReadReply = {
  type: 'read';
  seen: Observation;
  mtimeMs: number | null;
  reading: EntryReading | null;
  clipped: Clipping | null;
  valueJson: Uint8Array | null;
  /** Read whole: the file's text as a JSON string, moved like `valueJson`. */
  sourceJson: Uint8Array | null;
};
type ThreadReply = ReadReply | { type: 'failed'; message: string };

/**
 * The thread's one buffer for its reads (up to 8 MiB; a larger entry gets a buffer of its own):
 * a page with a 2 MB entry took a fresh buffer of it each time, 0.8 ms of its 5 ms here, and the
 * thread's collector stopped it for ~8 ms every few dozen pages. A reply holds no view of it.
 */
let scratch: Buffer | null = null;

export function readAside(request: ReadRequest): ReadReply {
  scratch ??= createReadScratch();
  const entryName = parseEntryName(request.name);
  if (request.textLimit !== null && request.parsed !== null && entryName !== null) return readForPage(request.path, request.textLimit, request.parsed, scratch);
  return readLook(request.textLimit, lookAtFile(request.path, entryName, readEntry, scratch));
}

/**
 * A large entry for a page: when its bytes are still those the index read as an entry, clipped
 * from the head of its text; otherwise (changed since, or a form clipLargeEntry leaves to the
 * whole read) concluded from the same read as any look.
 */
function readForPage(path: string, textLimit: number, parsed: number, scratch: Buffer): ReadReply {
  const read = readRecordFile(path, scratch);
  if (read.type === 'bytes') {
    const fingerprint = fingerprintEntry(read.bytes);
    const page = fingerprint === parsed ? clipLargeEntry(read.bytes, textLimit) : null;
    if (page !== null) {
      const { reading, entry, clipping } = page;
      const seen: Observation = { type: 'entry', facts: reading.facts, fingerprint, size: read.bytes.length, changedAt: read.mtimeMs };
      return { type: 'read', seen, mtimeMs: read.mtimeMs, reading: { ...reading, value: entry, source: '' }, clipped: clipping, valueJson: null, sourceJson: null };
    }
  }
  return readLook(textLimit, lookAtRead(read, readEntry));
}

/** What the thread sends back of one look at the file. */
function readLook(textLimit: number | null, look: ReturnType<typeof lookAtRead>): ReadReply {
  let reading = look.reading;
  let clipped: Clipping | null = null;
  let valueJson: Uint8Array | null = null;
  let sourceJson: Uint8Array | null = null;
  if (reading === null || reading.outcome === 'unparsed') return { type: 'read', seen: look.seen, mtimeMs: look.mtimeMs, reading, clipped, valueJson, sourceJson };
  const value = reading.value === undefined || reading.source === undefined ? reading.value : valueAsWritten(reading.value, reading.source);
  if (reading.outcome === 'entry' && textLimit !== null) {
    const size = look.seen.type === 'entry' ? look.seen.size : 0;
    const forPage = clipEntry(value as Record<string, unknown>, size, textLimit);
    // A page never carries the text of a file this large (see projectItem): it is not sent across.
    reading = { ...reading, value: forPage.entry, source: '' };
    clipped = forPage.clipping;
  } else if (textLimit === null) {
    // Copying a long string to another thread costs the receiver as much as serializing it;
    // bytes move for free, and the main thread puts them into its answer as they are.
    const encoder = new TextEncoder();
    if (value !== undefined) valueJson = encoder.encode(JSON.stringify(value));
    if (reading.source !== undefined) sourceJson = encoder.encode(JSON.stringify(reading.source));
    reading = reading.outcome === 'entry' ? { ...reading, value: {}, source: '' } : { outcome: 'invalid', why: reading.why };
  } else if (reading.outcome === 'invalid') {
    // A page says a large invalid file is left out (rawClipped): its value is not sent across.
    reading = { outcome: 'invalid', why: reading.why };
  }
  return { type: 'read', seen: look.seen, mtimeMs: look.mtimeMs, reading, clipped, valueJson, sourceJson };
}

// Run as the thread: started by readerThreads.ts, one request at a time.
if (parentPort !== null) {
  const port = parentPort;
  port.on('message', (request: ReadRequest) => {
    try {
      const reply = readAside(request);
      const moved = [reply.valueJson, reply.sourceJson].filter((bytes) => bytes !== null).map((bytes) => bytes.buffer as ArrayBuffer);
      port.postMessage(reply, moved);
    } catch (error) {
      port.postMessage({ type: 'failed', message: (error as Error).message } satisfies ThreadReply);
    }
  });
  port.postMessage({ type: 'ready' });
}
