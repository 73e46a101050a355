import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sendExport } from '../sources/exportStream.ts';
import { EXPORT_FORMATS, type ExportFormat, type Source } from '../sources/source.ts';
import { describeSearchExport } from './searchExport.ts';
import { runSearch, type SearchOptions } from './searchRoutes.ts';

const conversationParams = z.object({ sessionId: z.string().min(1) });
const exportQuery = z.object({ format: z.enum(EXPORT_FORMATS), source: z.string().optional() });

/**
 * Exports, as downloads: one conversation whole (`GET /api/sessions/:id/export?format=`),
 * answered by the source that holds it, and a search's hits (`GET /api/search/export?format=&…`
 * with the search's own query).
 */
export function registerExportRoutes(app: FastifyInstance, sources: readonly Source[], options: SearchOptions): void {
  const formatOf = (request: FastifyRequest, reply: FastifyReply): ExportFormat | null => {
    const query = exportQuery.safeParse(request.query);
    if (query.success) return query.data.format;
    reply.code(400).send({ error: 'bad-request', message: `format must be one of ${EXPORT_FORMATS.join(', ')}` });
    return null;
  };

  app.get('/api/sessions/:sessionId/export', async (request, reply) => {
    const params = conversationParams.safeParse(request.params);
    if (!params.success) return reply.code(400).send({ error: 'bad-request', message: 'a session id is needed' });
    const format = formatOf(request, reply);
    if (format === null) return reply;
    const id = params.data.sessionId;
    const asked = (request.query as { source?: string }).source;
    const source = asked !== undefined ? sources.find((one) => one.ref.id === asked) : sources.find((one) => one.conversation(id) !== null);
    if (source === undefined || source.conversation(id) === null) return reply.code(404).send({ error: 'not-found', message: 'no such conversation in the stores read' });
    if (source.answerExport === undefined) {
      return reply.code(404).send({ error: 'not-found', message: `a ${source.ref.kind} conversation cannot be exported yet` });
    }
    return source.answerExport(id, format, request, reply);
  });

  app.get('/api/search/export', async (request, reply) => {
    const format = formatOf(request, reply);
    if (format === null) return reply;
    const response = await runSearch(request, reply, sources, options);
    if (response === null) return reply;
    const exportedAt = new Date().toISOString();
    const query = request.query as Record<string, unknown>;
    return sendExport(reply, {
      name: ['search', exportedAt.replace(/[:.]/g, '')],
      format,
      parts: () => describeAsync(describeSearchExport(format, response, query, exportedAt, sources)),
    });
  });
}

async function* describeAsync(parts: Iterable<string>): AsyncGenerator<string> {
  yield* parts;
}
