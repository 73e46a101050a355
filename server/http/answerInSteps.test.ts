import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isoAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { WIRE_KINDS, pageResponseSchema } from '../../shared/wire/kinds.ts';
import { searchResponseSchema } from '../../shared/wire/search.ts';
import { startWriter } from '../../tools/writer/writerClient.ts';
import { createRecordSource } from '../record/recordSource.ts';
import { createLoopTurns } from '../sources/loopTurns.ts';
import type { Source } from '../sources/source.ts';
import { makeTempRecord } from '../test/harness.ts';
import { buildApp } from './app.ts';
import { answerSerializer } from './answerCheck.ts';
import { sendInSteps } from './answerInSteps.ts';
import { answerError } from './errors.ts';

// A long list is checked and serialized a slice a step (server/http/answerInSteps.ts): the bytes
// sent are the ones the route's schema and JSON.stringify make of the whole answer in one step.

const record = makeTempRecord('rec-answer-steps-');
/** More items than several slices, and a last slice that is not full. */
const ITEMS = 53;
/** Odd texts: what JSON escapes, and what is not one byte of UTF-8. */
const TEXTS = ['plain', 'a "quoted" line\nand a tab\t', 'ünïcödé — 日本語 🎉', '</script><b>inert</b>', 'a \\ backslash'];

before(async () => {
  const writer = await startWriter(record.dir);
  await writer.send({ op: 'write', sessionId: 'many', seq: 1, entry: startEntry(0, { sessionId: 'many' }) });
  for (let i = 1; i < ITEMS; i++) {
    const text = `${TEXTS[i % TEXTS.length]!} needle ${i}`;
    await writer.send({ op: 'write', sessionId: 'many', seq: i + 1, entry: sentEntry(1, text, { sessionId: 'many', at: isoAt(1, i) }) });
  }
  await writer.kill('SIGTERM');
});

after(() => record.remove());

describe('answers with a long list, in steps', () => {
  it('a page serialized a slice at a time is the very bytes of the page serialized whole, its length told', async () => {
    const source = createRecordSource({ root: record.dir, turns: createLoopTurns(0.001) });
    await source.start();
    const app = await buildApp({ sources: [source as Source], webRoot: null, token: null, turns: createLoopTurns(0.001) });
    try {
      const response = await app.inject({ method: 'GET', url: `/api/sessions/many?limit=${ITEMS}` });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^application\/json; charset=utf-8$/);
      assert.equal(Number(response.headers['content-length']), response.rawPayload.length);
      const page = await source.page('many', WIRE_KINDS.record.page.query.parse({ limit: String(ITEMS) }), new AbortController().signal);
      const whole = JSON.stringify(z.encode(pageResponseSchema, page as z.output<typeof pageResponseSchema>));
      assert.equal(JSON.parse(response.body).items.length, ITEMS);
      assert.equal(response.body, whole);
    } finally {
      await app.close();
      await source.close();
    }
  });

  it('a search with many hits serialized a slice at a time is the very bytes of the answer serialized whole', async () => {
    const source = createRecordSource({ root: record.dir, turns: createLoopTurns(0.001) });
    await source.start();
    const app = await buildApp({ sources: [source as Source], webRoot: null, token: null, turns: createLoopTurns(0.001) });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/search?q=needle&limit=100' });
      assert.equal(response.statusCode, 200);
      const answer = searchResponseSchema.parse(JSON.parse(response.body));
      assert.equal(answer.hits.length, ITEMS - 1, 'every text with the word was found');
      assert.equal(response.body, JSON.stringify(z.encode(searchResponseSchema, answer)));
    } finally {
      await app.close();
      await source.close();
    }
  });

  it('an item that fails the route\'s schema in any slice, not only the first, is refused and never sent', async () => {
    const answerSchema = z.object({ schema: z.literal('steps/1'), items: z.array(z.object({ n: z.number() })), total: z.number() });
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(answerSerializer);
    app.setErrorHandler(answerError);
    const turns = createLoopTurns(0.001);
    const items = (bad: number | null) => Array.from({ length: ITEMS }, (_, n) => ({ n: n === bad ? String(n) : n }));
    app.get('/:bad', { schema: { response: { 200: answerSchema } } }, async (request, reply) => {
      const { bad } = request.params as { bad: string };
      return sendInSteps(reply, { schema: 'steps/1', items: items(bad === 'none' ? null : Number(bad)), total: ITEMS }, turns);
    });
    try {
      const good = await app.inject({ method: 'GET', url: '/none' });
      assert.equal(good.statusCode, 200);
      assert.equal(good.body, JSON.stringify({ schema: 'steps/1', items: items(null), total: ITEMS }));
      // The first slice, one in the middle, and the last, which is not full.
      for (const bad of [3, 20, ITEMS - 1]) {
        const refused = await app.inject({ method: 'GET', url: `/${bad}` });
        assert.equal(refused.statusCode, 500, `item ${bad}`);
        assert.equal(JSON.parse(refused.body).message, 'the answer did not match its schema; the server logged why');
        assert.doesNotMatch(refused.body, /"n":/);
      }
    } finally {
      await app.close();
    }
  });
});
