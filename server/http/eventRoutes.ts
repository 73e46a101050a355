import type { FastifyInstance } from 'fastify';
import { recordEventSchema, sourceRefSchema } from '../../shared/api.ts';
import type { RecordSource, SourceEvent } from '../record/recordSource.ts';
import { SECURITY_HEADERS } from './securityHeaders.ts';
import type { SummaryCache } from './summaryCache.ts';

const KEEPALIVE_MS = 25_000;

/**
 * Server-sent events: small typed notices, each telling a client what changed. A client that
 * connects (or reconnects) is sent the current status, and should refetch everything: what it
 * missed while away is not replayed.
 */
export function registerEventRoutes(app: FastifyInstance, source: RecordSource, summaryOf: SummaryCache): void {
  const streams = new Set<() => void>();
  const sourceJson = JSON.stringify(sourceRefSchema.parse(source.ref));
  // A stream lasts as long as the browser tab that holds it: the server cannot close while one
  // is open, so each is ended first. The client sees the end, says the server is lost, and its
  // reconnects are refused once the server has stopped listening.
  app.addHook('preClose', (done) => {
    for (const end of streams) end();
    done();
  });
  app.get('/api/events', (request, reply) => {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    const send = (event: SourceEvent) => {
      if (event.type !== 'session-changed') {
        raw.write(`data: ${JSON.stringify(recordEventSchema.parse(event))}\n\n`);
        return;
      }
      // The summary as of now, validated and serialized once per fold for every client.
      const fold = source.fold(event.sessionId);
      if (fold === null) return;
      raw.write(`data: {"type":"session-changed","source":${sourceJson},"sessionId":${JSON.stringify(event.sessionId)},"session":${summaryOf(fold).json}}\n\n`);
    };
    raw.write('retry: 1000\n\n');
    raw.write(`data: ${JSON.stringify(recordEventSchema.parse({ type: 'hello', schema: 'rec.events/2', sources: [source.ref] }))}\n\n`);
    send({ type: 'source', source: source.status() });
    const unsubscribe = source.subscribe(send);
    // A comment now and then keeps proxies and idle sockets from closing a quiet stream.
    const keepalive = setInterval(() => raw.write(': keepalive\n\n'), KEEPALIVE_MS);
    const stop = () => {
      clearInterval(keepalive);
      unsubscribe();
      streams.delete(end);
    };
    // Ended as a whole connection: left open for keep-alive, the socket would hold the server.
    const end = () => {
      stop();
      raw.end();
      raw.socket?.end();
    };
    streams.add(end);
    request.raw.on('close', stop);
    raw.on('error', stop);
  });
}
