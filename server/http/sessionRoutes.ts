import { z } from 'zod';
import { errorResponseSchema, exportQuerySchema } from '../../shared/wire/common.ts';
import { conversationSessionResponseSchema, joinedSessionQuerySchema, joinedSessionResponseSchema, joinedSessionsResponseSchema } from '../../shared/wire/session.ts';
import { composeSessionExport, type ExportedConversation } from '../export/sessionExport.ts';
import { createSessionJoin, readSessionPage } from '../sources/sessions.ts';
import { NotHere, type Source } from '../sources/source.ts';
import type { Admission } from './admission.ts';
import { sendAnswer, sendNotFound, type SourceLookup } from './answer.ts';
import { conversationParams } from './conversationRoutes.ts';
import { sendExport, type ExportWork } from './sendExport.ts';
import type { ZodApp } from './zodApp.ts';

// One Claude Code session across the stores (server/sources/sessions.ts): the list of sessions
// (`GET /api/joined-sessions`), one session's items from every store (`…/:session`), and its
// export through the one pipeline (`…/:session/export?format=`). A session is named by its full id.
// Each store's conversation says which session it is, and where else it is
// (`/api/sources/:source/conversations/:id/session`).

const sessionParams = z.object({ session: z.string().min(1, 'a full session id is needed') });
const answers = (ok: z.ZodType) => ({ 200: ok, 400: errorResponseSchema, 404: errorResponseSchema });

export function registerSessionRoutes(app: ZodApp, sources: readonly Source[], lookup: SourceLookup, { exports, ...work }: ExportWork & { exports: Admission }): void {
  const join = createSessionJoin(sources);

  app.get('/api/sources/:source/conversations/:id/session', { schema: { params: conversationParams, response: answers(conversationSessionResponseSchema) } }, async (request, reply) => {
    const source = lookup.byId(request.params.source);
    if (source === null) return sendNotFound(reply, lookup.unknownWords());
    const answer = join.sessionOf(source, request.params.id);
    return answer instanceof NotHere ? sendNotFound(reply, answer.why) : answer;
  });

  app.get('/api/joined-sessions', { schema: { response: { 200: joinedSessionsResponseSchema } } }, async () => join.list());

  app.get('/api/joined-sessions/:session', { schema: { params: sessionParams, querystring: joinedSessionQuerySchema, response: answers(joinedSessionResponseSchema) } }, async (request, reply) => {
    const parts = join.partsOf(request.params.session);
    if (parts instanceof NotHere) return sendNotFound(reply, parts.why);
    return sendAnswer(reply, work.turns, (signal) => readSessionPage(request.params.session, parts, request.query.limit, signal));
  });

  app.get('/api/joined-sessions/:session/export', { onRequest: exports.admit, schema: { params: sessionParams, querystring: exportQuerySchema, response: { ...answers(z.unknown()), 503: errorResponseSchema } } }, async (request, reply) => {
    const parts = join.partsOf(request.params.session);
    if (parts instanceof NotHere) return sendNotFound(reply, parts.why);
    const exported: ExportedConversation[] = [];
    for (const { source, held } of parts) {
      const one = source.export?.(held.id);
      if (one !== undefined && !(one instanceof NotHere)) exported.push({ source: source.ref, conversation: held.id, parts: one });
    }
    return sendExport(reply, composeSessionExport(request.params.session, exported), request.query.format, joinedSessionResponseSchema.shape.items.element, work);
  });
}
