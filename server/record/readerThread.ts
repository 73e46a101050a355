import { parentPort } from 'node:worker_threads';
import type { EntryReading } from '../../shared/record/entry.ts';
import { valueAsWritten } from '../../shared/jsonText.ts';
import { readEntry } from '../../shared/record/entry.ts';
import { parseEntryName } from '../../shared/record/entryName.ts';
import type { Observation } from '../../shared/record/observation.ts';
import { createTextMatcher, snippetAround, type TextMatcher } from '../../shared/textMatch.ts';
import { lookAtFile } from './lookAtFile.ts';
import { readRecordFile } from './readRecordFile.ts';
import { clipEntry, type Clipping } from './projection.ts';

// A reader thread: what the HTTP app would otherwise do on its event loop for one request while
// every other request waited. It reads texts for a search and matches them, and it reads and
// parses large entries for a page or the file endpoint. It reads, and never writes.

export type TextQuery = { q: string; regex: boolean; matchCase: boolean };

/**
 * A slice of a search's candidates, newest first: read and match them until `wanted` hits. A
 * null path is a candidate that cannot match (a withheld text), skipped unread.
 */
export type SearchRequest = { type: 'search'; paths: (string | null)[]; query: TextQuery | null; wanted: number };
/** One file, for a page (entry clipped to `textLimit`) or whole (`textLimit` null). */
export type ReadRequest = { type: 'read'; path: string; name: string; textLimit: number | null };
export type ThreadRequest = SearchRequest | ReadRequest;

type ThreadHit = { index: number; snippet: string | null; match: { start: number; end: number } | null; reason: string | null };

/** `consumed`: candidates gone through, up to and including the last hit. */
export type SearchReply = { type: 'searched'; hits: ThreadHit[]; consumed: number; scanned: number };
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
export type ThreadReply = SearchReply | ReadReply | { type: 'failed'; message: string };

let matcherFor: { key: string; matcher: TextMatcher } | null = null;

function matcherOf(query: TextQuery): TextMatcher {
  const key = JSON.stringify(query);
  if (matcherFor?.key !== key) {
    const matcher = createTextMatcher(query.q, { regex: query.regex, matchCase: query.matchCase });
    if ('error' in matcher) throw new Error(matcher.error);
    matcherFor = { key, matcher };
  }
  return matcherFor.matcher;
}

/** The entry as on disk now, or null when it is not an entry now. */
function readFields(path: string): Extract<EntryReading, { outcome: 'entry' }> | null {
  const read = readRecordFile(path);
  if (read.type !== 'bytes') return null;
  const reading = readEntry(read.bytes);
  return reading.outcome === 'entry' ? reading : null;
}

function searchSlice(request: SearchRequest): SearchReply {
  const matcher = request.query === null ? null : matcherOf(request.query);
  const hits: ThreadHit[] = [];
  let scanned = 0;
  let consumed = 0;
  for (let index = 0; index < request.paths.length && hits.length < request.wanted; index++) {
    consumed = index + 1;
    const path = request.paths[index];
    if (path === null || path === undefined) continue;
    const reading = readFields(path);
    scanned++;
    const text = reading?.value['text'];
    let snippet: string | null = null;
    let match: { start: number; end: number } | null = null;
    if (typeof text === 'string') {
      const found = matcher === null ? null : matcher(text);
      if (matcher !== null && found === null) continue;
      ({ snippet, match } = snippetAround(text, found));
    } else if (matcher !== null) {
      continue;
    }
    hits.push({ index, snippet, match, reason: reading?.details?.reason ?? null });
  }
  return { type: 'searched', hits, consumed, scanned };
}

export function readAside(request: ReadRequest): ReadReply {
  const look = lookAtFile(request.path, parseEntryName(request.name), readEntry);
  let reading = look.reading;
  let clipped: Clipping | null = null;
  let valueJson: Uint8Array | null = null;
  let sourceJson: Uint8Array | null = null;
  if (reading === null || reading.outcome === 'unparsed') return { type: 'read', seen: look.seen, mtimeMs: look.mtimeMs, reading, clipped, valueJson, sourceJson };
  const value = reading.value === undefined || reading.source === undefined ? reading.value : valueAsWritten(reading.value, reading.source);
  if (reading.outcome === 'entry' && request.textLimit !== null) {
    const size = look.seen.type === 'entry' ? look.seen.size : 0;
    const forPage = clipEntry(value as Record<string, unknown>, size, request.textLimit);
    // A page never carries the text of a file this large (see projectItem): it is not sent across.
    reading = { ...reading, value: forPage.entry, source: '' };
    clipped = forPage.clipping;
  } else if (request.textLimit === null) {
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
  port.on('message', (request: ThreadRequest) => {
    try {
      const reply = request.type === 'search' ? searchSlice(request) : readAside(request);
      const moved = reply.type === 'read' ? [reply.valueJson, reply.sourceJson].filter((bytes) => bytes !== null).map((bytes) => bytes.buffer as ArrayBuffer) : [];
      port.postMessage(reply, moved);
    } catch (error) {
      port.postMessage({ type: 'failed', message: (error as Error).message } satisfies ThreadReply);
    }
  });
}
