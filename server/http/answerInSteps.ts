import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LoopTurns } from '../sources/loopTurns.ts';
import { answerCheckOf } from './answerCheck.ts';

// An answer with a long list (a page's items, a search's hits, a view's rows), checked by its
// route's schema and serialized a slice of the list a step, each step in a turn of the event loop
// (server/sources/loopTurns.ts). Checked and serialized whole, a page of a hundred items was one
// step of 10–27 ms, and its write to the socket (one string made UTF-8) another of 10–14 ms:
// a refusal that arrived meanwhile waited for both. The bytes are the same JSON.stringify makes.

/** A list's items checked and serialized in one step. */
const SLICE_ITEMS = 16;

/**
 * Sends `value` as the route's 200 answer. An object with one list longer than a slice is checked
 * and serialized a slice a step, the rest of it with every slice, so each step sees the whole
 * envelope as the schema does; any other value is sent as fastify sends it (one step).
 */
export async function sendInSteps(reply: FastifyReply, value: unknown, turns: LoopTurns): Promise<FastifyReply> {
  const schema = readAnswerSchema(reply);
  const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const long = object === null ? [] : Object.entries(object).filter(([, one]) => Array.isArray(one) && one.length > SLICE_ITEMS);
  if (schema === null || object === null || long.length !== 1) return reply.send(value);
  const [key, list] = long[0] as [string, unknown[]];
  // The first slice is checked with the envelope; the others by the list's own schema, when the
  // route's is an object that names one (the envelope checked again with every slice was a third
  // of a page's checking).
  const listSchema = listSchemaOf(schema, key);
  const checkWhole = answerCheckOf(schema);
  const checkList = listSchema === null ? checkWhole : answerCheckOf(listSchema);
  const chunks: Buffer[] = [];
  let envelope: Record<string, unknown> = {};
  for (let at = 0; at < list.length; at += SLICE_ITEMS) {
    await turns.take('finish');
    const slice = list.slice(at, at + SLICE_ITEMS);
    const checked = at === 0 || listSchema === null ? checkWhole({ ...object, [key]: slice }) : checkList(slice);
    if (!checked.success) throw new ResponseSerializationError(reply.request.method, reply.request.url, { cause: checked.error });
    if (at === 0 || listSchema === null) envelope = checked.data as Record<string, unknown>;
    const items = Array.isArray(checked.data) ? checked.data : (envelope[key] as unknown[]);
    chunks.push(serializeSlice(items, at === 0));
  }
  // The envelope's members in the schema's order, as JSON.stringify writes them: the list in its place.
  const members = Object.entries(envelope).filter(([, one]) => one !== undefined && typeof one !== 'function' && typeof one !== 'symbol');
  const at = members.findIndex(([name]) => name === key);
  const write = (part: [string, unknown][]) => part.map(([name, one]) => `${JSON.stringify(name)}:${JSON.stringify(one)}`).join(',');
  const before = write(members.slice(0, at));
  const after = write(members.slice(at + 1));
  chunks.unshift(Buffer.from(`{${before}${before === '' ? '' : ','}${JSON.stringify(key)}:[`));
  chunks.push(Buffer.from(`]${after === '' ? '' : ','}${after}}`));
  const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  return reply.type('application/json; charset=utf-8').header('content-length', bytes).send(Readable.from(chunks, { objectMode: false }));
}

/**
 * A slice's items as JSON, comma-separated (and led by a comma unless `first`), in one buffer.
 * Each item is made UTF-8 alone: joined first, one character outside Latin-1 in one item made the
 * whole slice's text two bytes a character, and its encoding ~2× slower than the items' one by one
 * (measured on a page of the 100,000-entry session: 1.0 against 2.3–2.4 ms for 200 items). Each
 * is written into the slice's buffer rather than made a buffer of its own and copied: a buffer's
 * bytes are memory outside V8's heap, and V8 starts a full collection for every ~64 MB of it; a
 * page's made the collector mark its whole heap every ~100 pages (docs/performance.md,
 * nineteenth round).
 */
function serializeSlice(items: readonly unknown[], first: boolean): Buffer {
  const texts = items.map((one) => JSON.stringify(one) ?? 'null');
  const commas = first ? Math.max(0, texts.length - 1) : texts.length;
  let bytes = commas;
  for (const text of texts) bytes += Buffer.byteLength(text);
  const slice = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (const text of texts) {
    if (at > 0 || !first) slice[at++] = 0x2c;
    at += slice.write(text, at);
  }
  return slice;
}

/** The schema of the list at `key`, when `schema` is an object whose member there is an array. */
function listSchemaOf(schema: z.ZodType, key: string): z.ZodType | null {
  if (!(schema instanceof z.ZodObject)) return null;
  const member = (schema.shape as Record<string, z.ZodType>)[key];
  return member instanceof z.ZodArray ? member : null;
}

/** The route's schema for a 200 answer, or null when it declares none. */
function readAnswerSchema(reply: FastifyReply): z.ZodType | null {
  if (reply.statusCode !== 200) return null;
  const answers = reply.request.routeOptions.schema?.response as Record<string, unknown> | undefined;
  const schema = answers?.['200'];
  return schema instanceof z.ZodType ? schema : null;
}
