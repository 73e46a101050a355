import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { PageCost } from './freshPages.mjs';
import { connectEventStream, type EventStream } from '../../server/test/eventStream.ts';

// The real command, started as a person starts it, and a client of its event stream that notes
// when each notice arrives.

export type DashboardProcess = {
  child: ChildProcess;
  pid: number;
  url: string;
  /** performance.now() when the process was spawned, and when it printed its address. */
  spawnedAt: number;
  urlAt: number;
  /** Everything the command printed on stderr (watcher errors end up there). */
  stderr: string[];
  stop(): Promise<void>;
};

/**
 * The bench runs the command as shipped, access token included; a known token lets its own
 * requests carry it (`Authorization: Bearer`, and the browser's extra headers).
 */
export const BENCH_TOKEN = 'bench-access-token-0123456789';
export const BENCH_AUTH = { authorization: `Bearer ${BENCH_TOKEN}` };

/**
 * The options the command's first line gives node (`#!/usr/bin/env -S node <options>`): the bench
 * starts it with the Node it runs on, and with them, as npx would start it.
 */
export function readNodeOptions(bin: string): string[] {
  const first = readFileSync(bin, 'utf8').split('\n', 1)[0]!;
  const options = /^#!\/usr\/bin\/env -S node\s+(.*)$/.exec(first)?.[1];
  return options === undefined ? [] : options.trim().split(/\s+/);
}

/**
 * How the spex and sac phases run: each store's source in a process of its own, started with the
 * command's Node options (`nodeOptions`, its young generation's size among them) while the plain
 * read runs with Node's own; from storage when `dropPageCache` is given; the fresh pages each
 * touched priced at `pageCost`.
 */
export type StorePhaseOptions = { dropPageCache?: (() => void) | null; pageCost?: PageCost | null; nodeOptions?: readonly string[] };

/** `stores`: a record's directory, or the command's arguments that name its stores (`--spex=…`, `--sac=…`). */
export async function startDashboardProcess(bin: string, stores: string | readonly string[], nodeArgs: string[] = []): Promise<DashboardProcess> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...readNodeOptions(bin), ...nodeArgs, bin, ...(typeof stores === 'string' ? [stores] : stores), '--port', '0', '--no-open', '--token', BENCH_TOKEN], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: '1' },
  });
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address printed; stderr: ${stderr.join('\n')}`)), 30_000);
    void exited.then(() => reject(new Error(`the command exited before printing its address: ${stderr.join('\n')}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (/^http:\/\/\S+$/.test(line)) {
        clearTimeout(timer);
        // The printed address carries the token; the bench adds paths to its origin.
        resolve(`${new URL(line).origin}/`);
      }
    });
  });
  return {
    child,
    pid: child.pid!,
    url,
    spawnedAt,
    urlAt: performance.now(),
    stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Connects to /api/events; every notice is stamped with performance.now() on arrival. */
export function connectEvents(url: string): Promise<EventStream> {
  return connectEventStream(url, BENCH_AUTH);
}

/**
 * GETs a path and returns the parsed body with how long the round trip took. With `collectFirst`
 * the bench's own garbage is collected before the clock starts (npm run bench passes
 * --expose-gc): parsing a 4 MB list left enough of it that a collection inside the next request
 * put a 404's p95 at 10 ms against a p50 of 0.7 ms. Not for timings that begin earlier (a write).
 */
export async function timedGet<T = unknown>(url: string, path: string, options: { collectFirst?: boolean } = {}): Promise<{ ms: number; body: T; status: number; bytes: number }> {
  if (options.collectFirst === true) (globalThis as { gc?: () => void }).gc?.();
  const started = performance.now();
  const response = await fetch(new URL(path, url), { headers: BENCH_AUTH });
  const text = await response.text();
  const ms = performance.now() - started;
  return { ms, body: JSON.parse(text) as T, status: response.status, bytes: text.length };
}
