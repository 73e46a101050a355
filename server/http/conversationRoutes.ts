import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Source } from '../sources/source.ts';
import { createSessionListBody, streamOf } from './sessionListBody.ts';

const conversationParams = z.object({ sessionId: z.string().min(1) });
const itemParams = z.object({ sessionId: z.string().min(1), item: z.string().min(1) });
const sourceQuery = z.object({ source: z.string().optional() });

/**
 * The list of conversations, and one conversation's pages and items, answered by the source
 * that holds it. `?source=` names the store; without it, the first source (in the order the
 * command was given them) that holds a conversation of that id answers. Conversations of two
 * sources are never merged, and nothing joins on a prefix of an id.
 */
export function registerConversationRoutes(app: FastifyInstance, sources: readonly Source[]): void {
  const sessionList = createSessionListBody(sources);

  app.get('/api/sessions', async (_request, reply) => {
    const body = sessionList();
    return reply.type('application/json; charset=utf-8').header('content-length', body.bytes).send(streamOf(body));
  });

  const sourceFor = (request: FastifyRequest, id: string): Source | null => {
    const asked = sourceQuery.safeParse(request.query);
    const sourceId = asked.success ? asked.data.source : undefined;
    if (sourceId !== undefined) return sources.find((source) => source.ref.id === sourceId) ?? null;
    return sources.find((source) => source.conversation(id) !== null) ?? sources[0] ?? null;
  };
  const notFound = (reply: FastifyReply) => reply.code(404).send({ error: 'not-found', message: 'no such conversation in the stores read' });

  app.get('/api/sessions/:sessionId', async (request, reply) => {
    const params = conversationParams.safeParse(request.params);
    if (!params.success) return reply.code(400).send({ error: 'bad-request', message: 'a session id is needed' });
    const source = sourceFor(request, params.data.sessionId);
    if (source === null) return notFound(reply);
    return source.answerConversation(params.data.sessionId, request, reply);
  });

  app.get('/api/sessions/:sessionId/activity', async (request, reply) => {
    const params = conversationParams.safeParse(request.params);
    if (!params.success) return reply.code(400).send({ error: 'bad-request', message: 'a session id is needed' });
    const source = sourceFor(request, params.data.sessionId);
    if (source === null) return notFound(reply);
    if (source.answerActivity === undefined) return reply.code(404).send({ error: 'not-found', message: `a ${source.ref.kind} conversation has no activity summary yet` });
    return source.answerActivity(params.data.sessionId, request, reply);
  });

  const answerItem = async (request: FastifyRequest<{ Params: unknown }>, reply: FastifyReply) => {
    const raw = request.params as { sessionId?: unknown; item?: unknown; file?: unknown };
    const params = itemParams.safeParse({ sessionId: raw.sessionId, item: raw.item ?? raw.file });
    if (!params.success) return reply.code(400).send({ error: 'bad-request', message: 'a session id and a file name are needed' });
    const source = sourceFor(request, params.data.sessionId);
    if (source === null) return reply.code(404).send({ error: 'not-found', message: 'no such file in this session' });
    return source.answerItem(params.data.sessionId, params.data.item, request, reply);
  };
  app.get('/api/sessions/:sessionId/items/:item', answerItem);
  // The record's file links (`rec.file/2`), kept so that links made before items had a kind-neutral name still answer.
  app.get('/api/sessions/:sessionId/files/:file', answerItem);
}
