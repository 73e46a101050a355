import type { FastifyInstance } from 'fastify';
import { buildApp } from '../http/app.ts';
import { createRecordSource } from '../record/recordSource.ts';
import { createTestSearchPool } from './harness.ts';

export type TestApp = { app: FastifyInstance; source: ReturnType<typeof createRecordSource>; close(): Promise<void> };

/**
 * The HTTP app over a real record source that has done its first scan of `recordDir`, for
 * tests that ask it through `app.inject`: no port, so a rule is checked quickly and precisely.
 */
export async function buildTestApp(recordDir: string, options: { token?: string | null; hostnames?: string[] } = {}): Promise<TestApp> {
  const source = createRecordSource({ root: recordDir, searchPool: createTestSearchPool() });
  await source.start();
  const app = await buildApp({ sources: [source], webRoot: null, token: options.token ?? null, hostnames: options.hostnames ?? [] });
  return {
    app,
    source,
    async close() {
      await app.close();
      await source.close();
    },
  };
}
