import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// The command's address, bound before the rest of the server loads. Loading fastify, zod and the
// wire's schemas and building the app is most of a start's work before its first answer
// (docs/performance.md, "The first answer, eighth round"); a browser opening the address, or a
// client that connects, did nothing meanwhile, since the address was printed only once the app
// listened. Now the port is bound, and the address printed, first: a request that comes before
// the app is built is held, and handed to it once it is, so it meets every check (Host, Origin,
// the token) that any request meets. This module loads nothing but node:http.

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

export type EarlyListener = {
  server: Server;
  port: number;
  /** Set when the port asked for was taken and another was used. */
  portTakenInstead: number | null;
  /** The address without the token. */
  origin: string;
  /**
   * fastify's `serverFactory`: gives it this server, and keeps its handler for `open`. Until
   * then, the requests that come are held.
   */
  serverFactory(handler: RequestHandler): Server;
  /** Hands the requests held, in the order they came, and every one after, to the handler the app gave. */
  open(): void;
  /** Stops accepting connections, and resolves once the last has ended; held requests are dropped. */
  close(): Promise<void>;
  /** Ends every connection, busy or not, and says how many there were. */
  cutConnections(): number;
};

const PORT_TRIES = 20;
/**
 * Connections open at once, on every address together. Each holds a file descriptor, and the
 * stores are read through the same table: a process nearby that opened connections without end
 * would leave the watch and the reads failing with EMFILE, and a store's files told unreadable
 * where nothing was wrong with them. A browser keeps six or so (one an event stream), a client a
 * few: one past the bound is answered at once with a 503 and `retry-after`, and closed.
 */
const MAX_CONNECTIONS = 256;
/**
 * How long a connection may stay without having sent a whole request's headers, from when it
 * was accepted: one that sends nothing, or a byte now and then, is closed after it, so that it
 * does not hold its place under the bound. (Node's own bound on a request's headers, 60 s,
 * counts nothing for a connection that sent no byte; a connection between requests is closed
 * after its keep-alive time, as before.)
 */
const FIRST_REQUEST_MS = 20_000;
const TOO_MANY_CONNECTIONS = [
  'HTTP/1.1 503 Service Unavailable',
  'content-type: text/plain; charset=utf-8',
  'retry-after: 1',
  'connection: close',
  'content-length: 55',
  '',
  'Too many connections are open to rec-dashboard at once.',
].join('\r\n');
/** fastify's own for the server it makes (a browser keeps a connection that long). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** fastify's own too, as the dashboard had before it bound its address early: no bound on reading a request (Node's is 300 s). */
const REQUEST_TIMEOUT_MS = 0;

/**
 * Listens on `host`, at `port` or, when `portFallback`, the next free one (up to 20 tries). Fails
 * as `server.listen` does (EADDRINUSE, EACCES, EADDRNOTAVAIL), with the port's error.
 */
export async function listenEarly(options: {
  host: string;
  port: number;
  portFallback: boolean;
  /** Tests' bounds on connections: MAX_CONNECTIONS and FIRST_REQUEST_MS unless given. */
  connections?: { max: number; firstRequestMs: number };
}): Promise<EarlyListener> {
  const { max, firstRequestMs } = options.connections ?? { max: MAX_CONNECTIONS, firstRequestMs: FIRST_REQUEST_MS };
  let handler: RequestHandler | null = null;
  let open = false;
  const held: { request: IncomingMessage; response: ServerResponse }[] = [];
  // Every connection open, on either address: what a cut ends.
  const connections = new Set<Socket>();
  // Connections accepted that have not yet sent a whole request's headers, and their deadline.
  const waitingForRequest = new Map<Socket, NodeJS.Timeout>();
  // Connections past the bound, answered with a 503 as they were accepted.
  const refused = new WeakSet<Socket>();
  const makeServer = () => {
    const made = createServer((request, response) => {
      // Answered already, before it was read: it does no work.
      if (refused.has(request.socket)) return void response.destroy();
      if (open && handler !== null) handler(request, response);
      else held.push({ request, response });
    });
    made.on('connection', (socket: Socket) => {
      if (connections.size >= max) {
        refused.add(socket);
        // Closed as soon as the answer is handed to the system: a client that keeps its side
        // open (or opens thousands a second) does not hold a descriptor meanwhile.
        socket.end(TOO_MANY_CONNECTIONS, () => socket.destroy());
        // Should the answer never be taken (it is a few hundred bytes, into an empty socket).
        setTimeout(() => socket.destroy(), 10_000).unref();
        return;
      }
      connections.add(socket);
      const silent = setTimeout(() => socket.destroy(), firstRequestMs);
      silent.unref();
      waitingForRequest.set(socket, silent);
      socket.once('close', () => {
        connections.delete(socket);
        clearTimeout(silent);
        waitingForRequest.delete(socket);
      });
    });
    made.on('request', (request: IncomingMessage) => {
      const silent = waitingForRequest.get(request.socket);
      if (silent === undefined) return;
      clearTimeout(silent);
      waitingForRequest.delete(request.socket);
    });
    made.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    made.requestTimeout = REQUEST_TIMEOUT_MS;
    return made;
  };
  const server = makeServer();

  let port = options.port;
  let portTakenInstead: number | null = null;
  for (let attempt = 0; ; attempt++) {
    try {
      await listenOnce(server, options.host === 'localhost' ? '127.0.0.1' : options.host, port);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && options.portFallback && attempt < PORT_TRIES) {
        portTakenInstead ??= options.port;
        port++;
        continue;
      }
      throw error;
    }
  }
  const bound = (server.address() as { port: number }).port;
  // As fastify listens on `localhost`: on IPv4's loopback and, where there is one, IPv6's, at one port.
  const servers = [server];
  if (options.host === 'localhost') {
    const alsoIpv6 = makeServer();
    await listenOnce(alsoIpv6, '::1', bound).then(
      () => servers.push(alsoIpv6),
      () => {},
    );
  }
  return {
    server,
    port: bound,
    portTakenInstead,
    origin: `http://${urlHost(options.host)}:${bound}/`,
    serverFactory(given) {
      handler = given;
      return server;
    },
    open() {
      if (handler === null) throw new Error('the app gave no handler: build it with serverFactory first');
      open = true;
      for (const { request, response } of held.splice(0)) if (!response.destroyed) handler(request, response);
    },
    cutConnections() {
      const open = connections.size;
      for (const socket of connections) socket.destroy();
      return open;
    },
    close() {
      for (const { response } of held.splice(0)) response.destroy();
      return Promise.all(servers.map((one) => new Promise<void>((resolve) => one.close(() => resolve())))).then(() => {});
    },
  };
}

function listenOnce(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => {
      server.off('listening', listening);
      reject(error);
    };
    const listening = () => {
      server.off('error', failed);
      resolve();
    };
    server.once('error', failed);
    server.once('listening', listening);
    server.listen({ host, port });
  });
}

/** The address to open: with the access token, when there is one. */
export function addressToOpen(origin: string, token: string | null): string {
  return token === null ? origin : `${origin}?token=${token}`;
}

/** Whether `host` listens on every address of the machine. */
export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

function urlHost(host: string): string {
  if (isWildcard(host)) return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
