import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createLoopTurns, type LoopTurns } from '../sources/loopTurns.ts';
import type { Source } from '../sources/source.ts';
import { answerSerializer } from './answerCheck.ts';
import { decideAccess, sendAccessCookie, sendAccessDenied } from './access.ts';
import { EXPORT_QUEUE, SEARCH_QUEUE, createAdmission, type Admission } from './admission.ts';
import { createSourceLookup } from './answer.ts';
import { registerConversationRoutes } from './conversationRoutes.ts';
import { answerError, answerUnroutable } from './errors.ts';
import { registerEventRoutes } from './eventRoutes.ts';
import { registerExportRoutes } from './exportRoutes.ts';
import { registerMapRoutes } from './mapRoutes.ts';
import { hostnameOf, isAllowedHostname, isSameOrigin } from './hostCheck.ts';
import { registerSearchRoutes } from './searchRoutes.ts';
import { SECURITY_HEADERS } from './securityHeaders.ts';
import { registerSessionRoutes } from './sessionRoutes.ts';
import { registerViewRoutes } from './viewRoutes.ts';
import { createWebFiles } from './webFiles.ts';

type AppOptions = {
  /** The stores it serves, each of its kind; the app knows none of their rules. */
  sources: readonly Source[];
  /** The built web UI; when it is missing, `/` says how to build it. */
  webRoot: string | null;
  /** Host names, besides localhost and IP literals, that requests may name (`--host`). */
  hostnames?: Iterable<string>;
  /** The access token every request must carry; null turns access control off. */
  token: string | null;
  logger?: boolean;
  /** How many searches and exports run and wait at once (server/http/admission.ts); more are refused. */
  queues?: { searches?: Admission; exports?: Admission };
  /** The event loop's turns, shared with the sources' reads (server/sources/loopTurns.ts); else the app's own. */
  turns?: LoopTurns;
  /** A server bound already, for the app to serve (server/http/earlyListen.ts); else fastify makes its own. */
  serverFactory?: FastifyServerFactory;
};

/**
 * Session ids and file names come in the URL's path. A folder or file name is up to 255 bytes,
 * and one whose bytes are not UTF-8 is shown with each such byte as `\xHH`: 4 characters a byte.
 * The router's default of 100 characters answered 414 to real names.
 */
const MAX_NAME_CHARS = 255 * 4;

/** Stands in for fastify's own compilers, which the app never asks for: it sets zod's. */
function refuseOwnCompiler(): never {
  throw new Error('the app checks and serializes with the zod schemas of shared/wire/, not with fastify\'s own compilers');
}

/** Builds the HTTP app. It never listens: the command (or a test) does. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  // fastify's own compilers (ajv, fast-json-stringify) are never loaded: every route has zod's,
  // and loading them was ~80 ms of a start's CPU before its first answer.
  const compilersFactory = { buildValidator: refuseOwnCompiler, buildSerializer: refuseOwnCompiler };
  const fastify = Fastify({
    logger: options.logger ?? false,
    // An address the router cannot take (a %-escape that does not decode, a name past the longest
    // there can be) is answered before any hook: it passes the same door and carries the same
    // headers, rather than fastify's own answer without either.
    frameworkErrors: (error, request, reply) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
      return door(request, reply) ?? answerUnroutable(error, reply);
    },
    routerOptions: { maxParamLength: MAX_NAME_CHARS },
    schemaController: { compilersFactory },
    ...(options.serverFactory !== undefined ? { serverFactory: options.serverFactory } : {}),
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const lookup = createSourceLookup(options.sources);
  // Every route declares its params, query and answers with the schemas the browser parses with
  // (shared/wire/): a query is checked, and an answer checked and serialized, by the same ones
  // (an answer's check: answerCheck.ts).
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer);
  app.setErrorHandler(answerError);
  const names = new Set([...(options.hostnames ?? [])].map((name) => name.toLowerCase()));

  // The door, before anything else: Host, Origin, then the token.
  const door = (request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
    const host = request.headers.host ?? '';
    if (!isAllowedHostname(hostnameOf(host), names)) {
      return reply.code(403).type('text/plain; charset=utf-8').send(
        `rec-dashboard answers only to localhost, IP addresses and the --host it was given, not to "${host}".\n`,
      );
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isSameOrigin(origin, host)) {
      return reply.code(403).type('text/plain; charset=utf-8').send('Requests from other sites are refused.\n');
    }
    const access = decideAccess(request, options.token);
    if (access.type === 'exchange') return sendAccessCookie(reply, request, options.token!, access.location);
    if (access.type === 'deny') return sendAccessDenied(reply, request);
    return undefined;
  };
  app.addHook('onRequest', async (request, reply) => door(request, reply));
  // `?source=` picks a store: a link made for another store (or another dashboard's) must not
  // be answered with this one's session of the same id.
  app.addHook('preHandler', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const asked = (request.query as Record<string, unknown> | undefined)?.['source'];
    if (asked !== undefined && !options.sources.some((source) => source.ref.id === asked)) {
      return reply.code(404).send({ error: 'not-found', message: lookup.unknownWords() });
    }
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
    return payload;
  });

  // Before the server waits for requests in flight: searches, reads and exports are ended, not waited for.
  const stopping = new AbortController();
  app.addHook('preClose', (done) => {
    stopping.abort(new Error('the dashboard is stopping'));
    for (const source of options.sources) source.stopWork();
    done();
  });
  // Every request's work takes its turn of the event loop (server/sources/loopTurns.ts): before
  // its handler, and before its answer is checked and serialized (ahead of work not begun), and
  // an export before each of its chunks (behind both). Access, Host and Origin checks and a
  // refusal (onRequest) take none, nor does any error's few words: they are answered as their
  // request is read.
  const turns = options.turns ?? createLoopTurns();
  fastify.server.on('connection', () => turns.connectionAccepted());
  app.addHook('preHandler', () => turns.take('answer'));
  app.addHook('preSerialization', async (_request, reply, payload) => {
    if (reply.statusCode < 400) await turns.take('finish');
    return payload;
  });
  // Searches and exports wait in queues of their own; pages and items in none.
  const searches = options.queues?.searches ?? createAdmission(SEARCH_QUEUE);
  const exports = options.queues?.exports ?? createAdmission(EXPORT_QUEUE);
  registerConversationRoutes(app, options.sources, lookup, turns);
  registerViewRoutes(app, lookup, turns);
  registerSessionRoutes(app, options.sources, lookup, { stopping: stopping.signal, turns, exports });
  registerEventRoutes(app, options.sources);
  registerSearchRoutes(app, options.sources, { searches, turns });
  registerExportRoutes(app, options.sources, lookup, { stopping: stopping.signal, turns, searches, exports });
  registerMapRoutes(app, options.sources, turns);

  const webRoot = options.webRoot;
  const webFiles = webRoot !== null && existsSync(join(webRoot, 'index.html')) ? createWebFiles(webRoot) : null;
  if (webFiles === null) {
    app.get('/', async (_request, reply) =>
      reply.type('text/plain; charset=utf-8').send('The web UI is not built. Run `npm run build`, then start rec-dashboard again. The API is at /api/sessions.\n'),
    );
  }
  app.setNotFoundHandler((request, reply) => {
    // Every view has its own URL; a deep link is answered with the app, which routes itself.
    if (webFiles !== null && (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/')) return webFiles(request, reply);
    return reply.code(404).send({ error: 'not-found', message: 'no such route' });
  });
  return fastify;
}
