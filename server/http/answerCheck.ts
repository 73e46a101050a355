import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

// Every answer is checked by its route's schema (shared/wire/) before a byte of it is sent: what
// the schema does not name is dropped, and what it refuses is never sent. The check is done in
// one place, here, for the answers fastify serializes whole and for those sent a slice a step
// (answerInSteps.ts).
//
// An answer is checked in zod's encode direction, as fastify-type-provider-zod does. For a schema
// that holds no transform, default, codec or other step that differs by direction (every answer
// schema on the wire today), encode and parse are one function, and parse has zod's compiled path
// (`z.compile`: code generated once per schema). On a page of the 100,000-entry session's items
// that check took 0.05–0.06 ms and made ~140 KB of garbage, against 0.23 ms and ~590 KB by
// encode (docs/performance.md, nineteenth round). A schema is compiled the first time an answer
// of it is sent (12–24 ms for a page's; the first answer of a start, the list of sessions, is
// made as bytes and has none); one that holds any other step is checked by encode as before.

type AnswerCheck = (value: unknown) => z.ZodSafeParseResult<unknown>;

const checks = new WeakMap<z.ZodType, AnswerCheck>();

/** The check of answers by `schema`: the value as it is to be serialized, or why it was refused. */
export function answerCheckOf(schema: z.ZodType): AnswerCheck {
  let check = checks.get(schema);
  if (check === undefined) {
    if (encodesAsItParses(schema)) {
      const compiled = z.compile(schema);
      check = (value) => z.safeParse(compiled, value);
    } else {
      check = (value) => z.safeEncode(schema, value);
    }
    checks.set(schema, check);
  }
  return check;
}

/** fastify's serializer for a route's answers: checked by answerCheckOf, then JSON.stringify. */
export const answerSerializer: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  if (!(schema instanceof z.ZodType)) throw new TypeError(`${method} ${url}: an answer's schema must be a zod schema`);
  return (data) => {
    const checked = answerCheckOf(schema)(data);
    if (!checked.success) throw new ResponseSerializationError(method, url, { cause: checked.error });
    return JSON.stringify(checked.data);
  };
};

/**
 * The kinds of schema whose parse and encode are the same: each checks a value and copies it
 * (without the members an object does not name), passes it to its parts unchanged, or (custom)
 * checks it with a function and passes it on as it is. Any other kind (transform, pipe and codec,
 * default, prefault, catch, lazy…) makes a schema checked by encode; a kind zod adds later is in
 * that group until it is named here.
 */
const SAME_BOTH_WAYS = new Set([
  'string', 'number', 'int', 'boolean', 'null', 'undefined', 'unknown', 'any', 'never', 'literal', 'enum',
  'object', 'array', 'tuple', 'record', 'union', 'intersection', 'optional', 'nullable', 'readonly', 'custom',
]);

/** Whether every part of `schema` is of a kind whose parse and encode are the same. */
export function encodesAsItParses(schema: z.ZodType): boolean {
  const seen = new Set<unknown>();
  const visit = (part: unknown): boolean => {
    if (!(part instanceof z.core.$ZodType)) return true;
    if (seen.has(part)) return true;
    seen.add(part);
    const def = part._zod.def as unknown as Record<string, unknown>;
    if (!SAME_BOTH_WAYS.has(String(def['type']))) return false;
    return Object.entries(def).every(([key, one]) => {
      if (key === 'shape' && one !== null && typeof one === 'object') return Object.values(one).every(visit);
      if (Array.isArray(one)) return one.every(visit);
      return visit(one);
    });
  };
  return visit(schema);
}
