import { isUtf8 } from 'node:buffer';
import { sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_TEXT_LIMIT_BYTES, seqToWire, sessionItemSchema, type SessionItemWire } from '../../shared/api.ts';
import { readEntry, type EntryReading } from '../../shared/record/entry.ts';
import type { KnownFile, NamedFile } from '../../shared/record/knownFile.ts';
import type { SessionFold, SessionItem } from '../../shared/record/session.ts';
import { sendExport } from '../sources/exportStream.ts';
import type { ExportFormat } from '../sources/source.ts';
import { lookAtRead } from './lookAtFile.ts';
import { projectItem } from './projection.ts';
import { readItemAside, readItems } from './readItems.ts';
import { fingerprintEntry, readRecordFile } from './readRecordFile.ts';
import type { ReaderThreads } from './readerThreads.ts';
import type { RecordReader } from './recordReader.ts';
import { describeItemMarkdown, describeSessionMarkdown } from './recordMarkdown.ts';
import type { SummaryCache } from './summaryCache.ts';

/** The NDJSON export's first line names its shape, as every answer of the API does. */
const RECORD_EXPORT_SCHEMA = 'rec.session-export/1';
/** Items projected at a time for the JSON and Markdown exports: a page's worth. */
const BATCH_ITEMS = 200;

/** A file as the export read it: what the reader now knows of it, and its bytes when it could be read. */
type ExportRead = { state: KnownFile; bytes: Buffer | null; reading: EntryReading | null };
/**
 * Files up to this size are read into one buffer that an export keeps for all of them, and
 * escaped into their line on the event loop (a few milliseconds a megabyte, with no parsing).
 * Larger ones are read on a reader thread, as for a page: a thread costs its own heap, which a
 * session with a few entries of 1–2 MB made RSS grow by.
 */
const SCRATCH_BYTES = 4 * 1024 * 1024;

/**
 * A record session exported whole (`GET /api/sessions/:id/export`), as of when the export began:
 * its items are those of the fold then, each file read from disk as the export reaches it.
 *
 * - `ndjson`: a first line with the session's summary, then one line per item: its position
 *   (file name, time, sequence number, run), its evidence as the reader knows it now, and the
 *   file's text exactly as on disk (`fileText`; `fileBase64` for bytes that are not UTF-8).
 * - `json`: `rec.session/2` with every item, as the pages of the session give them.
 * - `md`: a transcript (server/record/recordMarkdown.ts).
 */
export function createRecordExport(reader: RecordReader, summaryOf: SummaryCache, threads: ReaderThreads) {
  const ref = reader.ref;

  /**
   * Reads one file for the export. A file whose bytes are those the reader fingerprinted is as
   * the reader knows it, and is not parsed again (that is most of an export's time); any other is
   * looked at afresh, so that the evidence sent with the bytes is the evidence of those bytes.
   */
  function readForExport(sessionId: string, file: NamedFile, needReading: boolean, scratch?: Buffer): ExportRead {
    const read = readRecordFile(`${reader.recordDir}${sep}${sessionId}${sep}${file.name}`, scratch);
    const bytes = read.type === 'bytes' ? read.bytes : null;
    const settled = file.evidence === 'parsed' || file.evidence === 'invalid';
    if (bytes !== null && settled && file.fingerprint !== null && fingerprintEntry(bytes) === file.fingerprint) {
      return { state: file, bytes, reading: needReading ? readEntry(bytes) : null };
    }
    const look = lookAtRead(read, readEntry);
    const state = reader.recordLook(sessionId, file.name, { seen: look.seen, mtimeMs: look.mtimeMs }) ?? file;
    return { state, bytes, reading: look.reading };
  }

  async function* ndjsonParts(fold: SessionFold, items: readonly SessionItem[], signal: AbortSignal): AsyncGenerator<string | Uint8Array> {
    const sessionId = fold.sessionId;
    // Lines are written as bytes into chunks: a file's bytes go into its line escaped as they
    // are, never decoded into a string and encoded again (that was most of an export's time and
    // garbage).
    const out = createChunkWriter();
    const sessionIdJson = JSON.stringify(sessionId);
    const scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
    out.writeText(JSON.stringify({ type: 'session', schema: RECORD_EXPORT_SCHEMA, source: ref, sessionId, session: summaryOf(fold).summary, items: items.length }) + '\n');
    for (const item of items) {
      signal.throwIfAborted();
      if (item.type === 'gap') {
        out.writeText(JSON.stringify({ type: 'gap', source: ref, sessionId, run: item.run, from: seqToWire(item.missing.from), to: seqToWire(item.missing.to), after: item.missing.after, before: item.missing.before }) + '\n');
      } else if (item.type === 'stray') {
        // Listed, never read.
        out.writeText(JSON.stringify({ type: 'stray', source: ref, sessionId, file: item.file.name, evidence: 'stray', size: item.file.size, fileText: null }) + '\n');
      } else {
        let done = false;
        if (item.file.size > SCRATCH_BYTES) {
          // A large text is decoded and escaped on a reader thread, as for a page.
          const aside = await readItemAside(reader, threads, sessionId, item.file, null, signal);
          if (aside.state !== undefined && aside.sourceJson !== null) {
            writeFileLine(out, sessionIdJson, item.file, item.run, aside.state);
            out.writeText(',"fileText":');
            yield* out.take();
            yield aside.sourceJson;
            out.writeText('}\n');
            done = true;
          }
        }
        if (!done) {
          // The bytes are in `scratch` until the next read: they are written into the line at once.
          const read = readForExport(sessionId, item.file, false, scratch);
          writeFileLine(out, sessionIdJson, item.file, item.run, read.state);
          if (read.bytes === null) out.writeText(',"fileText":null');
          else if (isUtf8(read.bytes)) {
            out.writeText(',"fileText":');
            out.writeJsonString(read.bytes);
          } else out.writeText(',"fileText":null,"fileBase64":' + JSON.stringify(read.bytes.toString('base64')));
          out.writeText('}\n');
        }
      }
      if (out.isFull()) yield* out.take();
    }
    yield* out.take();
  }

  const refJson = JSON.stringify(ref);
  /**
   * Writes a file item's line, without its text and its closing brace. Piece by piece, with no
   * string made per file: an entry's name and time are from the name's strict pattern (digits,
   * `T`, `Z`, `-`, `.json`), and the rest are words and numbers; only a reason is escaped.
   */
  function writeFileLine(out: ChunkWriter, sessionIdJson: string, file: NamedFile, run: number | null, state: KnownFile): void {
    out.writeText('{"type":"file","source":');
    out.writeText(refJson);
    out.writeText(',"sessionId":');
    out.writeText(sessionIdJson);
    out.writeText(',"file":"');
    out.writeText(file.name);
    out.writeText('","at":"');
    out.writeText(file.entryName.at);
    out.writeText('","seq":');
    out.writeText(JSON.stringify(seqToWire(file.entryName.seq)));
    out.writeText(',"run":');
    out.writeText(run === null ? 'null' : String(run));
    out.writeText(',"evidence":"');
    out.writeText(state.evidence);
    out.writeText('","why":');
    out.writeText(state.why === null ? 'null' : JSON.stringify(state.why));
    out.writeText(',"size":');
    out.writeText(String(state.size));
    const kind = state.facts?.kind ?? null;
    out.writeText(kind === null ? ',"kind":null' : kind === 'message' ? ',"kind":"message"' : kind === 'start' ? ',"kind":"start"' : kind === 'chain' ? ',"kind":"chain"' : ',"kind":"unknown"');
    out.writeText(state.facts?.kind !== 'message' ? ',"side":null' : state.facts.side === 'sent' ? ',"side":"sent"' : ',"side":"received"');
  }

  async function* jsonParts(fold: SessionFold, items: readonly SessionItem[], signal: AbortSignal): AsyncGenerator<string> {
    // The session's summary comes last, taken once every file has been read, so that it agrees
    // with the items (as a page's does); JSON does not order an object's members.
    yield `{"schema":"rec.session/2","page":${JSON.stringify({ offset: 0, limit: items.length, total: items.length })},"items":[`;
    for (let offset = 0; offset < items.length; offset += BATCH_ITEMS) {
      signal.throwIfAborted();
      const batch = items.slice(offset, offset + BATCH_ITEMS);
      const reads = await readItems(reader, threads, fold.sessionId, batch, PAGE_TEXT_LIMIT_BYTES, signal);
      const parts = batch.map((item) => JSON.stringify(sessionItemSchema.parse(projectItem(item, ref, (name) => reads.get(name)!, PAGE_TEXT_LIMIT_BYTES))));
      yield (offset === 0 ? '' : ',') + parts.join(',');
    }
    const current = reader.fold(fold.sessionId) ?? fold;
    yield `],"session":${summaryOf(current).json},"runs":${JSON.stringify(current.runs)}}`;
  }

  async function* markdownParts(fold: SessionFold, items: readonly SessionItem[], signal: AbortSignal): AsyncGenerator<string> {
    yield describeSessionMarkdown(summaryOf(fold).summary, fold.degraded, new Date().toISOString());
    for (const item of items) {
      signal.throwIfAborted();
      let wire: SessionItemWire;
      if (item.type === 'file') {
        const read = readForExport(fold.sessionId, item.file, true);
        const state = read.state.entryName === null ? item.file : read.state;
        wire = projectItem({ ...item, file: state as NamedFile }, ref, () => ({ state, reading: read.reading }), null);
        // Only what is shown raw in place is shown as the file's text (as on a page).
        if (wire.type === 'file' && !(wire.evidence === 'invalid' || wire.facts?.kind === 'unknown')) delete wire.fileText;
      } else {
        wire = projectItem(item, ref, () => ({ state: undefined, reading: null }), null);
      }
      yield describeItemMarkdown(wire);
    }
  }

  async function answerExport(id: string, format: ExportFormat, _request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const fold = reader.fold(id);
    if (fold === null) return reply.code(404).send({ error: 'not-found', message: 'no such session in this record' });
    // The fold's list is shared with the index and changes with the session: the export keeps
    // the items of the moment it began.
    const items = fold.items.slice();
    const parts = format === 'ndjson' ? ndjsonParts : format === 'json' ? jsonParts : markdownParts;
    return sendExport(reply, { name: ['record', fold.sessionId], format, parts: (signal) => parts(fold, items, signal) });
  }

  return { answerExport };
}

/** About what a chunk of the answer holds before it is sent. */
const CHUNK_BYTES = 256 * 1024;
/** How a byte below 0x20 is written in a JSON string. */
const CONTROL_ESCAPES = Array.from({ length: 0x20 }, (_, byte) => Buffer.from(JSON.stringify(String.fromCharCode(byte)).slice(1, -1), 'latin1'));

type ChunkWriter = ReturnType<typeof createChunkWriter>;

/** Bytes of an answer, gathered into chunks. */
function createChunkWriter() {
  let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let at = 0;
  const taken: Buffer[] = [];
  const reserve = (bytes: number) => {
    if (at + bytes <= buffer.length) return;
    if (at > 0) taken.push(buffer.subarray(0, at));
    buffer = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes));
    at = 0;
  };
  return {
    writeText(text: string): void {
      if (text.length === 0) return;
      reserve(text.length * 3);
      at += buffer.write(text, at, 'utf8');
    },
    /**
     * `bytes`, UTF-8, as a JSON string: the same bytes, with `"`, `\\` and those below 0x20
     * escaped. Read back, the string's UTF-8 is `bytes` exactly.
     */
    writeJsonString(bytes: Uint8Array): void {
      reserve(bytes.length * 6 + 2);
      buffer[at++] = 0x22;
      let from = 0;
      for (let i = 0; i < bytes.length; i++) {
        const byte = bytes[i]!;
        if (byte >= 0x20 && byte !== 0x22 && byte !== 0x5c) continue;
        if (i > from) {
          buffer.set(bytes.subarray(from, i), at);
          at += i - from;
        }
        if (byte < 0x20) {
          const escape = CONTROL_ESCAPES[byte]!;
          buffer.set(escape, at);
          at += escape.length;
        } else {
          buffer[at++] = 0x5c;
          buffer[at++] = byte;
        }
        from = i + 1;
      }
      if (bytes.length > from) {
        buffer.set(bytes.subarray(from), at);
        at += bytes.length - from;
      }
      buffer[at++] = 0x22;
    },
    isFull: () => at >= CHUNK_BYTES / 2 || taken.length > 0,
    /** The chunks written so far, to be sent. */
    *take(): Generator<Buffer> {
      if (at > 0) taken.push(buffer.subarray(0, at));
      buffer = buffer.subarray(at);
      at = 0;
      if (buffer.length < CHUNK_BYTES / 4) buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      yield* taken.splice(0);
    },
  };
}
