import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './http/app.ts';
import { storeKindOf, type StoreSpec } from './sources/kinds.ts';
import { createSearchPool } from './search/searchPool.ts';
import { createLoopTurns } from './sources/loopTurns.ts';
import type { Source } from './sources/source.ts';

type DashboardOptions = {
  /** The stores to read, in the order given: the first holding a conversation id answers for it. */
  stores: StoreSpec[];
  host: string;
  port: number;
  /** Try the next ports when this one is taken (the port was not asked for). */
  portFallback: boolean;
  webRoot: string | null;
  /** The access token; null turns access control off. */
  token: string | null;
  reconcileIntervalMs?: number;
  /** A search's thread time before it answers with what it found (default SEARCH_BUDGET_MS, 3 s). */
  searchBudgetMs?: number;
  onError?: (message: string) => void;
};

export type Dashboard = {
  /** The address to open: with the access token, when there is one. */
  url: string;
  /** The address without the token. */
  origin: string;
  port: number;
  /** Set when the port asked for was taken and another was used. */
  portTakenInstead: number | null;
  sources: Source[];
  app: FastifyInstance;
  close(): Promise<void>;
};

const PORT_TRIES = 20;
/**
 * How long requests in progress may take to finish when the dashboard closes. After that their
 * connections are cut: a client that never finishes its request must not keep the server up.
 */
const CLOSE_GRACE_MS = 1_000;

/** Starts reading the stores and serving them. Listening happens before the first scans end. */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  // One pool of search threads for every store: a search's capacity is the machine's, not a kind's.
  const searchPool = createSearchPool(options.searchBudgetMs !== undefined ? { budgetMs: options.searchBudgetMs } : {});
  // One event loop, so one share of its turns: the app's hooks and exports and the sources' reads.
  const turns = createLoopTurns();
  // Each kind's source is loaded once a store of it is read (server/sources/kinds.ts).
  const factories = await Promise.all(options.stores.map((store) => storeKindOf(store.kind).loadSource()));
  const sources = options.stores.map((store, index) =>
    factories[index]!({
      root: store.root,
      searchPool,
      turns,
      ...(store.headStart !== undefined ? { headStart: store.headStart } : {}),
      ...(options.reconcileIntervalMs !== undefined ? { reconcileIntervalMs: options.reconcileIntervalMs } : {}),
      ...(options.onError !== undefined ? { onError: options.onError } : {}),
    }),
  );
  const closeSources = () => Promise.all(sources.map((source) => source.close()));
  const hostnames = isWildcard(options.host) ? [] : [options.host];
  const app = await buildApp({
    sources,
    webRoot: options.webRoot,
    hostnames,
    token: options.token,
    turns,
  });
  let port = options.port;
  let portTakenInstead: number | null = null;
  for (let attempt = 0; ; attempt++) {
    try {
      await app.listen({ host: options.host, port });
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' && options.portFallback && attempt < PORT_TRIES) {
        portTakenInstead ??= options.port;
        port++;
        continue;
      }
      await app.close();
      await closeSources();
      throw error;
    }
  }
  const bound = (app.server.address() as AddressInfo).port;
  // The API answers at once, with indexing progress, while the first scans run.
  for (const source of sources) {
    source.start().catch((error: unknown) => options.onError?.(`reading ${source.status().root} failed: ${(error as Error).message}`));
  }
  const origin = `http://${urlHost(options.host)}:${bound}/`;
  return {
    url: options.token === null ? origin : `${origin}?token=${options.token}`,
    origin,
    port: bound,
    portTakenInstead,
    sources,
    app,
    async close() {
      const cut = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      try {
        await app.close();
      } finally {
        clearTimeout(cut);
        await closeSources();
      }
    },
  };
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

function urlHost(host: string): string {
  if (isWildcard(host)) return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
