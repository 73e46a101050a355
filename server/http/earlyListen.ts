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
/** fastify's own for the server it makes (a browser keeps a connection that long). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** fastify's own too, as the dashboard had before it bound its address early: no bound on reading a request (Node's is 300 s). */
const REQUEST_TIMEOUT_MS = 0;

/**
 * Listens on `host`, at `port` or, when `portFallback`, the next free one (up to 20 tries). Fails
 * as `server.listen` does (EADDRINUSE, EACCES, EADDRNOTAVAIL), with the port's error.
 */
export async function listenEarly(options: { host: string; port: number; portFallback: boolean }): Promise<EarlyListener> {
  let handler: RequestHandler | null = null;
  let open = false;
  const held: { request: IncomingMessage; response: ServerResponse }[] = [];
  // Every connection open, on either address: what a cut ends.
  const connections = new Set<Socket>();
  const makeServer = () => {
    const made = createServer((request, response) => {
      if (open && handler !== null) handler(request, response);
      else held.push({ request, response });
    });
    made.on('connection', (socket: Socket) => {
      connections.add(socket);
      socket.once('close', () => connections.delete(socket));
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
