import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { EvidenceState } from '../../shared/evidence.ts';
import { PAGE_TEXT_LIMIT_BYTES, pageStart } from '../../shared/wire/common.ts';
import { fileResponseSchema, type FileResponse, type recordPageQuerySchema, type SessionResponse } from '../../shared/wire/record.ts';
import type { LoopTurns } from '../sources/loopTurns.ts';
import { JsonBytes, NotHere, type Answer, type FirstLine } from '../sources/source.ts';
import { firstLineOf } from '../../shared/firstLine.ts';
import type { RecordReader } from './recordReader.ts';
import { projectItem, type ItemRead } from './projection.ts';
import type { ReaderThreads } from './readerThreads.ts';
import { READ_ASIDE_BYTES, readItemAside, readItems, spliceJson } from './readItems.ts';
import type { SummaryCache } from './summaryCache.ts';
import { filterItems, filterOf } from './sessionFilter.ts';

/**
 * A record session's pages and files (`rec.session/2`, `rec.file/2`). Session ids and file names
 * from the URL are looked up in the index and never joined into a path: only names the reader
 * found on disk reach the file system.
 */
export function createRecordPages(source: RecordReader, summaryOf: SummaryCache, threads: ReaderThreads, turns: LoopTurns) {
  const step = () => turns.take('answer');
  async function page(sessionId: string, query: z.output<typeof recordPageQuerySchema>, signal: AbortSignal): Promise<Answer<SessionResponse>> {
    const fold = source.fold(sessionId);
    if (fold === null) return new NotHere('no such session in this record');
    // Offsets and the total count in the filtered order, so a filtered session pages as any other.
    const inOrder = filterItems(fold, filterOf(query));
    const { limit, around } = query;
    let offset = pageStart(query, inOrder.length);
    if (around !== undefined) {
      const at = inOrder.findIndex((item) => item.type !== 'gap' && item.file.name === around);
      if (at === -1) {
        const hidden = inOrder !== fold.items && fold.items.some((item) => item.type !== 'gap' && item.file.name === around);
        return new NotHere(hidden ? 'the filter leaves this file out' : 'no such file in this session');
      }
      offset = Math.max(0, at - Math.floor(limit / 2));
    }
    const onPage = inOrder.slice(offset, offset + limit);
    const reads = await readItems(source, threads, fold.sessionId, onPage, PAGE_TEXT_LIMIT_BYTES, signal, step);
    const items = onPage.map((item) => projectItem(item, source.ref, (name) => reads.get(name)!, PAGE_TEXT_LIMIT_BYTES));
    // Reading the page may have found a file changed or gone since the fold; the summary is
    // taken afterwards so that it agrees with the items.
    const current = source.fold(fold.sessionId) ?? fold;
    return {
      schema: 'rec.session/2',
      session: summaryOf(current).summary,
      runs: current.runs,
      page: { offset, limit, total: inOrder.length },
      items,
    };
  }

  async function item(sessionId: string, file: string, signal: AbortSignal): Promise<Answer<FileResponse | JsonBytes>> {
    const fold = source.fold(sessionId);
    const found = fold?.items.find((candidate) => candidate.type !== 'gap' && candidate.file.name === file);
    if (fold == null || found === undefined) return new NotHere('no such file in this session');
    if (found.type !== 'file' || found.file.size <= READ_ASIDE_BYTES) {
      const wire = projectItem(found, source.ref, (name) => source.readNow(fold.sessionId, name), null);
      if (wire.type !== 'file') return new NotHere('a stray file is listed, never read');
      return { schema: 'rec.file/2', source: source.ref, sessionId: fold.sessionId, item: wire };
    }
    const read = await readItemAside(source, threads, fold.sessionId, found.file, null, signal);
    // The entry and the file's text came as their JSON: the answer is made around placeholders,
    // then each JSON put in its place.
    const parts: [unknown, Uint8Array][] = [];
    const valuePlaceholder = { [`rec-entry-${randomUUID()}`]: true };
    const sourcePlaceholder = `rec-source-${randomUUID()}`;
    let reading = read.reading;
    if (reading !== null && reading.outcome !== 'unparsed') {
      if (read.valueJson !== null) {
        reading = { ...reading, value: valuePlaceholder };
        parts.push([valuePlaceholder, read.valueJson]);
      }
      if (read.sourceJson !== null) {
        reading = { ...reading, source: sourcePlaceholder };
        parts.push([sourcePlaceholder, read.sourceJson]);
      }
    }
    const wire = projectItem(found, source.ref, () => ({ state: read.state, reading, asWritten: true }), null);
    const answer: FileResponse = { schema: 'rec.file/2', source: source.ref, sessionId: fold.sessionId, item: wire as FileResponse['item'] };
    if (parts.length === 0) return answer;
    // Sent as bytes, past the route's serializer: checked here, with its placeholders, instead.
    return new JsonBytes(spliceJson(fileResponseSchema.parse(answer), parts));
  }

  /** Each named file's first line, read as a page reads it (a large one on a thread, as far as a page's limit). */
  async function firstLines(sessionId: string, names: readonly string[], signal: AbortSignal): Promise<Map<string, FirstLine>> {
    const lines = new Map<string, FirstLine>();
    const fold = source.fold(sessionId);
    const wanted = new Set(names);
    const found = fold === null ? [] : fold.items.filter((candidate) => candidate.type !== 'gap' && wanted.has(candidate.file.name));
    const reads = fold === null ? new Map<string, ItemRead>() : await readItems(source, threads, fold.sessionId, found, PAGE_TEXT_LIMIT_BYTES, signal, step);
    const evidence = new Map(found.flatMap((candidate) => (candidate.type === 'gap' ? [] : [[candidate.file.name, candidate.file.evidence] as const])));
    for (const name of names) {
      const state = evidence.get(name);
      lines.set(name, state === undefined ? { none: 'no such file in this session now' } : firstLineOfRead(state, reads.get(name)));
    }
    return lines;
  }

  return { page, item, firstLines };
}

/** A file's first line as a page shows its text, or why it shows none, in the record's words. */
function firstLineOfRead(evidence: EvidenceState, read: ItemRead | undefined): FirstLine {
  if (read === undefined) return { none: `not read: the file is ${evidence}` };
  const reading = read.reading;
  if (reading === null) return { none: 'the file could not be read now' };
  if (reading.outcome !== 'entry') return { none: `the file is not an entry now: ${reading.why}` };
  if (reading.facts.kind !== 'message') return { none: 'not a message' };
  if (reading.facts.withheld) return { none: 'its text was withheld: the record keeps its length and hash' };
  const text = reading.value['text'];
  return typeof text === 'string' ? { line: firstLineOf(text) } : { none: 'no text' };
}
