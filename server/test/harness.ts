import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import type { PendingWindow } from '../../shared/evidence.ts';
import { startDashboard, type Dashboard } from '../dashboard.ts';
import type { RecordHeadStart } from '../record/scanStart.ts';
import { createSearchPool, type SearchPool } from '../search/searchPool.ts';

// Tests meet real parts: a temporary record written by a real writer process, and a real
// dashboard listening on a port. Nothing here ever points at a real record directory.

export function makeTempRecord(prefix = 'rec-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A search's budget in tests that are not about it: a search's budget is wall-clock time, and
 * the fast tier runs many files at once on two cores, where a search of a few hundred texts has
 * taken over 3 s. The budget's own tests set theirs.
 */
export const TEST_SEARCH_BUDGET_MS = 60_000;

/**
 * The pending window of a test's own reader where a test waits for it to pass (a write cut short
 * turning damaged or torn): the product's 10 s (PENDING_WINDOW_MS) would be waited in full. Long
 * enough that the test sees the file pending first on a loaded machine.
 */
export const TEST_PENDING_WINDOW_MS = 3_000;

/** A search pool with the tests' budget, for a source a test builds itself (its source closes it). */
export function createTestSearchPool(): SearchPool {
  return createSearchPool({ budgetMs: TEST_SEARCH_BUDGET_MS });
}

export async function startTestDashboard(
  recordDir: string,
  options: PendingWindow & { reconcileIntervalMs?: number; token?: string | null; searchBudgetMs?: number; headStart?: RecordHeadStart | null } = {},
): Promise<Dashboard> {
  return startDashboard({
    stores: [{ kind: 'record', root: recordDir, ...(options.headStart !== undefined ? { headStart: options.headStart } : {}) }],
    token: options.token ?? null,
    host: '127.0.0.1',
    port: 0,
    portFallback: false,
    webRoot: null,
    reconcileIntervalMs: options.reconcileIntervalMs ?? 30_000,
    searchBudgetMs: options.searchBudgetMs ?? TEST_SEARCH_BUDGET_MS,
    pendingWindowMs: options.pendingWindowMs,
  });
}

/** A dashboard on a port over a store of each kind, once every store's first read is done. */
export async function startThreeStoreDashboard(roots: { record: string; spex: string; sac: string }): Promise<Dashboard> {
  const dashboard = await startDashboard({
    stores: [
      { kind: 'record', root: roots.record },
      { kind: 'spex', root: roots.spex },
      { kind: 'sac', root: roots.sac },
    ],
    token: null,
    host: '127.0.0.1',
    port: 0,
    portFallback: false,
    webRoot: null,
    reconcileIntervalMs: 30_000,
    searchBudgetMs: TEST_SEARCH_BUDGET_MS,
  });
  await eventually(() => (dashboard.sources.every((source) => source.status().indexing.state === 'ready') ? true : undefined), 'every first scan');
  return dashboard;
}

/** GETs a path and parses the body with the wire schema, as the browser does. */
export async function getJson<S extends z.ZodType>(dashboard: Dashboard, path: string, schema: S): Promise<z.infer<S>> {
  const response = await fetch(new URL(path, dashboard.url));
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  return schema.parse(body);
}

/** Polls until `probe` returns a value that is not undefined, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Every file and folder under `dir`: name, size, mtime and sha256 of the bytes. Two equal
 * fingerprints mean nothing was written, renamed, created or deleted.
 */
export function fingerprintTree(dir: string): string[] {
  const lines: string[] = [];
  const walk = (path: string, rel: string) => {
    const stat = lstatSync(path);
    if (stat.isDirectory()) {
      lines.push(`${rel}/ ${stat.mtimeMs}`);
      for (const name of readdirSync(path).sort()) walk(join(path, name), `${rel}/${name}`);
    } else if (stat.isFile()) {
      const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
      lines.push(`${rel} ${stat.size}:${stat.mtimeMs}:${sha}`);
    } else {
      lines.push(`${rel} ${stat.isSymbolicLink() ? 'link' : 'other'}:${stat.mtimeMs}`);
    }
  };
  walk(dir, '.');
  return lines;
}

/** A GET with the headers fetch will not set (Host): its status, headers and body. */
export function rawGet(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject).end();
  });
}
