import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { searchResponseSchema, sessionResponseSchema, sessionsResponseSchema } from '../../shared/api.ts';
import { nameAt, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { connectEventStream } from './eventStream.ts';
import { eventually, fingerprintTree, getJson, makeTempRecord, startTestDashboard } from './harness.ts';

describe('read-only', () => {
  it('a run that exercises every endpoint leaves every file of the record as it was: names, sizes, mtimes and bytes', async () => {
    const record = makeTempRecord();
    const put = (session: string, name: string, content: string) => {
      mkdirSync(join(record.dir, session), { recursive: true });
      writeFileSync(join(record.dir, session, name), content);
    };
    put('s1', nameAt(0, 1), JSON.stringify({ ...startEntry(0), sessionId: 's1' }));
    put('s1', nameAt(1, 2), JSON.stringify({ ...sentEntry(1, 'hello'), sessionId: 's1' }));
    put('s1', nameAt(2, 4), JSON.stringify({ ...receivedEntry(2, 'hi'), sessionId: 's1' }));
    put('s1', nameAt(3, 5), '{"kind":"message","sid');
    put('s1', 'notes.txt', 'stray');
    put('s2', nameAt(5, 1), JSON.stringify({ kind: 'message' }));
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(join(record.dir, 's1', nameAt(3, 5)), old, old);
    chmodSync(join(record.dir, 's2', nameAt(5, 1)), 0o444);
    const before = fingerprintTree(record.dir);

    const dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: 100 });
    try {
      await eventually(() => (dashboard.source.status().indexing.state === 'ready' ? true : undefined), 'first scan');
      const events = await connectEventStream(dashboard.url);
      const list = await getJson(dashboard, '/api/sessions', sessionsResponseSchema);
      for (const session of list.projects.flatMap((project) => project.sessions)) {
        const page = await getJson(dashboard, `/api/sessions/${session.sessionId}`, sessionResponseSchema);
        for (const item of page.items) {
          if (item.type === 'gap') continue;
          await fetch(new URL(`/api/sessions/${session.sessionId}/files/${encodeURIComponent(item.file)}`, dashboard.url));
        }
      }
      await getJson(dashboard, '/api/search?q=h', searchResponseSchema);
      await fetch(new URL('/', dashboard.url));
      await fetch(new URL('/sessions/s1', dashboard.url));
      // Several reconciles pass while the server runs.
      await new Promise((resolve) => setTimeout(resolve, 400));
      events.close();
    } finally {
      await dashboard.close();
    }
    assert.deepEqual(fingerprintTree(record.dir), before);
    record.remove();
  });
});
