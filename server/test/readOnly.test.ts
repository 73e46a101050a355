import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileResponseSchema, sessionResponseSchema } from '../../shared/wire/record.ts';
import { nameAt, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { startDashboard } from '../dashboard.ts';
import { connectEventStream, type EventStream } from './eventStream.ts';
import { eventually, fingerprintTree, getJson, makeTempRecord } from './harness.ts';
import { recordSessionsResponseSchema, recordSearchResponseSchema } from '../../shared/test/recordWire.ts';

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
    // A built UI of one page, so that the app's own routes answer too.
    const web = makeTempRecord('rec-web-');
    writeFileSync(join(web.dir, 'index.html'), '<!doctype html><title>rec-dashboard UI</title>');
    try {
      const dashboard = await startDashboard({
        stores: [{ kind: 'record', root: record.dir }],
        token: null,
        host: '127.0.0.1',
        port: 0,
        portFallback: false,
        webRoot: web.dir,
        reconcileIntervalMs: 100,
      });
      // Every answer is checked: a run of 404s would read nothing and leave the record as it was.
      const get = async (path: string, status: number): Promise<string> => {
        const response = await fetch(new URL(path, dashboard.url));
        const body = await response.text();
        assert.equal(response.status, status, `${path}: ${body}`);
        return body;
      };
      let events: EventStream | null = null;
      try {
        await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'first scan');
        events = await connectEventStream(dashboard.url);
        await events.next(({ event }) => event.type === 'source');
        const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
        const sessionIds = list.projects.flatMap((project) => project.sessions.map((session) => session.sessionId));
        assert.deepEqual(sessionIds.sort(), ['s1', 's2']);
        const served = { file: 0, stray: 0, gap: 0 };
        for (const sessionId of sessionIds) {
          const page = await getJson(dashboard, `/api/sessions/${sessionId}`, sessionResponseSchema);
          for (const item of page.items) {
            served[item.type]++;
            if (item.type === 'gap') continue;
            const path = `/api/sessions/${sessionId}/files/${encodeURIComponent(item.file)}`;
            // A stray is listed, never read.
            if (item.type === 'stray') await get(path, 404);
            else assert.equal(fileResponseSchema.parse(JSON.parse(await get(path, 200))).item.file, item.file);
          }
          const first = page.items[0]!;
          assert.ok(first.type === 'file');
          const around = await getJson(dashboard, `/api/sessions/${sessionId}?around=${encodeURIComponent(first.file)}&limit=1`, sessionResponseSchema);
          assert.deepEqual(around.items, [first]);
        }
        assert.deepEqual(served, { file: 5, stray: 1, gap: 1 });
        const found = await getJson(dashboard, '/api/search?q=h', recordSearchResponseSchema);
        assert.deepEqual(found.hits.map((hit) => hit.file).sort(), [nameAt(1, 2), nameAt(2, 4)]);
        const matched = await getJson(dashboard, '/api/search?q=h.llo&regex=1&side=sent', recordSearchResponseSchema);
        assert.deepEqual(matched.hits.map((hit) => hit.file), [nameAt(1, 2)]);
        assert.match(await get('/', 200), /rec-dashboard UI/);
        assert.match(await get('/session/s1', 200), /rec-dashboard UI/);
        // Several reconciles pass while the server runs.
        await new Promise((resolve) => setTimeout(resolve, 400));
      } finally {
        events?.close();
        await dashboard.close();
      }
      assert.deepEqual(fingerprintTree(record.dir), before);
    } finally {
      web.remove();
      record.remove();
    }
  });
});
