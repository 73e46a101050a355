import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { errorResponseSchema } from '../../shared/wire/common.ts';
import { WIRE_KINDS, activityAnswerSchema, itemResponseSchema, pageResponseSchema } from '../../shared/wire/kinds.ts';
import type { LoopTurns } from '../sources/loopTurns.ts';
import type { Source } from '../sources/source.ts';
import { sendAnswer, sendNotFound, type SourceLookup } from './answer.ts';
import { parseQuery } from './errors.ts';
import { createSessionListBody, streamOf } from './sessionListBody.ts';
import type { ZodApp } from './zodApp.ts';

// The list of conversations, and one conversation's pages, items and activity, each answered by
// the source that holds it. A conversation is named the same way for every kind
// (`/api/sources/:source/conversations/:id…`); the routes before it (`/api/sessions/:id[?source=]…`)
// answer as they did, over the same handlers. Conversations of two sources are never merged.

/** A query as it came: the kind of the source it addresses has the schema it is checked against. */
export const anyQuerySchema = z.looseObject({});
/** A route without the source in its path names it in `?source=`, or not at all. */
const sourceQuerySchema = z.looseObject({ source: z.string().optional() });
export const conversationParams = z.object({ source: z.string(), id: z.string().min(1, 'a conversation id is needed') });
export const sessionParams = z.object({ sessionId: z.string().min(1, 'a session id is needed') });
const listQuerySchema = z.looseObject({ since: z.string().max(64).optional() });
const NO_CONVERSATION = 'no such conversation in the stores read';
/** The list asked for as lines. */
const LINES = /^\s*application\/x-ndjson\s*(;|,|$)/i;

const answers = (ok: z.ZodType) => ({ 200: ok, 400: errorResponseSchema, 404: errorResponseSchema });

export function registerConversationRoutes(app: ZodApp, sources: readonly Source[], lookup: SourceLookup, turns: LoopTurns): void {
  const sessionList = createSessionListBody(sources, turns);

  // `rec.sessions/4` (sessionsResponseSchema): sent as the chunks kept per project, its envelope
  // validated here and each conversation by its source, so not serialized again per answer. Asked
  // `?since=` a version it can answer from, only what changed since (rec.session-changes/1).
  // Asked with `accept: application/x-ndjson`, the whole list comes as lines, its envelope then a
  // project a line, so that a browser reads megabytes of it a project at a time.
  app.get('/api/sessions', { schema: { querystring: listQuerySchema } }, async (request, reply) => {
    const since = request.query.since;
    const changes = since === undefined ? null : await sessionList.changesSince(since);
    if (changes !== null) return sendList(reply, 'application/json', changes);
    const whole = await sessionList.body();
    return LINES.test(request.headers.accept ?? '') ? sendList(reply, 'application/x-ndjson', whole.lines) : sendList(reply, 'application/json', whole);
  });
  const sendList = (reply: FastifyReply, type: string, body: { chunks: Buffer[]; bytes: number }) =>
    reply.type(`${type}; charset=utf-8`).header('vary', 'accept').header('content-length', body.bytes).send(streamOf(body));

  const page = (source: Source, id: string, query: unknown, reply: FastifyReply) => {
    const asked = parseQuery(WIRE_KINDS[source.ref.kind].page.query, query);
    return sendAnswer(reply, turns, (signal) => source.page(id, asked, signal));
  };
  const item = (source: Source, id: string, key: string, reply: FastifyReply) => sendAnswer(reply, turns, (signal) => source.item(id, key, signal));
  const activity = (source: Source, id: string, query: unknown, reply: FastifyReply) => {
    const wire = WIRE_KINDS[source.ref.kind];
    if (!('activity' in wire) || source.activity === undefined) return sendNotFound(reply, `a ${source.ref.kind} conversation has no activity summary yet`);
    const asked = parseQuery(wire.activity.query, query);
    return sendAnswer(reply, turns, (signal) => source.activity!(id, asked, signal));
  };

  const inSource = { params: conversationParams, querystring: anyQuerySchema };
  app.get('/api/sources/:source/conversations/:id', { schema: { ...inSource, response: answers(pageResponseSchema) } }, async (request, reply) => {
    const source = lookup.byId(request.params.source);
    return source === null ? sendNotFound(reply, lookup.unknownWords()) : page(source, request.params.id, request.query, reply);
  });
  app.get(
    '/api/sources/:source/conversations/:id/items/:item',
    { schema: { params: conversationParams.extend({ item: z.string().min(1, 'an item is needed') }), response: answers(itemResponseSchema) } },
    async (request, reply) => {
      const source = lookup.byId(request.params.source);
      return source === null ? sendNotFound(reply, lookup.unknownWords()) : item(source, request.params.id, request.params.item, reply);
    },
  );
  app.get('/api/sources/:source/conversations/:id/activity', { schema: { ...inSource, response: answers(activityAnswerSchema) } }, async (request, reply) => {
    const source = lookup.byId(request.params.source);
    return source === null ? sendNotFound(reply, lookup.unknownWords()) : activity(source, request.params.id, request.query, reply);
  });

  // The routes before conversations were named by their source, kept as they answered.
  const bySession = { params: sessionParams, querystring: sourceQuerySchema };
  app.get('/api/sessions/:sessionId', { schema: { ...bySession, response: answers(pageResponseSchema) } }, async (request, reply) => {
    const source = lookup.holding(request.params.sessionId, request.query.source);
    return source === null ? sendNotFound(reply, NO_CONVERSATION) : page(source, request.params.sessionId, request.query, reply);
  });
  app.get('/api/sessions/:sessionId/activity', { schema: { ...bySession, response: answers(activityAnswerSchema) } }, async (request, reply) => {
    const source = lookup.holding(request.params.sessionId, request.query.source);
    return source === null ? sendNotFound(reply, NO_CONVERSATION) : activity(source, request.params.sessionId, request.query, reply);
  });
  const itemParams = sessionParams.extend({ item: z.string().min(1, 'a file name is needed') });
  const answerItem = async (request: { params: z.output<typeof itemParams>; query: z.output<typeof sourceQuerySchema> }, reply: FastifyReply) => {
    const source = lookup.holding(request.params.sessionId, request.query.source);
    return source === null ? sendNotFound(reply, 'no such file in this session') : item(source, request.params.sessionId, request.params.item, reply);
  };
  app.get('/api/sessions/:sessionId/items/:item', { schema: { params: itemParams, querystring: sourceQuerySchema, response: answers(itemResponseSchema) } }, answerItem);
  // The record's file links (`rec.file/2`), kept so that links made before items had a kind-neutral name still answer.
  const fileParams = sessionParams.extend({ file: z.string().min(1, 'a file name is needed') });
  app.get('/api/sessions/:sessionId/files/:file', { schema: { params: fileParams, querystring: sourceQuerySchema, response: answers(itemResponseSchema) } }, (request, reply) =>
    answerItem({ params: { sessionId: request.params.sessionId, item: request.params.file }, query: request.query }, reply),
  );
}
