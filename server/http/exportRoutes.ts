import type { FastifyReply } from 'fastify';
import { errorResponseSchema, exportQuerySchema, type ExportFormat } from '../../shared/wire/common.ts';
import { WIRE_KINDS, searchHitSchema } from '../../shared/wire/kinds.ts';
import { searchQuerySchema } from '../../shared/wire/search.ts';
import { NotHere, type Source } from '../sources/source.ts';
import { sendNotFound, type SourceLookup } from './answer.ts';
import { conversationParams, sessionParams } from './conversationRoutes.ts';
import { describeSearchExport } from './searchExport.ts';
import { offeredView, viewKeyParams } from './viewRoutes.ts';
import { runSearch } from './searchRoutes.ts';
import { sendExport, type ExportWork } from './sendExport.ts';
import type { Admission } from './admission.ts';
import type { ZodApp } from './zodApp.ts';

const errors = { 400: errorResponseSchema, 404: errorResponseSchema, 503: errorResponseSchema };
const NO_CONVERSATION = 'no such conversation in the stores read';

/**
 * Exports, as downloads made as they are sent (server/export/pipeline.ts): one conversation whole
 * (`GET /api/sources/:source/conversations/:id/export?format=`, and the route before it,
 * `/api/sessions/:id/export`) and one of a view whole (`…/views/:view/:key/export`: a room's
 * flow), from the parts the source that holds it supplies, and a search's hits
 * (`GET /api/search/export?format=&…` with the search's own query). Each waits in the queue of
 * exports (a search's also in the queue of searches), and is refused there when it is full.
 */
export function registerExportRoutes(app: ZodApp, sources: readonly Source[], lookup: SourceLookup, options: ExportWork & { searches: Admission; exports: Admission }): void {
  const { exports, searches, stopping, turns } = options;
  const answerExport = (source: Source, id: string, format: ExportFormat, reply: FastifyReply) => {
    if (source.export === undefined) return sendNotFound(reply, `a ${source.ref.kind} conversation cannot be exported yet`);
    const parts = source.export(id);
    if (parts instanceof NotHere) return sendNotFound(reply, parts.why);
    return sendExport(reply, parts, format, WIRE_KINDS[source.ref.kind].pageItem, { stopping, turns });
  };

  app.get('/api/sources/:source/conversations/:id/export', { onRequest: exports.admit, schema: { params: conversationParams, querystring: exportQuerySchema, response: errors } }, async (request, reply) => {
    const source = lookup.byId(request.params.source);
    return source === null ? sendNotFound(reply, lookup.unknownWords()) : answerExport(source, request.params.id, request.query.format, reply);
  });

  // One of a view whole (a set-agent-comm room's flow), where the view offers it.
  app.get(
    '/api/sources/:source/views/:view/:key/export',
    { onRequest: exports.admit, schema: { params: viewKeyParams, querystring: exportQuerySchema, response: errors } },
    async (request, reply) => {
      const { source: id, view: name, key } = request.params;
      const source = lookup.byId(id);
      if (source === null) return sendNotFound(reply, lookup.unknownWords());
      const view = offeredView(source, name);
      if (view?.export === undefined) return sendNotFound(reply, `a ${source.ref.kind} store's view ${JSON.stringify(name)} cannot be exported`);
      const parts = view.export(key);
      if (parts instanceof NotHere) return sendNotFound(reply, parts.why);
      return sendExport(reply, parts, request.query.format, WIRE_KINDS[source.ref.kind].pageItem, { stopping, turns });
    },
  );

  app.get('/api/sessions/:sessionId/export', { onRequest: exports.admit, schema: { params: sessionParams, querystring: exportQuerySchema.extend({ source: searchQuerySchema.shape.source }), response: errors } }, async (request, reply) => {
    const id = request.params.sessionId;
    const asked = request.query.source;
    const source = asked !== undefined ? lookup.byId(asked) : sources.find((one) => one.conversation(id) !== null);
    if (source == null || source.conversation(id) === null) return sendNotFound(reply, NO_CONVERSATION);
    return answerExport(source, id, request.query.format, reply);
  });

  app.get('/api/search/export', { onRequest: [exports.admit, searches.admit], schema: { querystring: searchQuerySchema.safeExtend(exportQuerySchema.shape), response: errors } }, async (request, reply) => {
    const { format, ...query } = request.query;
    const response = await runSearch(query, reply, sources);
    if (response === null) return reply;
    // Its hits are made: the search thread is free for the next search while they are sent, at
    // the client's pace; the download keeps its place among exports.
    searches.leave(request);
    const exportedAt = new Date().toISOString();
    // The query as it was asked, without the defaults its schema filled in.
    const asked = Object.fromEntries(new URL(request.url, 'http://localhost').searchParams);
    return sendExport(reply, describeSearchExport(response, asked, exportedAt, sources), format, searchHitSchema, { stopping, turns }, exportedAt);
  });
}
