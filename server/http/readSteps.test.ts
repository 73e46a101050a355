import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isoAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { sessionResponseSchema } from '../../shared/wire/record.ts';
import { startWriter } from '../../tools/writer/writerClient.ts';
import { createRecordSource } from '../record/recordSource.ts';
import { createSpexSource } from '../spex/spexSource.ts';
import { A, PROJECT, sentEvent, sessionJson } from '../test/spexHarness.ts';
import { startSpexWriter } from '../../tools/writer/spexWriter.ts';
import { createLoopTurns, type LoopTurns } from '../sources/loopTurns.ts';
import type { Source } from '../sources/source.ts';
import { makeTempRecord } from '../test/harness.ts';
import { createAdmission } from './admission.ts';
import { buildApp } from './app.ts';

// A page's files are read a file a step, each step in a turn of the event loop shared with every
// request (server/sources/loopTurns.ts), so what arrives while a page of many files is read is
// read before the page is done. Turns of a microsecond make each step a turn of its own: the
// order of what happens is counted, never timed.

const record = makeTempRecord('rec-read-steps-');
const FILES = 120;
/** Lines of a spex timeline: several of a page's steps. */
const SPEX_LINES = 60;

before(async () => {
  const writer = await startWriter(record.dir);
  await writer.send({ op: 'write', sessionId: 'long', seq: 1, entry: startEntry(0, { sessionId: 'long' }) });
  for (let i = 1; i <= FILES; i++) await writer.send({ op: 'write', sessionId: 'long', seq: i + 1, entry: sentEntry(1, `message ${i} of a long session`, { sessionId: 'long', at: isoAt(1 + Math.floor(i / 100), i % 100) }) });
  await writer.kill('SIGTERM');
});

after(() => record.remove());

/** An answer read off a raw socket: its status line and headers, and its body once the server closes. */
function readAnswer(socket: Socket): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      resolve({ head: text.slice(0, at), body: text.slice(at + 4) });
    });
  });
}

function connected(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Asks for a page of `source`'s conversation and, once the page's work has begun, for an export
 * that is refused as it arrives; says whether the page's work was done when the refusal was
 * decided. `during`: the page's reads (the export is asked as its handler starts), or its
 * serializing (asked by the first step that serializes it, which goes at once: on a loop that
 * serializes a page in one step, the page is serialized whole before the export's bytes are read).
 */
async function refuseDuringPage(source: Source, real: LoopTurns, pagePath: string, exportPath: string, during: 'reading' | 'serializing' = 'reading'): Promise<{ refused: { head: string }; page: { head: string; body: string }; pageReadAtRefusal: boolean[] }> {
  let pageRead = false;
  let pageSerialized = false;
  let askExport = () => {};
  const seen = {
    ...source,
    async page(id: string, query: never, signal: AbortSignal) {
      const page = await source.page(id, query, signal);
      pageRead = true;
      return page;
    },
  } as Source;
  let asked = false;
  const turns: LoopTurns = {
    ...real,
    take(lane) {
      if (during !== 'serializing' || lane !== 'finish' || !pageRead || asked) return real.take(lane);
      asked = true;
      askExport();
      return Promise.resolve();
    },
  };
  // Every export is refused as it arrives: the refusal is what waits, or does not.
  const exports = createAdmission({ work: 'exports', running: 0, waiting: 0, retryAfterSeconds: 3 });
  const pageReadAtRefusal: boolean[] = [];
  const app = await buildApp({
    sources: [seen],
    webRoot: null,
    token: null,
    turns,
    queues: {
      exports: {
        ...exports,
        async admit(request, reply) {
          pageReadAtRefusal.push(during === 'reading' ? pageRead : pageSerialized);
          await exports.admit.call(this, request, reply);
        },
      },
    },
  });
  app.addHook('onClose', () => source.close());
  app.addHook('preHandler', async (request) => {
    if (during === 'reading' && request.url === pagePath) askExport();
  });
  // onSend sees the page's bytes once they are all made (a stream of them, or one string).
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.url === pagePath) pageSerialized = true;
    return payload;
  });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as { port: number }).port;
    const [forPage, forExport] = await Promise.all([connected(port), connected(port)]);
    // Its bytes reach the server at once, while the page's work is under way.
    askExport = () => forExport.write(`GET ${exportPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    const refusal = readAnswer(forExport);
    const page = readAnswer(forPage);
    forPage.write(`GET ${pagePath} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    const [refused, answered] = await Promise.all([refusal, page]);
    return { refused, page: answered, pageReadAtRefusal };
  } finally {
    await app.close();
  }
}

describe('the reads of a page, in steps', () => {
  it('a refusal that arrives while a record page of many files is being read is answered before the page is read whole', async () => {
    const turns = createLoopTurns(0.001);
    const source = createRecordSource({ root: record.dir, turns });
    await source.start();
    const { refused, page, pageReadAtRefusal } = await refuseDuringPage(source as Source, turns, `/api/sessions/long?limit=${FILES + 1}`, '/api/sessions/long/export?format=ndjson');
    assert.match(refused.head, /^HTTP\/1\.1 503/);
    assert.match(refused.head, /\r\nretry-after: 3(\r\n|$)/i);
    assert.match(page.head, /^HTTP\/1\.1 200/);
    const body = sessionResponseSchema.parse(JSON.parse(page.body));
    assert.equal(body.items.filter((item) => item.type === 'file' && item.evidence === 'parsed').length, FILES + 1, 'the page read every file');
    assert.deepEqual(pageReadAtRefusal, [false], 'the refusal was decided while the page was still being read');
  });

  it('a refusal that arrives while a spex page of many lines is being read is answered before the page is read whole', async () => {
    const home = makeTempRecord('rec-read-steps-spex-');
    const writer = await startSpexWriter(home.dir);
    try {
      await writer.send({ op: 'session', project: PROJECT, sessionId: A, value: sessionJson(A) });
      for (let i = 0; i < SPEX_LINES; i++) await writer.send({ op: 'event', project: PROJECT, sessionId: A, event: sentEvent(`line ${i} of a long timeline`, null) });
      const turns = createLoopTurns(0.001);
      const source = createSpexSource({ root: home.dir, turns });
      await source.start();
      const id = encodeURIComponent(source.ref.id);
      const { refused, page, pageReadAtRefusal } = await refuseDuringPage(source as Source, turns, `/api/sources/${id}/conversations/${A}?limit=${SPEX_LINES}`, `/api/sources/${id}/conversations/${A}/export?format=ndjson`);
      assert.match(refused.head, /^HTTP\/1\.1 503/);
      assert.match(page.head, /^HTTP\/1\.1 200/);
      assert.equal((JSON.parse(page.body) as { items: unknown[] }).items.length, SPEX_LINES, 'the page read every line');
      assert.deepEqual(pageReadAtRefusal, [false], 'the refusal was decided while the page was still being read');
    } finally {
      await writer.kill();
      home.remove();
    }
  });

  it('a refusal that arrives while a page of many items is being serialized is answered before the page is serialized whole', async () => {
    const turns = createLoopTurns(0.001);
    const source = createRecordSource({ root: record.dir, turns });
    await source.start();
    const { refused, page, pageReadAtRefusal } = await refuseDuringPage(source as Source, turns, `/api/sessions/long?limit=${FILES + 1}`, '/api/sessions/long/export?format=ndjson', 'serializing');
    assert.match(refused.head, /^HTTP\/1\.1 503/);
    assert.match(page.head, /^HTTP\/1\.1 200/);
    assert.equal(sessionResponseSchema.parse(JSON.parse(page.body)).items.length, FILES + 1, 'the page holds every item');
    assert.deepEqual(pageReadAtRefusal, [false], 'the refusal was decided while the page was still being serialized');
  });
});
