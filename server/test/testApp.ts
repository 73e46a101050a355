import type { FastifyInstance } from 'fastify';
import { buildApp } from '../http/app.ts';
import { createRecordSource, type RecordSource } from '../record/recordSource.ts';

export type TestApp = { app: FastifyInstance; source: RecordSource; close(): Promise<void> };

/**
 * The HTTP app over a real record source that has done its first scan of `recordDir`, for
 * tests that ask it through `app.inject`: no port, so a rule is checked quickly and precisely.
 */
export async function buildTestApp(recordDir: string, options: { token?: string | null; hostnames?: string[] } = {}): Promise<TestApp> {
  const source = createRecordSource({ recordDir });
  await source.start();
  const app = await buildApp({ source, webRoot: null, token: options.token ?? null, hostnames: options.hostnames ?? [] });
  return {
    app,
    source,
    async close() {
      await app.close();
      await source.close();
    },
  };
}
