import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import Fastify from 'fastify';
import type { Indexing } from '../../shared/wire/common.ts';
import { spexSummarySchema } from '../../shared/wire/spex.ts';
import { startSpexWriter } from '../../tools/writer/spexWriter.ts';
import type { SourceNotice } from '../sources/source.ts';
import { createSpexSource } from '../spex/spexSource.ts';
import { eventually, makeTempRecord } from './harness.ts';
import { PROJECT, sessionJson } from './spexHarness.ts';

// The first scan of a large spex home, written by a real writer process: it reads in slices, so
// the API answers while it runs and its status says how far it is; a line written meanwhile is
// not lost.

const SESSIONS = 40;
const LINES = 4_000;
const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const idOf = (n: number) => `${String(n).padStart(8, '0')}-0000-4000-8000-${String(n).padStart(12, '0')}`;

test('the first scan of a large home gives the event loop back: the API answers while it runs, and status says how far it is', async () => {
  const temp = makeTempRecord('spex-scan-');
  cleanups.push(() => temp.remove());
  const writer = await startSpexWriter(temp.dir);
  cleanups.push(() => writer.kill());
  for (let s = 0; s < SESSIONS; s++) {
    const id = idOf(s);
    await writer.send({ op: 'session', project: PROJECT, sessionId: id, value: sessionJson(id) });
    let lines = '';
    for (let e = 0; e < LINES; e++) {
      lines += `${JSON.stringify({ ts: new Date(Date.UTC(2026, 10, 1, 0, 0, e)).toISOString(), kind: 'sent', mid: `${s}-${e}`, text: `message ${e} ${'lorem ipsum '.repeat(4)}`, from: e % 2 === 0 ? null : idOf((s + 1) % SESSIONS) })}\n`;
    }
    await writer.send({ op: 'bytes', project: PROJECT, sessionId: id, base64: Buffer.from(lines).toString('base64') });
  }

  const source = createSpexSource({ root: temp.dir, reconcileIntervalMs: 60_000 });
  cleanups.push(() => source.close());
  const told: Indexing[] = [];
  source.subscribe((notice: SourceNotice) => {
    if (notice.type === 'source') told.push(notice.source.indexing);
  });
  const app = Fastify();
  cleanups.push(() => app.close());
  app.get('/api/sessions', async () => ({ indexing: source.status().indexing, conversations: [...source.conversations()].length }));
  await app.ready();

  let ready = false;
  const started = source.start().then(() => {
    ready = true;
  });
  const seenWhileScanning: Indexing[] = [];
  const timer = setInterval(() => {
    if (!ready) seenWhileScanning.push(source.status().indexing);
  }, 1);
  const answered = await app.inject({ method: 'GET', url: '/api/sessions' });
  const answeredBeforeReady = !ready;
  // A line written while the scan runs, to the last session: read by the scan or told after it.
  await writer.send({ op: 'event', project: PROJECT, sessionId: idOf(SESSIONS - 1), event: { ts: '2026-12-01T00:00:00.000Z', kind: 'sent', mid: 'late', text: 'written meanwhile', from: null } });
  await started;
  clearInterval(timer);

  assert.equal(answered.statusCode, 200);
  assert.ok(answeredBeforeReady, 'a request is answered before the first scan ends');
  assert.equal(JSON.parse(answered.body).indexing.state, 'scanning');
  assert.ok(seenWhileScanning.length > 0, 'timers run while the first scan does');
  assert.ok(
    seenWhileScanning.some((indexing) => indexing.state === 'scanning' && indexing.files > 0 && indexing.files < SESSIONS),
    `status counts the segments read so far: ${JSON.stringify(seenWhileScanning.slice(0, 5))}`,
  );
  assert.deepEqual(source.status().indexing, { state: 'ready', files: SESSIONS });
  assert.equal(told.at(-1)?.state, 'ready');
  assert.equal([...source.conversations()].length, SESSIONS);
  await eventually(() => {
    const last = source.conversation(idOf(SESSIONS - 1));
    return last !== null && spexSummarySchema.parse(JSON.parse(last.json)).counts.received === LINES + 1 ? true : undefined;
  }, 'the line written meanwhile is read');
  const first = spexSummarySchema.parse(JSON.parse(source.conversation(idOf(0))!.json));
  assert.equal(first.counts.sent, LINES / 2, 'what a session sent is counted from its receiver\'s log');
});
