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
import { READ_ASIDE_BYTES, readItemAside, readItems } from './readItems.ts';
import { fingerprintEntry, readRecordFile } from './readRecordFile.ts';
import type { ReaderThreads } from './readerThreads.ts';
import type { RecordReader } from './recordReader.ts';
import { describeItemMarkdown, describeSessionMarkdown } from './recordMarkdown.ts';
import type { SummaryCache } from './summaryCache.ts';

/** The NDJSON export's first line names its shape, as every answer of the API does. */
export const RECORD_EXPORT_SCHEMA = 'rec.session-export/1';
/** Items projected at a time for the JSON and Markdown exports: a page's worth. */
const BATCH_ITEMS = 200;

/** A file as the export read it: what the reader now knows of it, and its bytes when it could be read. */
type ExportRead = { state: KnownFile; bytes: Buffer | null; reading: EntryReading | null };

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
  function readForExport(sessionId: string, file: NamedFile, needReading: boolean): ExportRead {
    const read = readRecordFile(`${reader.recordDir}${sep}${sessionId}${sep}${file.name}`);
    const bytes = read.type === 'bytes' ? read.bytes : null;
    const settled = file.evidence === 'parsed' || file.evidence === 'invalid';
    if (bytes !== null && settled && file.fingerprint !== null && fingerprintEntry(bytes) === file.fingerprint) {
      return { state: file, bytes, reading: needReading ? readEntry(bytes) : null };
    }
    const look = lookAtRead(read);
    const state = reader.recordLook(sessionId, file.name, { seen: look.seen, mtimeMs: look.mtimeMs }) ?? file;
    return { state, bytes, reading: look.reading };
  }

  async function* ndjsonParts(fold: SessionFold, items: readonly SessionItem[], signal: AbortSignal): AsyncGenerator<string | Uint8Array> {
    const sessionId = fold.sessionId;
    yield JSON.stringify({ type: 'session', schema: RECORD_EXPORT_SCHEMA, source: ref, sessionId, session: summaryOf(fold).summary, items: items.length }) + '\n';
    for (const item of items) {
      signal.throwIfAborted();
      if (item.type === 'gap') {
        yield JSON.stringify({ type: 'gap', source: ref, sessionId, run: item.run, from: seqToWire(item.missing.from), to: seqToWire(item.missing.to), after: item.missing.after, before: item.missing.before }) + '\n';
        continue;
      }
      if (item.type === 'stray') {
        // Listed, never read.
        yield JSON.stringify({ type: 'stray', source: ref, sessionId, file: item.file.name, evidence: 'stray', size: item.file.size, fileText: null }) + '\n';
        continue;
      }
      if (item.file.size > READ_ASIDE_BYTES) {
        // Decoding and escaping a large text is done on a reader thread, as for a page.
        const aside = await readItemAside(reader, threads, sessionId, item.file, null, signal);
        if (aside.state !== undefined && aside.sourceJson !== null) {
          yield describeFileLine(sessionId, item.file, item.run, aside.state) + ',"fileText":';
          yield aside.sourceJson;
          yield '}\n';
          continue;
        }
      }
      const read = readForExport(sessionId, item.file, false);
      yield describeFileLine(sessionId, item.file, item.run, read.state) + fileTextFields(read.bytes) + '}\n';
    }
  }

  /** A file item's line, without its text and its closing brace. */
  function describeFileLine(sessionId: string, file: NamedFile, run: number | null, state: KnownFile): string {
    const line = JSON.stringify({
      type: 'file',
      source: ref,
      sessionId,
      file: file.name,
      at: file.entryName.at,
      seq: seqToWire(file.entryName.seq),
      run,
      evidence: state.evidence,
      why: state.why,
      size: state.size,
      kind: state.facts?.kind ?? null,
      side: state.facts?.kind === 'message' ? state.facts.side : null,
    });
    return line.slice(0, -1);
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

/** A file's bytes in a line: as text when they are UTF-8 (byte for byte, a byte-order mark kept), else as base64. */
function fileTextFields(bytes: Buffer | null): string {
  if (bytes === null) return ',"fileText":null';
  if (isUtf8(bytes)) return ',"fileText":' + JSON.stringify(bytes.toString('utf8'));
  return ',"fileText":null,"fileBase64":' + JSON.stringify(bytes.toString('base64'));
}
