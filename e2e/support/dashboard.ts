import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { TEST_PENDING_WINDOW_ENV } from '../../server/cliArgs.ts';

// Starts the real command, as a person would: `rec-dashboard <recordDir> --port 0 --no-open`,
// and waits for the line that gives its address.

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../dist/server/bin.js', import.meta.url));
const WEB_INDEX = fileURLToPath(new URL('../../dist/web/index.html', import.meta.url));

/**
 * The token every e2e dashboard requires, unless a test asks for the default (a new token each
 * start). The browser sends it as a bearer token (playwright.config.ts); e2e/access.spec.ts walks
 * the way a person gets in instead: the printed address, traded for a cookie.
 */
export const E2E_TOKEN = 'e2e-access-token-0123456789';

/**
 * The pending window of a command started for a test that waits for a write cut short to turn
 * damaged (`startDashboard`'s `pendingWindowMs`): the product's 10 s would be waited in full. As
 * the integration tests' (server/test/harness.ts), long enough that the test sees the file pending
 * first on a loaded machine, where the page is open before the write.
 */
export const E2E_PENDING_WINDOW_MS = 3_000;

/**
 * The dashboards this test process started and has not seen end: stopped as it exits (as `stop()`
 * stops one, so a demo removes its folder), however a test ended. A test that failed before its
 * `stop()` left its dashboard running after the run, serving a temporary store that was gone.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

export type RunningDashboard = {
  /** The dashboard's origin, without a trailing slash: tests append paths to it. */
  url: string;
  /** The address exactly as the command printed it, token included. */
  printed: string;
  pid: number;
  /** Stops it as a person does (SIGTERM); resolves with its exit code, or null if it had to be killed. */
  stop(): Promise<number | null>;
};

/** fetch() for the API from the test itself, with the token. */
export function apiFetch(url: string, token = E2E_TOKEN): Promise<Response> {
  return fetch(url, { headers: { authorization: `Bearer ${token}` } });
}

export function assertBuilt(): void {
  if (!existsSync(BIN) || !existsSync(WEB_INDEX)) throw new Error('dist/ is not built: run `npm run build` before the end-to-end tests');
}

/**
 * recordDir null runs the demo record; several directories are several stores, each recognised by
 * what it holds. `token: 'default'` leaves the command to make its own; `args` are more options
 * of the command (`--search-budget 0.05`); `pendingWindowMs` is the readers' pending window, given
 * to the command as it is given in tests only (TEST_PENDING_WINDOW_ENV).
 */
export async function startDashboard(
  recordDir: string | readonly string[] | null,
  port = 0,
  options: { token?: 'default'; args?: readonly string[]; pendingWindowMs?: number } = {},
): Promise<RunningDashboard> {
  assertBuilt();
  const tokenArgs = options.token === 'default' ? [] : ['--token', E2E_TOKEN];
  const dirs = recordDir === null ? [] : typeof recordDir === 'string' ? [recordDir] : [...recordDir];
  const args = [BIN, ...dirs, '--port', String(port), '--no-open', ...tokenArgs, ...(options.args ?? [])];
  const env: NodeJS.ProcessEnv = { ...process.env, CI: '1' };
  delete env[TEST_PENDING_WINDOW_ENV];
  if (options.pendingWindowMs !== undefined) env[TEST_PENDING_WINDOW_ENV] = String(options.pendingWindowMs);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const printed = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`rec-dashboard printed no address within 60 s: ${stderr}`)), 60_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('http://')) {
        clearTimeout(timer);
        resolve(line.trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`rec-dashboard exited (${code}) before it listened: ${stderr}`));
    });
  });
  const url = new URL(printed).origin;
  return {
    url,
    printed,
    pid: child.pid ?? -1,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Waits until the command lists `count` items of a session, before a test opens it in the UI. */
export async function waitForItems(url: string, sessionId: string, count: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const response = await apiFetch(`${url}/api/sessions/${encodeURIComponent(sessionId)}?limit=1`);
    if (response.ok && ((await response.json()) as { page: { total: number } }).page.total >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`session ${sessionId} did not reach ${count} items`);
}

/** A store's id as the server names it: its kind and the first 8 hex digits of the sha256 of its absolute root. */
export function sourceIdOf(kind: 'record' | 'spex' | 'sac', root: string): string {
  return `${kind}-${createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 8)}`;
}

/** A conversation's address in the browser, or one of its items': `/source/<store>/conversation/<id>[/item/<key>]`. */
export function conversationPath(source: string, id: string, item?: string): string {
  return `/source/${source}/conversation/${encodeURIComponent(id)}${item === undefined ? '' : `/item/${encodeURIComponent(item)}`}`;
}
