import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  DEFAULT_PAGE_LIMIT,
  MAX_PAGE_LIMIT,
  PAGE_TEXT_LIMIT_BYTES,
  decimalQuerySchema,
  fileResponseSchema,
  sessionResponseSchema,
} from '../../shared/api.ts';
import { randomUUID } from 'node:crypto';
import type { RecordReader } from './recordReader.ts';
import { projectItem } from './projection.ts';
import type { ReaderThreads } from './readerThreads.ts';
import { READ_ASIDE_BYTES, readItemAside, readItems, spliceJson } from './readItems.ts';
import { stopWithClient } from '../http/stopWithClient.ts';
import type { SummaryCache } from './summaryCache.ts';
import { SESSION_FILTER_WORDS, filterItems, filterOf, sessionFilterQuery } from './sessionFilter.ts';

const sessionParams = z.object({ sessionId: z.string().min(1) });
const fileParams = z.object({ sessionId: z.string().min(1), file: z.string().min(1) });
const pageQuery = z.object({
  offset: decimalQuerySchema(0, Number.MAX_SAFE_INTEGER).default(0),
  limit: decimalQuerySchema(1, MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
  /** A file name: answer with the page that holds it, for a link to one entry. */
  around: z.string().min(1).optional(),
});

/**
 * A record session's pages and files (`rec.session/2`, `rec.file/2`). Session ids and file names
 * from the URL are looked up in the index and never joined into a path: only names the reader
 * found on disk reach the file system.
 */
export function createRecordPages(source: RecordReader, summaryOf: SummaryCache, threads: ReaderThreads) {
  async function answerSession(sessionId: string, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const params = sessionParams.safeParse({ sessionId });
    const query = pageQuery.safeParse(request.query);
    if (!params.success || !query.success) {
      return reply.code(400).send({ error: 'bad-request', message: 'offset must be a decimal number, 0 or more, and limit one from 1 to ' + MAX_PAGE_LIMIT });
    }
    const filterQuery = sessionFilterQuery.safeParse(request.query);
    if (!filterQuery.success) return reply.code(400).send({ error: 'bad-request', message: SESSION_FILTER_WORDS });
    const fold = source.fold(params.data.sessionId);
    if (fold === null) return reply.code(404).send({ error: 'not-found', message: 'no such session in this record' });
    // Offsets and the total count in the filtered order, so a filtered session pages as any other.
    const inOrder = filterItems(fold, filterOf(filterQuery.data));
    const { limit, around } = query.data;
    let offset = query.data.offset;
    if (around !== undefined) {
      const at = inOrder.findIndex((item) => item.type !== 'gap' && item.file.name === around);
      if (at === -1) {
        const hidden = inOrder !== fold.items && fold.items.some((item) => item.type !== 'gap' && item.file.name === around);
        return reply.code(404).send({ error: 'not-found', message: hidden ? 'the filter leaves this file out' : 'no such file in this session' });
      }
      offset = Math.max(0, at - Math.floor(limit / 2));
    }
    const onPage = inOrder.slice(offset, offset + limit);
    const stop = stopWithClient(reply, null);
    try {
      const reads = await readItems(source, threads, fold.sessionId, onPage, PAGE_TEXT_LIMIT_BYTES, stop.signal);
      const items = onPage.map((item) => projectItem(item, source.ref, (name) => reads.get(name)!, PAGE_TEXT_LIMIT_BYTES));
      // Reading the page may have found a file changed or gone since the fold; the summary is
      // taken afterwards so that it agrees with the items.
      const current = source.fold(fold.sessionId) ?? fold;
      return sessionResponseSchema.parse({
        schema: 'rec.session/2',
        session: summaryOf(current).summary,
        runs: current.runs,
        page: { offset, limit, total: inOrder.length },
        items,
      });
    } catch (error) {
      if (stop.clientGone()) return reply.code(499).send();
      throw error;
    } finally {
      stop.dispose();
    }
  }

  async function answerFile(sessionId: string, file: string, _request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const params = fileParams.safeParse({ sessionId, file });
    if (!params.success) return reply.code(400).send({ error: 'bad-request', message: 'a session id and a file name are needed' });
    const fold = source.fold(params.data.sessionId);
    const item = fold?.items.find((candidate) => candidate.type !== 'gap' && candidate.file.name === params.data.file);
    if (fold == null || item === undefined) {
      return reply.code(404).send({ error: 'not-found', message: 'no such file in this session' });
    }
    if (item.type !== 'file' || item.file.size <= READ_ASIDE_BYTES) {
      const wire = projectItem(item, source.ref, (name) => source.readNow(fold.sessionId, name), null);
      if (wire.type !== 'file') return reply.code(404).send({ error: 'not-found', message: 'a stray file is listed, never read' });
      return fileResponseSchema.parse({ schema: 'rec.file/2', source: source.ref, sessionId: fold.sessionId, item: wire });
    }
    const stop = stopWithClient(reply, null);
    try {
      const read = await readItemAside(source, threads, fold.sessionId, item.file, null, stop.signal);
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
      const wire = projectItem(item, source.ref, () => ({ state: read.state, reading, asWritten: true }), null);
      const answer = fileResponseSchema.parse({ schema: 'rec.file/2', source: source.ref, sessionId: fold.sessionId, item: wire });
      if (parts.length === 0) return answer;
      const spliced = spliceJson(answer, parts);
      return reply.type('application/json; charset=utf-8').header('content-length', spliced.bytes).send(spliced.stream);
    } catch (error) {
      if (stop.clientGone()) return reply.code(499).send();
      throw error;
    } finally {
      stop.dispose();
    }
  }

  return { answerSession, answerFile };
}
