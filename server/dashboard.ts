import type { FastifyInstance } from 'fastify';
import type { PendingWindow } from '../shared/evidence.ts';
import { buildApp } from './http/app.ts';
import { addressToOpen, isWildcard, listenEarly, type EarlyListener } from './http/earlyListen.ts';
import { declareStoresSecrets, storeKindOf, type StoreSpec } from './sources/kinds.ts';
import { createSearchPool } from './search/searchPool.ts';
import { createLoopTurns } from './sources/loopTurns.ts';
import type { Source } from './sources/source.ts';

type DashboardOptions = PendingWindow & {
  /** The stores to read, in the order given: the first holding a conversation id answers for it. */
  stores: StoreSpec[];
  host: string;
  port: number;
  /** Try the next ports when this one is taken (the port was not asked for). */
  portFallback: boolean;
  /**
   * The address, bound already (the command binds it before it loads this module): its requests
   * are held until the app is built. Else the dashboard binds `host` and `port` itself.
   */
  listening?: EarlyListener;
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

/**
 * How long requests in progress may take to finish when the dashboard closes. After that their
 * connections are cut: a client that never finishes its request must not keep the server up.
 */
const CLOSE_GRACE_MS = 1_000;

/** Starts reading the stores and serving them. Listening happens before the first scans end. */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  // Before any store is read (the command declared them already, before its record's first scan).
  declareStoresSecrets(options.stores);
  const listening = options.listening ?? (await listenEarly(options));
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
      pendingWindowMs: options.pendingWindowMs,
      ...(store.headStart !== undefined ? { headStart: store.headStart } : {}),
      ...(options.reconcileIntervalMs !== undefined ? { reconcileIntervalMs: options.reconcileIntervalMs } : {}),
      ...(options.onError !== undefined ? { onError: options.onError } : {}),
    }),
  );
  const closeSources = () => Promise.all(sources.map((source) => source.close()));
  const hostnames = isWildcard(options.host) ? [] : [options.host];
  let app: FastifyInstance;
  try {
    app = await buildApp({
      sources,
      webRoot: options.webRoot,
      hostnames,
      token: options.token,
      turns,
      serverFactory: listening.serverFactory,
    });
    await app.ready();
  } catch (error) {
    await listening.close();
    await closeSources();
    throw error;
  }
  // The API answers at once, with indexing progress, while the first scans run.
  for (const source of sources) {
    source.start().catch((error: unknown) => options.onError?.(`reading ${source.status().root} failed: ${(error as Error).message}`));
  }
  // The requests that came while the app was built, and every one after: as before the address
  // was bound early, each is answered by sources that have started.
  listening.open();
  const { origin } = listening;
  return {
    url: addressToOpen(origin, options.token),
    origin,
    port: listening.port,
    portTakenInstead: listening.portTakenInstead,
    sources,
    app,
    async close() {
      const cut = setTimeout(() => {
        const count = listening.cutConnections();
        if (count > 0) options.onError?.(`${count === 1 ? '1 connection was' : `${count} connections were`} still open ${CLOSE_GRACE_MS / 1000} s after stopping began, and cut.`);
      }, CLOSE_GRACE_MS);
      try {
        // In fastify's order: its preClose hooks end the event streams and the work in flight,
        // and only then does the server stop listening and close the connections now idle. The
        // other way round, a stream's connection ended after the server had closed its idle ones,
        // and waited for the browser to close its side (or for the cut).
        // fastify closes a server it was given only if it listened on it: this one it did not.
        await app.close();
        await listening.close();
      } finally {
        clearTimeout(cut);
        await closeSources();
      }
    },
  };
}
