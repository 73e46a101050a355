import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { USAGE, parseCliArgs } from './cliArgs.ts';
import type { Dashboard } from './dashboard.ts';
import { startCompileCache } from './compileCache.ts';
import { createAccessToken, pageMovingOnTo } from './http/access.ts';
import { addressToOpen, listenEarly, type EarlyListener } from './http/earlyListen.ts';
import { startDemo, type Demo } from './demo/startDemo.ts';
import { reportUnforeseenFailures } from './unforeseenFailure.ts';
import { declareStoresSecrets, storeKindOf, type StoreSpec } from './sources/kinds.ts';
import { describeStoresNearby, recognizeStore } from './sources/recognize.ts';

/**
 * How long stopping may take. Closing the dashboard cuts the connections still busy after its
 * own grace, so this is only reached if something hangs.
 */
const STOP_DEADLINE_MS = 1_900;

/** Runs the `rec-dashboard` command. Every failure is one line that says what to do. */
export async function main(argv: string[]): Promise<void> {
  const command = parseCliArgs(argv, process.env);
  switch (command.type) {
    case 'help':
      console.log(USAGE);
      return;
    case 'version':
      console.log(`rec-dashboard ${readVersion()}`);
      return;
    case 'error':
      fail(`${command.message}. Run rec-dashboard --help for usage.`, 2);
      return;
    case 'run':
      break;
  }

  // A failure nobody foresaw still ends the command, as Node ends any process: said in its words first.
  reportUnforeseenFailures();
  let demo: Demo | null = null;
  let dashboard: Dashboard | null = null;
  // Installed before anything starts, so that an interrupt at any moment still closes the
  // server and removes the demo's temporary record.
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Whatever is attached or still going, the command ends in moments: it was asked to.
    setTimeout(() => {
      console.error('rec-dashboard: stopping took too long; exiting anyway.');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    await Promise.allSettled([dashboard?.close(), demo?.stop()]);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  let stores: StoreSpec[];
  /** The stores' folders the command line names, as against a kind's default place. */
  let typed = new Set<string>();
  if (command.dirs.length === 0 && command.named.length === 0) {
    demo = startDemo((code) => {
      console.error(`rec-dashboard: the demo writer stopped (exit code ${code}); the stores stay as they are.`);
    });
    stores = demo.stores;
  } else {
    const found = findStores(command.dirs, command.named);
    if ('problem' in found) fail(found.problem, 1);
    stores = found.stores;
    typed = new Set([...command.dirs, ...command.named.flatMap(({ dir }) => (dir === null ? [] : [dir]))].map((dir) => resolve(dir)));
  }

  // Before any store is read, on this thread or another: no reader opens a secret's other name.
  declareStoresSecrets(stores);
  // Before the scan threads start and the rest of the command loads: both compile from the cache.
  startCompileCache(stores.map((store) => store.root));
  const onError = (message: string) => console.error(`rec-dashboard: ${message}`);
  // A record's first scan begins before the rest of the command loads (the HTTP server, the other
  // kinds, the schemas), which takes a third of a second: its threads read meanwhile.
  stores = stores.map((store) => {
    const begin = storeKindOf(store.kind).begin;
    return begin === undefined ? store : { ...store, headStart: begin(store.root, onError) };
  });
  const token = command.token === 'generate' ? createAccessToken() : command.token;
  // The address is bound and printed before the rest of the command loads (the HTTP server, the
  // other kinds, the schemas): a browser opening it, or a client connecting, meanwhile has its
  // request held and answered once the app is built (server/http/earlyListen.ts).
  let listening: EarlyListener;
  try {
    listening = await listenEarly({ host: command.host, port: command.port, portFallback: command.portIsDefault });
  } catch (error) {
    await demo?.stop();
    failToStart(error as NodeJS.ErrnoException, command);
  }
  const url = addressToOpen(listening.origin, token);

  console.log(`rec-dashboard ${readVersion()}`);
  if (demo !== null) console.log(`Demo stores with live traffic in ${demo.dir} (removed on exit). Give a directory to read yours.`);
  for (const store of stores) {
    // The demo's stores are made by its writers as the dashboard starts: not a store that is missing.
    // A folder typed whose own folder is missing too is more often a typo than a store still to
    // come: asked, and waited for all the same. A kind's default place is not the person's typing.
    const state =
      demo !== null
        ? ", which the demo's writer fills"
        : existsSync(store.root)
          ? ''
          : existsSync(dirname(store.root)) || !typed.has(store.root)
            ? '; it does not exist yet, and is waited for'
            : `; it does not exist yet, nor does ${dirname(store.root)}: is the path right? It is waited for`;
    console.log(`Reading ${storeKindOf(store.kind).words} ${store.root} (read-only)${state}.`);
  }
  if (listening.portTakenInstead !== null) console.log(`Port ${listening.portTakenInstead} is in use; using ${listening.port} instead.`);
  const readable = stores.length === 1 && stores[0]!.kind === 'record' ? 'the record' : 'these stores';
  if (command.host !== '127.0.0.1' && command.host !== 'localhost' && command.host !== '::1') {
    console.log(`Listening on ${command.host}: other machines that reach this address can read ${readable}.`);
  }
  if (token === null) console.log(`No access token (--no-token): anyone who can reach this address can read ${readable}.`);
  else console.log('Open the address below: it carries the access token, which the browser then keeps in a cookie.');
  console.log(url);
  if (command.open ?? (process.stdout.isTTY === true && !process.env['CI'])) openBrowser(url);

  const { startDashboard } = await import('./dashboard.ts');
  try {
    dashboard = await startDashboard({
      stores,
      host: command.host,
      port: command.port,
      portFallback: command.portIsDefault,
      listening,
      webRoot: findWebRoot(),
      token,
      onError,
      ...(command.searchBudgetMs !== null ? { searchBudgetMs: command.searchBudgetMs } : {}),
      ...(command.pendingWindowMs !== null ? { pendingWindowMs: command.pendingWindowMs } : {}),
    });
  } catch (error) {
    await demo?.stop();
    failToStart(error as NodeJS.ErrnoException, command);
  }
}

/** Why the command could not listen or start, in one line that says what to do. */
function failToStart(err: NodeJS.ErrnoException, command: { host: string; port: number }): never {
  if (err.code === 'EADDRINUSE') fail(`port ${command.port} is in use. Pick another with --port, or --port 0 for any free one.`, 1);
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') fail(`cannot listen on ${command.host}: no such address here. Use --host 127.0.0.1.`, 1);
  if (err.code === 'EACCES') fail(`not allowed to listen on port ${command.port}. Pick a port above 1023 with --port.`, 1);
  fail(`could not start: ${err.message}`, 1);
}

/**
 * The stores the command line names: each directory of the kind it holds, and a kind's option
 * (`--spex`, `--sac`) at the place given or the kind's default. A directory given twice is read once.
 */
function findStores(dirs: string[], named: { kind: StoreSpec['kind']; dir: string | null }[]): { stores: StoreSpec[] } | { problem: string } {
  const stores: StoreSpec[] = [];
  for (const dir of dirs) {
    const root = resolve(dir);
    const recognized = recognizeStore(root);
    if (recognized.kind === null) return { problem: `${recognized.why}${recognized.holdsNone ? describeStoresNearby(root) : ''}` };
    stores.push({ kind: recognized.kind, root });
  }
  for (const { kind, dir } of named) {
    const place = storeKindOf(kind).option?.defaultPlace();
    const root = resolve(dir ?? place ?? '.');
    const recognized = recognizeStore(root);
    if (recognized.kind !== null && recognized.kind !== kind && !(recognized.kind === 'record' && isEmptyOrMissing(root))) {
      return { problem: `${root} holds ${storeKindOf(recognized.kind).words}, not ${storeKindOf(kind).words}` };
    }
    if (recognized.kind === null && !recognized.holdsNone) return { problem: recognized.why };
    stores.push({ kind, root });
  }
  const seen = new Set<string>();
  return { stores: stores.filter((store) => !seen.has(store.root) && seen.add(store.root)) };
}

function isEmptyOrMissing(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return true;
  }
}

function fail(message: string, code: number): never {
  console.error(`rec-dashboard: ${message}`);
  process.exit(code);
}

/** The package root: the folder of the nearest package.json above this file. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) return dir;
    dir = up;
  }
  return dir;
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

/** The built web UI, in dist/web of the package (both when run from source and installed). */
function findWebRoot(): string | null {
  const webRoot = join(packageRoot(), 'dist', 'web');
  return existsSync(join(webRoot, 'index.html')) ? webRoot : null;
}

/**
 * Opens the address in a browser. An opener's arguments, and those of the browser it starts, are
 * readable by every user of the machine (`ps`, `/proc/<pid>/cmdline`): an address that carries
 * the token is not given there. It is written in a page only its owner can read (mode 0600, in a
 * folder of mode 0700), which sends the browser on to it; the opener is given the page's path.
 * The folder is removed when the command ends.
 */
function openBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    let target = url;
    if (new URL(url).searchParams.has('token')) {
      const dir = mkdtempSync(join(tmpdir(), 'rec-dashboard-open-'));
      process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
      target = join(dir, 'open.html');
      writeFileSync(target, pageMovingOnTo(url), { mode: 0o600, flag: 'wx' });
    }
    const child = spawn(opener, [target], { stdio: 'ignore', detached: true });
    child.on('error', () => console.log(`(Could not open a browser; open the address above.)`));
    child.unref();
  } catch {
    console.log(`(Could not open a browser; open the address above.)`);
  }
}
