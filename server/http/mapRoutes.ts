import { errorResponseSchema } from '../../shared/wire/common.ts';
import { edgeMessagesQuerySchema, edgeMessagesResponseSchema, mapQuerySchema, mapResponseSchema } from '../../shared/wire/map.ts';
import type { Source } from '../sources/source.ts';
import { describeEdgeMessages, describeMap } from '../sources/storeMap.ts';
import type { ZodApp } from './zodApp.ts';

// The map of who talks to whom, for every store at once: `GET /api/map` and one edge's messages,
// `GET /api/map/messages?from=&to=`. The sources state their messages; server/sources/storeMap.ts folds them.

export function registerMapRoutes(app: ZodApp, sources: readonly Source[]): void {
  app.get('/api/map', { schema: { querystring: mapQuerySchema, response: { 200: mapResponseSchema, 400: errorResponseSchema } } }, async (request) => describeMap(sources, request.query));
  app.get('/api/map/messages', { schema: { querystring: edgeMessagesQuerySchema, response: { 200: edgeMessagesResponseSchema, 400: errorResponseSchema } } }, async (request) =>
    describeEdgeMessages(sources, request.query),
  );
}
