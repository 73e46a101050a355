import { errorResponseSchema } from '../../shared/wire/common.ts';
import { edgeMessagesQuerySchema, edgeMessagesResponseSchema, mapQuerySchema } from '../../shared/wire/map.ts';
import type { Source } from '../sources/source.ts';
import { createStoreMap } from '../sources/storeMap.ts';
import type { ZodApp } from './zodApp.ts';
import type { LoopTurns } from '../sources/loopTurns.ts';
import { sendAnswer } from './answer.ts';

// The map of who talks to whom, for every store at once: `GET /api/map` and one edge's messages,
// `GET /api/map/messages?from=&to=`. The sources state their messages; server/sources/storeMap.ts
// folds them. The map's answer (mapResponseSchema, which the browser checks) is sent as the JSON
// it keeps: made of the core's values by its wire types, so not checked again per answer.

export function registerMapRoutes(app: ZodApp, sources: readonly Source[], turns: LoopTurns): void {
  const storeMap = createStoreMap(sources);
  app.get('/api/map', { schema: { querystring: mapQuerySchema } }, async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(storeMap.serializeMap(request.query)),
  );
  app.get('/api/map/messages', { schema: { querystring: edgeMessagesQuerySchema, response: { 200: edgeMessagesResponseSchema, 400: errorResponseSchema } } }, async (request, reply) =>
    sendAnswer(reply, turns, (signal) => storeMap.describeEdgeMessages(request.query, signal)),
  );
}
