import { sourceRefSchema } from '../../shared/wire/common.ts';
import { recordEventSchema } from '../../shared/wire/conversations.ts';
import { readStatedSession } from '../sources/sessions.ts';
import type { Source, SourceNotice } from '../sources/source.ts';
import { SECURITY_HEADERS } from './securityHeaders.ts';
import type { ZodApp } from './zodApp.ts';

const KEEPALIVE_MS = 25_000;

/**
 * Server-sent events: small typed notices from every source, each telling a client what changed.
 * A client that connects (or reconnects) is sent the current status of each source, and should
 * refetch everything: what it missed while away is not replayed.
 */
export function registerEventRoutes(app: ZodApp, sources: readonly Source[]): void {
  const streams = new Set<() => void>();
  // An item notice goes to every client: validated and serialized once, the first time it is sent.
  const itemsJson = new WeakMap<SourceNotice, string>();
  const serializeItems = (source: Source, notice: Extract<SourceNotice, { type: 'items' }>): string => {
    let json = itemsJson.get(notice);
    if (json === undefined) {
      json = JSON.stringify(recordEventSchema.parse({ type: 'items', source: source.ref, sessionId: notice.id, session: readStatedSession(source, notice.id), items: notice.items }));
      itemsJson.set(notice, json);
    }
    return json;
  };
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
    const sendFrom = (source: Source, sourceJson: string) => (notice: SourceNotice) => {
      if (notice.type === 'source') {
        raw.write(`data: ${JSON.stringify(recordEventSchema.parse(notice))}\n\n`);
        return;
      }
      if (notice.type === 'items') {
        raw.write(`data: ${serializeItems(source, notice)}\n\n`);
        return;
      }
      // The summary as of now, validated and serialized by its source once per change for every client.
      const conversation = source.conversation(notice.id);
      if (conversation === null) return;
      raw.write(`data: {"type":"session-changed","source":${sourceJson},"sessionId":${JSON.stringify(notice.id)},"session":${conversation.json}}\n\n`);
    };
    raw.write('retry: 1000\n\n');
    const hello = { type: 'hello', schema: 'rec.events/4', sources: sources.map((source) => source.ref) };
    raw.write(`data: ${JSON.stringify(recordEventSchema.parse(hello))}\n\n`);
    const unsubscribes = sources.map((source) => {
      const send = sendFrom(source, JSON.stringify(sourceRefSchema.parse(source.ref)));
      send({ type: 'source', source: source.status() });
      return source.subscribe(send);
    });
    // A comment now and then keeps proxies and idle sockets from closing a quiet stream.
    const keepalive = setInterval(() => raw.write(': keepalive\n\n'), KEEPALIVE_MS);
    const stop = () => {
      clearInterval(keepalive);
      for (const unsubscribe of unsubscribes) unsubscribe();
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
