import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answerCheckOf, answerSerializer, encodesAsItParses } from './answerCheck.ts';
import { answerError } from './errors.ts';

// An answer's check (server/http/answerCheck.ts): zod's compiled parse where the schema's parse
// and encode are one function, encode where they are not.

/** Every zod schema shared/wire/ exports for answers (a query's schema parses a request instead). */
async function wireAnswerSchemas(): Promise<[string, z.ZodType][]> {
  const folder = new URL('../../shared/wire/', import.meta.url);
  const found: [string, z.ZodType][] = [];
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
    const module = (await import(new URL(file, folder).href)) as Record<string, unknown>;
    for (const [name, one] of Object.entries(module)) {
      if (one instanceof z.ZodType && !/(Query|Filters)Schema$/.test(name)) found.push([`${file} ${name}`, one]);
    }
  }
  return found;
}

describe('an answer checked by its schema', () => {
  it('every answer schema the wire exports is checked by zod\'s compiled parse', async () => {
    const schemas = await wireAnswerSchemas();
    assert.ok(schemas.length >= 40, `found ${schemas.length}`);
    for (const [name, schema] of schemas) {
      assert.ok(encodesAsItParses(schema), `${name} holds a step that differs by direction`);
      assert.doesNotThrow(() => z.compile(schema, { strict: true }), name);
    }
  });

  it('a schema with a codec is checked in encode\'s direction, as the value is to be sent', () => {
    const isoDate = z.codec(z.iso.datetime(), z.date(), { decode: (text) => new Date(text), encode: (date) => date.toISOString() });
    const schema = z.object({ at: isoDate, kind: z.string().default('sent') });
    assert.equal(encodesAsItParses(schema), false);
    const checked = answerCheckOf(schema)({ at: new Date(0), kind: 'received' });
    assert.deepEqual(checked, { success: true, data: { at: '1970-01-01T00:00:00.000Z', kind: 'received' } });
  });

  it('members the schema does not name are dropped, and a value it refuses is refused, by the compiled check', () => {
    const schema = z.object({ items: z.array(z.discriminatedUnion('kind', [z.object({ kind: z.literal('text'), text: z.string() }), z.object({ kind: z.literal('gap'), missing: z.number().int() })])) });
    assert.equal(encodesAsItParses(schema), true);
    const check = answerCheckOf(schema);
    const kept = check({ items: [{ kind: 'text', text: 'hi', receipt: 'private' }, { kind: 'gap', missing: 2, secret: 's' }], token: 't' });
    assert.deepEqual(kept, { success: true, data: { items: [{ kind: 'text', text: 'hi' }, { kind: 'gap', missing: 2 }] } });
    const refused = check({ items: [{ kind: 'gap', missing: 1.5 }] });
    assert.equal(refused.success, false);
    assert.equal(check({ items: [{ kind: 'other' }] }).success, false);
  });

  it('a route\'s answer is sent as its schema keeps it, and one the schema refuses is a 500 that sends none of it', async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(answerSerializer);
    app.setErrorHandler(answerError);
    const answerSchema = z.object({ name: z.string(), count: z.number().int() });
    // The handler's answer is not what the schema's type says, as a bug would make it.
    const answers: Record<string, unknown> = { good: { name: 'a', count: 1, receipt: 'private' }, bad: { name: 'a', count: 'one', receipt: 'private' } };
    app.get('/:which', { schema: { response: { 200: answerSchema } } }, async (request) => answers[(request.params as { which: string }).which] as z.infer<typeof answerSchema>);
    try {
      const good = await app.inject({ method: 'GET', url: '/good' });
      assert.equal(good.statusCode, 200);
      assert.equal(good.body, '{"name":"a","count":1}');
      const bad = await app.inject({ method: 'GET', url: '/bad' });
      assert.equal(bad.statusCode, 500);
      assert.equal(JSON.parse(bad.body).message, 'the answer did not match its schema; the server logged why');
      assert.doesNotMatch(bad.body, /private|one/);
    } finally {
      await app.close();
    }
  });
});
