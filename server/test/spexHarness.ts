import type { FastifyInstance } from 'fastify';
import type { PendingWindow } from '../../shared/evidence.ts';
import { startSpexWriter, type SpexWriter } from '../../tools/writer/spexWriter.ts';
import { buildApp } from '../http/app.ts';
import type { Source, SourceNotice } from '../sources/source.ts';
import { createSpexSource } from '../spex/spexSource.ts';
import { createTestSearchPool, makeTempRecord } from './harness.ts';

// A spex home written by a real writer process, read by a real spex source behind the product's
// HTTP app (the source as the only one it serves), so every answer a client can get is asked.

export type SpexRig = {
  home: string;
  writer: SpexWriter;
  source: Source;
  app: FastifyInstance;
  notices: SourceNotice[];
  /** Every body and notice the rig has served so far, as text. */
  served: string[];
  get(path: string): Promise<{ status: number; body: any; text: string }>;
  close(): Promise<void>;
};

export async function startSpexRig(prepare?: (writer: SpexWriter, home: string) => Promise<void>, options: PendingWindow = {}): Promise<SpexRig> {
  const temp = makeTempRecord('spex-test-');
  const home = temp.dir;
  const writer = await startSpexWriter(home);
  if (prepare !== undefined) await prepare(writer, home);
  const source = createSpexSource({ root: home, reconcileIntervalMs: 60_000, searchPool: createTestSearchPool(), pendingWindowMs: options.pendingWindowMs });
  const notices: SourceNotice[] = [];
  const served: string[] = [];
  source.subscribe((notice) => {
    notices.push(notice);
    served.push(JSON.stringify(notice));
    if (notice.type === 'conversation-changed') served.push(source.conversation(notice.id)?.json ?? '');
  });
  await source.start();
  const app = await buildApp({ sources: [source], webRoot: null, token: null });
  await app.ready();
  return {
    home,
    writer,
    source,
    app,
    notices,
    served,
    async get(path) {
      const response = await app.inject({ method: 'GET', url: path });
      served.push(response.body);
      return { status: response.statusCode, body: response.body === '' ? null : JSON.parse(response.body), text: response.body };
    },
    async close() {
      await app.close();
      await source.close();
      await writer.kill();
      temp.remove();
    },
  };
}

export const A = 'aaaaaaaa-0000-4000-8000-00000000000a';
export const B = 'bbbbbbbb-0000-4000-8000-00000000000b';
export const C = 'cccccccc-0000-4000-8000-00000000000c';
export const PROJECT = '-home-dev-shop';

export function sessionJson(sessionId: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { session_id: sessionId, worktree_path: '/home/dev/shop', branch: 'main', title: `session ${sessionId.slice(0, 4)}`, name: '', parent: '', status: 'active', proposal: '', note: '', createdAt: 1, harness: 'claude', stopped: false, archived: false, ...fields };
}

export function sentEvent(text: string, from: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ts: new Date().toISOString(), kind: 'sent', mid: crypto.randomUUID(), text, from, ...extra };
}

export function statusEvent(status: string, proposal: string | null, note: string | null, ts = new Date().toISOString()): Record<string, unknown> {
  return { ts, kind: 'status', status, proposal, note };
}
