import Fastify, { type FastifyInstance } from 'fastify';
import { searchQuerySchema } from '../../shared/api.ts';
import { EXAMPLE_STORE } from '../../shared/sac/testing/exampleStore.ts';
import type { SacWriter } from '../../tools/writer/sacWriter.ts';
import { createSacSource, type SacSource } from '../sac/sacSource.ts';
import type { SourceNotice } from '../sources/source.ts';

// A sac source behind a small Fastify app that routes as the generic HTTP layer does: the list of
// conversations, a conversation's page, an item, search and the kind's own routes.

export type SacTestApp = { app: FastifyInstance; source: SacSource; notices: SourceNotice[]; errors: string[]; close(): Promise<void> };

export async function startSacApp(root: string): Promise<SacTestApp> {
  const errors: string[] = [];
  const source = createSacSource({ root, onError: (message) => errors.push(message) });
  const notices: SourceNotice[] = [];
  source.subscribe((notice) => notices.push(notice));
  await source.start();
  const app = Fastify();
  app.get('/api/sessions', async (_request, reply) => {
    const body = `{"conversations":[${[...source.conversations()].map((listed) => listed.json).join(',')}],"strays":${JSON.stringify(source.strays())}}`;
    return reply.type('application/json').send(body);
  });
  app.get('/api/sessions/:id', (request, reply) => source.answerConversation((request.params as { id: string }).id, request, reply));
  app.get('/api/sessions/:id/items/:item', (request, reply) => {
    const params = request.params as { id: string; item: string };
    return source.answerItem(params.id, params.item, request, reply);
  });
  app.get('/api/search', async (request, reply) => {
    const query = searchQuerySchema.safeParse(request.query);
    if (!query.success) return reply.code(400).send({ error: 'bad-request' });
    return source.search(query.data, new AbortController().signal);
  });
  source.registerRoutes?.(app);
  await app.ready();
  return {
    app,
    source,
    notices,
    errors,
    async close() {
      await app.close();
      await source.close();
    },
  };
}

export async function getBody(app: FastifyInstance, url: string): Promise<{ status: number; text: string; json: unknown }> {
  const response = await app.inject({ method: 'GET', url });
  let json: unknown = null;
  try {
    json = JSON.parse(response.body);
  } catch {
    // Not JSON: the test looks at the text.
  }
  return { status: response.statusCode, text: response.body, json };
}

/** Writes the example store (sac's own CLI wrote it) through a writer process, byte for byte. */
export async function writeExampleStore(writer: SacWriter): Promise<void> {
  for (const [path, text] of Object.entries(EXAMPLE_STORE)) {
    await writer.send({ op: 'raw', path, bytes: Buffer.from(text).toString('base64') });
  }
}

export const seatUrl = (seat: string, query = '') => `/api/sessions/${encodeURIComponent(seat)}${query}`;
