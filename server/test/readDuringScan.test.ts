import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sessionsResponseSchema } from '../../shared/wire/conversations.ts';
import { sacSeatResponseSchema, sacSeatSummarySchema } from '../../shared/wire/sac.ts';
import { spexSessionResponseSchema, spexSummarySchema } from '../../shared/wire/spex.ts';
import { startSacWriter } from '../../tools/writer/sacWriter.ts';
import { startSpexWriter } from '../../tools/writer/spexWriter.ts';
import { buildApp } from '../http/app.ts';
import { createSacSource } from '../sac/sacSource.ts';
import type { Source } from '../sources/source.ts';
import { createSpexSource } from '../spex/spexSource.ts';
import { createTestSearchPool, makeTempRecord } from './harness.ts';
import { PROJECT, sessionJson } from './spexHarness.ts';

// A store of 10,000 conversations, written by a real writer process, read by a source behind the
// product's HTTP app while requests keep arriving: whatever was asked during the first scan,
// "ready" means every conversation was read, and is listed, paged and searchable.

const COUNT = 10_000;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const seatOf = (n: number) => `agent-${n % 7}#${n.toString(16).padStart(8, '0')}`;
const sessionOf = (n: number) => `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;
const markerOf = (n: number) => `marker${String(n).padStart(5, '0')}x`;
/** Every 500th conversation and the last few: spread over the whole store, and the last read. */
const SAMPLE = [...Array.from({ length: COUNT / 500 }, (_, i) => i * 500 + 7), COUNT - 2, COUNT - 1];
/** Searched for: a search reads every text again, so a few spread over the store and the last. */
const SEARCHED = new Set([SAMPLE[0]!, SAMPLE[10]!, COUNT - 1]);

/** Starts the source behind the app and asks it everything a client asks until the scan is done. */
async function readWhileAsked(source: Source, conversationUrl: string, conversationOf: (n: number) => string): Promise<{ app: FastifyInstance; askedWhileScanning: number }> {
  const app = await buildApp({ sources: [source], webRoot: null, token: null });
  await app.ready();
  cleanups.push(() => app.close());
  cleanups.push(() => source.close());
  let ready = false;
  const started = source.start().then(() => (ready = true));
  let askedWhileScanning = 0;
  let round = 0;
  let n = 0;
  // Each answer that arrives before the scan ends counts, whichever request of its round it is: a
  // round's page can be answered while its search still reads, and the scan end meanwhile.
  const answered = <T,>(asked: Promise<T>): Promise<T> =>
    asked.then((answer) => {
      if (!ready) askedWhileScanning++;
      return answer;
    });
  while (!ready) {
    // A client's list and a page, a round every few tens of milliseconds, and a search every fourth round.
    const answers = await Promise.all([
      answered(app.inject({ method: 'GET', url: '/api/sessions' })),
      answered(app.inject({ method: 'GET', url: conversationUrl.replace('{n}', encodeURIComponent(conversationOf(n))) })),
      ...(round++ % 4 === 0 ? [answered(app.inject({ method: 'GET', url: `/api/search?q=${markerOf(n)}` }))] : []),
    ]);
    assert.ok(answers.every((answer) => answer.statusCode === 200 || answer.statusCode === 404), answers.map((answer) => answer.statusCode).join());
    n = (n + 331) % COUNT;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await started;
  assert.equal(source.status().indexing.state, 'ready');
  return { app, askedWhileScanning };
}

async function listed(app: FastifyInstance) {
  const response = await app.inject({ method: 'GET', url: '/api/sessions' });
  return sessionsResponseSchema.parse(JSON.parse(response.body)).projects.flatMap((project) => project.sessions);
}

async function hitsFor(app: FastifyInstance, n: number): Promise<unknown[]> {
  const response = await app.inject({ method: 'GET', url: `/api/search?q=${markerOf(n)}` });
  assert.equal(response.statusCode, 200, response.body);
  return JSON.parse(response.body).hits;
}

describe('a first scan while requests arrive', () => {
  it('a sac store of 10,000 seat files in 100 rooms, read while requests arrive: once ready, every seat is listed, paged and searchable', async () => {
    const store = makeTempRecord('sac-scan-');
    cleanups.push(() => store.remove());
    const writer = await startSacWriter(store.dir);
    cleanups.push(() => writer.close());
    await Promise.all(Array.from({ length: COUNT }, (_, n) => writer.send({ op: 'send', room: `room-${n % 100}`, seat: seatOf(n), ts: '2026-11-30T17:18:53.482+00:00', type: 'FACT', text: `hello from ${markerOf(n)}` })));
    const { app, askedWhileScanning } = await readWhileAsked(createSacSource({ root: store.dir, searchPool: createTestSearchPool() }), '/api/sessions/{n}', seatOf);
    assert.ok(askedWhileScanning > 0, 'requests were answered while the scan ran');
    const seats = (await listed(app)).map((json) => sacSeatSummarySchema.parse(json));
    assert.equal(seats.length, COUNT);
    assert.equal(seats.filter((seat) => seat.counts.sent === 1).length, COUNT, 'every seat has its entry');
    for (const n of SAMPLE) {
      const page = await app.inject({ method: 'GET', url: `/api/sessions/${encodeURIComponent(seatOf(n))}` });
      assert.equal(page.statusCode, 200, `${seatOf(n)}: ${page.body}`);
      assert.equal(sacSeatResponseSchema.parse(JSON.parse(page.body)).sent[0]?.text, `hello from ${markerOf(n)}`);
      if (SEARCHED.has(n)) assert.equal((await hitsFor(app, n)).length, 1, `${markerOf(n)} is found`);
    }
  });

  it('a spex home of 10,000 sessions, read while requests arrive: once ready, every session is listed, paged and searchable', async () => {
    const home = makeTempRecord('spex-scan-many-');
    cleanups.push(() => home.remove());
    const writer = await startSpexWriter(home.dir);
    cleanups.push(() => writer.kill());
    await Promise.all(
      Array.from({ length: COUNT }, (_, n) => [
        writer.send({ op: 'session', project: PROJECT, sessionId: sessionOf(n), value: sessionJson(sessionOf(n)) }),
        writer.send({ op: 'event', project: PROJECT, sessionId: sessionOf(n), event: { ts: '2026-11-30T17:18:53.482Z', kind: 'sent', mid: `m${n}`, text: `hello from ${markerOf(n)}`, from: null } }),
      ]).flat(),
    );
    const { app, askedWhileScanning } = await readWhileAsked(createSpexSource({ root: home.dir, reconcileIntervalMs: 60_000, searchPool: createTestSearchPool() }), '/api/sessions/{n}', sessionOf);
    assert.ok(askedWhileScanning > 0, 'requests were answered while the scan ran');
    const sessions = (await listed(app)).map((json) => spexSummarySchema.parse(json));
    assert.equal(sessions.length, COUNT);
    assert.equal(sessions.filter((session) => session.counts.received === 1).length, COUNT, 'every session has its line');
    for (const n of SAMPLE) {
      const page = await app.inject({ method: 'GET', url: `/api/sessions/${sessionOf(n)}` });
      assert.equal(page.statusCode, 200, `${sessionOf(n)}: ${page.body}`);
      const item = spexSessionResponseSchema.parse(JSON.parse(page.body)).items[0];
      assert.equal(item?.type === 'received' && item.text, `hello from ${markerOf(n)}`);
      if (SEARCHED.has(n)) assert.equal((await hitsFor(app, n)).length, 1, `${markerOf(n)} is found`);
    }
  });
});
