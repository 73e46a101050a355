import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { errorResponseSchema } from '../../shared/wire/common.ts';
import { WIRE_KINDS, viewListSchema, viewOneSchema } from '../../shared/wire/kinds.ts';
import type { LoopTurns } from '../sources/loopTurns.ts';
import type { Source, SourceView } from '../sources/source.ts';
import { sendAnswer, sendNotFound, type SourceLookup } from './answer.ts';
import { anyQuerySchema } from './conversationRoutes.ts';
import { parseQuery } from './errors.ts';
import type { ZodApp } from './zodApp.ts';

// Views only one kind has (set-agent-comm's rooms, and one room's flow), served for every kind by
// the same routes: `GET /api/sources/:source/views/:view` and `…/views/:view/:key`. A view, its
// query and its answers are in the wire registry (shared/wire/kinds.ts); the source offers the data.

const viewParams = z.object({ source: z.string(), view: z.string() });
/** A view's one of a key (a room): `…/views/:view/:key`, and its export. */
export const viewKeyParams = viewParams.extend({ key: z.string().min(1, 'a key is needed') });
const answers = (ok: z.ZodType) => ({ 200: ok, 400: errorResponseSchema, 404: errorResponseSchema });

/** The view of that name the source offers; null when it offers none of that name. */
export function offeredView(source: Source, name: string): SourceView<unknown, unknown, unknown, unknown> | null {
  const views = source.views as Readonly<Record<string, SourceView<unknown, unknown, unknown, unknown>>> | undefined;
  return views !== undefined && Object.hasOwn(views, name) ? views[name]! : null;
}

export function registerViewRoutes(app: ZodApp, lookup: SourceLookup, turns: LoopTurns): void {
  /** The view of that name the source offers, with its schemas; null when its kind has none. */
  const viewOf = (source: Source, name: string) => {
    const views: Readonly<Record<string, { list: { query: z.ZodType }; one: { query: z.ZodType } }>> = WIRE_KINDS[source.ref.kind].views;
    const wire = Object.hasOwn(views, name) ? views[name]! : null;
    const offered = offeredView(source, name);
    return wire === null || offered === null ? null : { wire, offered };
  };
  const noView = (reply: FastifyReply, source: Source, name: string) => sendNotFound(reply, `a ${source.ref.kind} store has no view ${JSON.stringify(name)}`);

  const list = (source: Source, name: string, query: unknown, reply: FastifyReply) => {
    const view = viewOf(source, name);
    if (view === null) return noView(reply, source, name);
    const asked = parseQuery(view.wire.list.query, query);
    return sendAnswer(reply, turns, (signal) => view.offered.list(asked, signal));
  };
  const one = (source: Source, name: string, key: string, query: unknown, reply: FastifyReply) => {
    const view = viewOf(source, name);
    if (view === null) return noView(reply, source, name);
    const asked = parseQuery(view.wire.one.query, query);
    return sendAnswer(reply, turns, (signal) => view.offered.one(key, asked, signal));
  };

  app.get('/api/sources/:source/views/:view', { schema: { params: viewParams, querystring: anyQuerySchema, response: answers(viewListSchema) } }, async (request, reply) => {
    const source = lookup.byId(request.params.source);
    return source === null ? sendNotFound(reply, lookup.unknownWords()) : list(source, request.params.view, request.query, reply);
  });
  app.get(
    '/api/sources/:source/views/:view/:key',
    { schema: { params: viewKeyParams, querystring: anyQuerySchema, response: answers(viewOneSchema) } },
    async (request, reply) => {
      const source = lookup.byId(request.params.source);
      return source === null ? sendNotFound(reply, lookup.unknownWords()) : one(source, request.params.view, request.params.key, request.query, reply);
    },
  );

  // The rooms routes before views had a kind-neutral name, kept as they answered: the source is named in `?source=`.
  const sacSource = (id: string) => {
    const source = lookup.byId(id);
    return source?.ref.kind === 'sac' ? source : null;
  };
  const roomsQuery = z.looseObject({ source: z.string({ error: 'source: expected a source id' }) });
  app.get('/api/sac/rooms', { schema: { querystring: roomsQuery, response: answers(viewListSchema) } }, async (request, reply) => {
    const source = sacSource(request.query.source);
    return source === null ? sendNotFound(reply, `no set-agent-comm source ${JSON.stringify(request.query.source)}`) : list(source, 'rooms', request.query, reply);
  });
  app.get(
    '/api/sac/rooms/:room',
    { schema: { params: z.object({ room: z.string().min(1, 'a room is needed') }), querystring: roomsQuery, response: answers(viewOneSchema) } },
    async (request, reply) => {
      const source = sacSource(request.query.source);
      return source === null ? sendNotFound(reply, `no set-agent-comm source ${JSON.stringify(request.query.source)}`) : one(source, 'rooms', request.params.room, request.query, reply);
    },
  );
}
