import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import type { ExportFormat } from './source.ts';

// An export is sent as it is made: a session of 100,000 entries is hundreds of megabytes, so it is
// never built in memory. Its parts are pulled from the kind's generator only as fast as the client
// takes them (a stream's backpressure), and the generator is stopped when the client goes away.

const MEDIA_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  json: 'application/json; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

/** Parts are gathered to about this size: one write per entry of 200 bytes costs more than the bytes. */
const CHUNK_BYTES = 64 * 1024;
/** Making parts runs on the event loop: after this long, other requests and notices get their turn. */
const TURN_MS = 10;

/**
 * A file name that any browser and file system takes as it is: letters, digits, `.`, `_` and
 * `-`. A session id comes from a folder name, which may hold anything a header must not.
 */
export function exportFileName(parts: readonly string[], format: ExportFormat): string {
  const base = parts
    .map((part) => part.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, ''))
    .filter((part) => part !== '')
    .join('-')
    .slice(0, 120);
  return `${base === '' ? 'export' : base}.${format}`;
}

/**
 * Sends an export as a download. `parts` makes its text piece by piece; it is asked for more
 * only when the client has taken what was sent, and `signal` aborts when the client goes away
 * (the generator is also ended at its next piece). A failure midway ends the response without
 * its last chunk, so that no client takes a cut export for a whole one.
 */
export function sendExport(
  reply: FastifyReply,
  options: { name: readonly string[]; format: ExportFormat; parts: (signal: AbortSignal) => AsyncIterable<string | Uint8Array> },
): FastifyReply {
  const stop = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableEnded) stop.abort(new Error('the client went away'));
  };
  reply.raw.once('close', onClose);
  const body = Readable.from(gatherParts(options.parts(stop.signal), stop.signal), { objectMode: false });
  body.once('close', () => reply.raw.off('close', onClose));
  body.on('error', (error) => {
    if (!stop.signal.aborted) reply.log.error({ err: error }, 'export failed midway');
  });
  return reply
    .type(MEDIA_TYPES[options.format])
    .header('content-disposition', `attachment; filename="${exportFileName(options.name, options.format)}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

const activity = { running: 0, finished: 0, stopped: 0 };

/** Exports being sent, sent whole, and stopped before their end (their client went away, or a read failed). */
export function describeExportActivity(): { running: number; finished: number; stopped: number } {
  return { ...activity };
}

/** A part may be bytes already (a large entry's text, encoded on a reader thread): it goes as it is. */
async function* gatherParts(parts: AsyncIterable<string | Uint8Array>, signal: AbortSignal): AsyncGenerator<Buffer> {
  activity.running++;
  let finished = false;
  try {
    yield* gatherAll(parts, signal);
    finished = true;
  } finally {
    activity.running--;
    if (finished) activity.finished++;
    else activity.stopped++;
  }
}

async function* gatherAll(parts: AsyncIterable<string | Uint8Array>, signal: AbortSignal): AsyncGenerator<Buffer> {
  let gathered: string[] = [];
  let length = 0;
  let turnStarted = performance.now();
  for await (const part of parts) {
    signal.throwIfAborted();
    if (typeof part !== 'string') {
      if (length > 0) yield Buffer.from(gathered.join(''), 'utf8');
      gathered = [];
      length = 0;
      yield Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    } else {
      gathered.push(part);
      length += part.length;
      if (length < CHUNK_BYTES) continue;
      yield Buffer.from(gathered.join(''), 'utf8');
      gathered = [];
      length = 0;
    }
    if (performance.now() - turnStarted > TURN_MS) {
      await nextTurn();
      turnStarted = performance.now();
    }
  }
  if (length > 0) yield Buffer.from(gathered.join(''), 'utf8');
}
