import { sep } from 'node:path';
import { PAGE_TEXT_LIMIT_BYTES } from '../../shared/wire/common.ts';
import { seqToWire, type SessionItemWire } from '../../shared/wire/record.ts';
import { readEntry, type EntryReading } from '../../shared/record/entry.ts';
import type { KnownFile, NamedFile } from '../../shared/record/knownFile.ts';
import type { SessionFold, SessionItem } from '../../shared/record/session.ts';
import type { ConversationExport, ExportItem, ExportText, ItemPlace } from '../export/exportParts.ts';
import type { LoopTurns } from '../sources/loopTurns.ts';
import { NotHere, type Answer } from '../sources/source.ts';
import { readJsonText } from '../watch/jsonText.ts';
import { readFilesAhead, type AheadRead, type JsonTextRead } from '../watch/readAhead.ts';
import type { FileRead } from '../watch/safeOpen.ts';
import { lookAtRead } from './lookAtFile.ts';
import { projectItem } from './projection.ts';
import { readItemAside, readItems } from './readItems.ts';
import { fingerprintEntry } from './entryFingerprint.ts';
import { MAX_ENTRY_BYTES, readRecordFile } from './readRecordFile.ts';
import type { ReaderThreads } from './readerThreads.ts';
import type { RecordReader } from './recordReader.ts';
import { describeItemMarkdown, describeSessionMarkdown } from './recordMarkdown.ts';
import type { SummaryCache } from './summaryCache.ts';

/** The fingerprint the export's reading threads take of each file, by its module's place (the source's or the build's). */
const FINGERPRINT_BY = { module: new URL(`./entryFingerprint${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href, name: 'fingerprintEntry' };
/** The NDJSON export's first line names its shape, as every answer of the API does. */
const RECORD_EXPORT_SCHEMA = 'rec.session-export/1';
/** Items projected at a time for the JSON export: a page's worth. */
const BATCH_ITEMS = 200;

/** A file as the export read it: what the reader now knows of it, and its bytes when it could be read. */
type ExportRead = { state: KnownFile; bytes: Buffer | null; reading: EntryReading | null };
/**
 * Files up to this size are read on a thread a batch ahead of the export (server/watch/readAhead.ts),
 * fingerprinted and made their JSON text there, and copied into their line on the event loop.
 * Larger ones are read on a reader thread, as for a page: a thread costs its own heap, which a
 * session with a few entries of 1–2 MB made RSS grow by.
 */
const SCRATCH_BYTES = 4 * 1024 * 1024;

/**
 * A record session exported whole (server/export/pipeline.ts frames it), as of when the export
 * began: its items are those of the fold then, each file read from disk as the export reaches it.
 *
 * - `ndjson`: a first line with the session's summary, then one line per item: its position
 *   (file name, time, sequence number, run), its evidence as the reader knows it now, and the
 *   file's text exactly as on disk (`fileText`; `fileBase64` for bytes that are not UTF-8).
 * - `json`: `rec.session/2` with every item, as the pages of the session give them.
 * - `md`: a transcript (server/record/recordMarkdown.ts).
 */
export function createRecordExport(reader: RecordReader, summaryOf: SummaryCache, threads: ReaderThreads, turns: LoopTurns): (id: string) => Answer<ConversationExport> {
  const ref = reader.ref;

  /**
   * Reads one file for the export. A file whose bytes are those the reader fingerprinted is as
   * the reader knows it, and is not parsed again (that is most of an export's time); any other is
   * looked at afresh, so that the evidence sent with the bytes is the evidence of those bytes.
   */
  function readForExport(sessionId: string, file: NamedFile, needReading: boolean): ExportRead {
    return concludeRead(sessionId, file, readRecordFile(`${reader.recordDir}${sep}${sessionId}${sep}${file.name}`), needReading);
  }

  /** What the export sends of a file, from a read of it made here or on a thread (readFilesAhead). */
  function concludeRead(sessionId: string, file: NamedFile, read: FileRead, needReading: boolean): ExportRead {
    const bytes = read.type === 'bytes' ? read.bytes : null;
    if (bytes !== null && isAsKnown(file, fingerprintEntry(bytes))) return { state: file, bytes, reading: needReading ? readEntry(bytes) : null };
    return { ...lookAfresh(sessionId, file, read), bytes };
  }

  /** Looks at a file's bytes afresh: the reader learns what they are, and the export sends that. */
  function lookAfresh(sessionId: string, file: NamedFile, read: FileRead): { state: KnownFile; reading: EntryReading | null } {
    const look = lookAtRead(read, readEntry);
    return { state: reader.recordLook(sessionId, file.name, { seen: look.seen, mtimeMs: look.mtimeMs }) ?? file, reading: look.reading };
  }

  /**
   * What the export sends of a file read ahead: made a JSON text on the thread, whose fingerprint
   * is compared with the reader's, and when they differ looked at afresh from the bytes the text
   * was made of, so that the evidence sent is the evidence of the bytes sent whichever thread read them.
   */
  function concludeAhead(sessionId: string, file: NamedFile, read: AheadRead): { state: KnownFile; text: ExportText } {
    if (read.type !== 'json') {
      const concluded = concludeRead(sessionId, file, read, false);
      return { state: concluded.state, text: concluded.bytes === null ? null : { bytes: concluded.bytes } };
    }
    const text = { json: read.json, base64: read.base64 };
    if (isAsKnown(file, read.fingerprint)) return { state: file, text };
    return { state: lookAfresh(sessionId, file, bytesOf(read)).state, text };
  }

  const refJson = JSON.stringify(ref);
  /**
   * A file item's record: its place, its evidence as the reader knows it now, and its bytes as on
   * disk. Its fields are written in pieces, with no object made per file: an entry's name and
   * time are from the name's strict pattern (digits, `T`, `Z`, `-`, `.json`), the rest words and
   * numbers; only the session id and a reason are escaped.
   */
  function fileRecord(sessionIdJson: string, file: NamedFile, run: number | null, state: KnownFile, text: ExportText): ExportItem<'ndjson'> {
    const kind = state.facts?.kind ?? null;
    const kindJson = kind === null ? 'null' : kind === 'message' || kind === 'start' || kind === 'chain' ? `"${kind}"` : '"unknown"';
    const side = state.facts?.kind === 'message' ? `"${state.facts.side}"` : 'null';
    const fieldsJson =
      `{"type":"file","source":${refJson},"sessionId":${sessionIdJson},"file":"${file.name}","at":"${file.entryName.at}","seq":${JSON.stringify(seqToWire(file.entryName.seq))}` +
      `,"run":${run === null ? 'null' : run},"evidence":"${state.evidence}","why":${state.why === null ? 'null' : JSON.stringify(state.why)},"size":${state.size},"kind":${kindJson},"side":${side}}`;
    return { record: { fieldsJson, text: { name: 'fileText', base64Name: 'fileBase64', value: text } } };
  }

  async function* records(fold: SessionFold, items: readonly SessionItem[], signal: AbortSignal): AsyncGenerator<ExportItem<'ndjson'>> {
    const sessionId = fold.sessionId;
    const sessionIdJson = JSON.stringify(sessionId);
    const folder = `${reader.recordDir}${sep}${sessionId}${sep}`;
    // The files up to SCRATCH_BYTES, read on a thread a batch ahead, in the order they are sent.
    const small = (function* () {
      for (const item of items) if (item.type === 'file' && item.file.size <= SCRATCH_BYTES) yield { path: folder + item.file.name, size: item.file.size };
    })();
    const ahead = readFilesAhead(threads.files, small, { root: reader.recordDir, maxBytes: MAX_ENTRY_BYTES }, signal, { fingerprint: FINGERPRINT_BY });
    let batch: AheadRead[] = [];
    let taken = 0;
    try {
      for (const item of items) {
        signal.throwIfAborted();
        if (item.type === 'gap') {
          const { from, to, after, before } = item.missing;
          yield { record: { fields: { type: 'gap', source: ref, sessionId, run: item.run, from: seqToWire(from), to: seqToWire(to), after, before } } };
          continue;
        }
        if (item.type === 'stray') {
          // Listed, never read.
          yield { record: { fields: { type: 'stray', source: ref, sessionId, file: item.file.name, evidence: 'stray', size: item.file.size, fileText: null } } };
          continue;
        }
        if (item.file.size > SCRATCH_BYTES) {
          // A large text is decoded and escaped on a reader thread, as for a page.
          const aside = await readItemAside(reader, threads, sessionId, item.file, null, signal);
          if (aside.state !== undefined && aside.sourceJson !== null) {
            yield fileRecord(sessionIdJson, item.file, item.run, aside.state, { json: aside.sourceJson });
            continue;
          }
          const read = readForExport(sessionId, item.file, false);
          yield fileRecord(sessionIdJson, item.file, item.run, read.state, read.bytes === null ? null : { bytes: read.bytes });
          continue;
        }
        if (taken === batch.length) {
          const next = await ahead.next();
          if (next.done === true) throw new Error('the files read ahead ended before the export\'s items');
          batch = next.value;
          taken = 0;
        }
        const { state, text } = concludeAhead(sessionId, item.file, batch[taken++]!);
        yield fileRecord(sessionIdJson, item.file, item.run, state, text);
      }
    } finally {
      await ahead.return(undefined);
    }
  }

  /** A batch's files are read a file a step: in the exports' lane, or in the answers' for a session's page (`newest`). */
  async function* values(fold: SessionFold, items: readonly SessionItem[], signal: AbortSignal, lane: 'answer' | 'export'): AsyncGenerator<ExportItem<'json'>> {
    const step = () => turns.take(lane);
    for (let offset = 0; offset < items.length; offset += BATCH_ITEMS) {
      signal.throwIfAborted();
      const batch = items.slice(offset, offset + BATCH_ITEMS);
      const reads = await readItems(reader, threads, fold.sessionId, batch, PAGE_TEXT_LIMIT_BYTES, signal, step);
      for (const item of batch) {
        const value = projectItem(item, ref, (name) => reads.get(name)!, PAGE_TEXT_LIMIT_BYTES);
        yield { value, place: placeItem(value) };
      }
    }
  }

  async function* transcript(fold: SessionFold, items: readonly SessionItem[], signal: AbortSignal): AsyncGenerator<ExportItem<'md'>> {
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
      yield { markdown: describeItemMarkdown(wire) };
    }
  }

  return (id) => {
    const fold = reader.fold(id);
    if (fold === null) return new NotHere('no such session in this record');
    // The fold's list is shared with the index and changes with the session: the export keeps
    // the items of the moment it began.
    const items = fold.items.slice();
    const summary = summaryOf(fold).summary;
    return {
      name: ['record', fold.sessionId],
      ndjsonHead: { type: 'session', schema: RECORD_EXPORT_SCHEMA, source: ref, sessionId: fold.sessionId, session: summary, items: items.length },
      jsonHead: { schema: 'rec.session/2', page: { offset: 0, limit: items.length, total: items.length } },
      // The session's summary comes last, taken once every file has been read, so that it agrees
      // with the items (as a page's does); JSON does not order an object's members.
      jsonTail() {
        const current = reader.fold(fold.sessionId) ?? fold;
        return { session: summaryOf(current).summary, runs: current.runs };
      },
      markdownHead: (exportedAt) => describeSessionMarkdown(summary, fold.degraded, exportedAt),
      lists: [{ name: 'items' }],
      items: {
        ndjson: (signal) => records(fold, items, signal),
        json: (signal) => values(fold, items, signal, 'export'),
        md: (signal) => transcript(fold, items, signal),
      },
      // A session's order is its entries' (time, seq): the newest are its last.
      newest: (limit) => ({ total: items.length, json: (signal) => values(fold, items.slice(-limit), signal, 'answer') }),
    };
  };
}

/** A file's bytes as read, a text made on a thread gives them back (the same bytes exactly). */
function bytesOf(read: JsonTextRead): FileRead {
  return { type: 'bytes', bytes: readJsonText(read.json, read.base64), size: read.size, mtimeMs: read.mtimeMs, identity: read.identity };
}

/** Bytes with this fingerprint are those the reader settled on for the file: it knows them as they are. */
function isAsKnown(file: NamedFile, fingerprint: number): boolean {
  return (file.evidence === 'parsed' || file.evidence === 'invalid') && file.fingerprint !== null && fingerprint === file.fingerprint;
}

/** A file at the time in its name, on its side, with the peer the host named; a gap or a stray file in its place in the session. */
function placeItem(item: SessionItemWire): ItemPlace {
  if (item.type !== 'file') return { at: null, side: null, peer: null };
  const facts = item.facts?.kind === 'message' ? item.facts : null;
  return { at: item.at, side: item.side, peer: facts?.peer?.as ?? facts?.peer?.sessionId ?? null };
}
