import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { PendingWindow } from '../../shared/evidence.ts';
import { EXAMPLE_STORE } from '../../shared/sac/testing/exampleStore.ts';
import { writtenOn } from '../../shared/sac/testing/machine.ts';
import { sessionsResponseSchema } from '../../shared/wire/conversations.ts';
import { sacSeatSummarySchema, type SacSeatSummary } from '../../shared/wire/sac.ts';
import type { SacWriter } from '../../tools/writer/sacWriter.ts';
import { buildApp } from '../http/app.ts';
import { createSacSource } from '../sac/sacSource.ts';
import type { Source, SourceNotice } from '../sources/source.ts';
import { createTestSearchPool } from './harness.ts';

// A sac source behind the HTTP app every kind is served by (server/http/app.ts), asked through
// app.inject: the list of conversations, a conversation's page, an item, search, export and the
// kind's own views.

export type SacTestApp = { app: FastifyInstance; source: Source<'sac'>; notices: SourceNotice[]; errors: string[]; close(): Promise<void> };

export async function startSacApp(root: string, options: PendingWindow = {}): Promise<SacTestApp> {
  const errors: string[] = [];
  const source = createSacSource({ root, onError: (message) => errors.push(message), searchPool: createTestSearchPool(), pendingWindowMs: options.pendingWindowMs });
  const notices: SourceNotice[] = [];
  source.subscribe((notice) => notices.push(notice));
  await source.start();
  const app = await buildApp({ sources: [source], webRoot: null, token: null });
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

/** The seats the list of sessions holds, whatever project they are listed under. */
export async function listSeats(app: FastifyInstance): Promise<SacSeatSummary[]> {
  const list = sessionsResponseSchema.parse((await app.inject({ method: 'GET', url: '/api/sessions' })).json());
  return list.projects.flatMap((project) => project.sessions.map((summary) => sacSeatSummarySchema.parse(summary)));
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

/**
 * Writes the example store (sac's own CLI wrote it) through a writer process, byte for byte but
 * for the host its registry files the agents under: this machine's, as if written here, unless
 * another is given.
 */
export async function writeExampleStore(writer: SacWriter, host = hostname()): Promise<void> {
  for (const [path, text] of Object.entries(writtenOn(host, EXAMPLE_STORE))) {
    await writer.send({ op: 'raw', path, bytes: Buffer.from(text).toString('base64') });
  }
}

export const seatUrl = (seat: string, query = '') => `/api/sessions/${encodeURIComponent(seat)}${query}`;
