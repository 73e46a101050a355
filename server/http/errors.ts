import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { errorResponseSchema } from '../../shared/wire/common.ts';

// One answer for everything that is not a value, with one body, `{ error, message }`
// (errorResponseSchema): a query the route's or the kind's schema refuses is a 400 that says
// what is expected, whichever route and kind it is.

/** A request that asks for something that cannot be: answered 400 with `message`. */
export class BadRequest extends Error {}

type Issue = { path: string; message: string };

/** Issues in words: each names its field, unless its message already begins with it. */
function describeIssues(issues: readonly Issue[]): string {
  return issues
    .map(({ path, message }) => (path === '' || message.startsWith(path) ? message : `${path}: ${message}`))
    .join('; ');
}

/** A query checked against the schema of the kind of the source it addresses; a BadRequest when it is refused. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const parsed = schema.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  throw new BadRequest(describeIssues(parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))));
}

export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof BadRequest) return reply.code(400).send({ error: 'bad-request', message: error.message });
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((issue) => ({ path: issue.instancePath.split('/').filter((part) => part !== '').join('.'), message: issue.message ?? 'not valid' }));
    return reply.code(400).send({ error: 'bad-request', message: describeIssues(issues) });
  }
  const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    // An answer that does not match its schema is a fault here: what was wrong is logged, not sent.
    const message = error.code === 'FST_ERR_RESPONSE_SERIALIZATION' ? 'the answer did not match its schema; the server logged why' : error.message;
    return reply.code(status).send({ error: 'internal', message });
  }
  return reply.code(status).send({ error: status === 404 ? 'not-found' : 'bad-request', message: error.message });
}

/**
 * An address the router could not take, answered in the same words as any other refusal: a
 * %-escape that does not decode (400), or a name longer than any folder or file name (414).
 */
export function answerUnroutable(error: FastifyError, reply: FastifyReply): FastifyReply {
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, 'A name in this address is longer than any folder or file name can be.']
      : error.code === 'FST_ERR_BAD_URL'
        ? [400, 'This address is not valid: a %-escape in its path does not decode.']
        : [500, error.message];
  const body: z.input<typeof errorResponseSchema> = { error: status === 500 ? 'internal' : 'bad-request', message };
  return reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(body));
}
