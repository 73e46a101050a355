import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeEntryFile } from '../../server/demo/entryFile.ts';
import { BENCH_AUTH, startDashboardProcess, timedGet } from './dashboardProcess.ts';
import { generateRecord } from './generateRecord.ts';
import { readRss } from './proc.ts';
import { spread, type Spread } from './stats.ts';

// One request must not stall the others: how long the requests a browser makes all the time
// (the list of sessions, a session's first page) take while searches run, and while a page of
// large entries is read, beside the same requests with nothing else running, in the same run.

/** Clients that search back to back, each waiting for its answer before the next search. */
export const SEARCHES_AT_ONCE = 2;

export type SearchLoad = {
  /** Other requests' round trips while the searches ran. */
  others: Spread;
  /** Each search's round trip, its answer's status, and how many texts it read. */
  searches: Spread;
  statuses: Record<string, number>;
  scanned: number;
  hits: number;
  peakRssBytes: number;
};

export type LargeEntries = {
  entries: number;
  entryBytes: number;
  /** The same page asked for by three clients at once: each one's round trip. */
  pageMs: number[];
  /** One entry whole, from the file endpoint. */
  fileMs: number;
  /** Other requests with nothing else running, and while the large entries were read. */
  quiet: Spread;
  others: Spread;
  rssBeforeBytes: number;
  peakRssBytes: number;
  /** Resident memory once idle again, a few seconds after the last answer. */
  idleRss: { afterMs: number; bytes: number }[];
};

export type SearchTimes = {
  /** Other requests' round trips with nothing else running. */
  quiet: Spread;
  pathological: SearchLoad;
  noHit: SearchLoad;
};

/**
 * The list and a session's first page, taken in turn, one at a time, as a browser tab asks: at
 * least `samples` of them, and on until `until` says so.
 */
export async function sampleOthers(url: string, sessionIds: readonly string[], samples: number, until: () => boolean = () => true): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples || !until(); i++) {
    const path = i % 2 === 0 ? '/api/sessions' : `/api/sessions/${encodeURIComponent(sessionIds[(i * 7919) % sessionIds.length]!)}`;
    times.push((await timedGet(url, path, { collectFirst: true })).ms);
    await sleep(20);
  }
  return times;
}

/**
 * GETs a path and reads its answer to the end without parsing it: parsing 60 MB of JSON here
 * would hold up this process's own timing of the other requests.
 */
async function timedDrain(url: string, path: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(new URL(path, url), { headers: BENCH_AUTH });
  let bytes = 0;
  for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
  if (response.status !== 200 || bytes === 0) throw new Error(`${path}: ${response.status}, ${bytes} bytes`);
  return performance.now() - started;
}

/** Samples the process's resident memory until stopped; resolves with the highest. */
export function samplePeakRss(pid: number): { stop(): number } {
  let peak = readRss(pid) ?? 0;
  const timer = setInterval(() => (peak = Math.max(peak, readRss(pid) ?? 0)), 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, readRss(pid) ?? 0);
    },
  };
}

export async function underSearches(url: string, pid: number, searchPath: string, sessionIds: readonly string[], samples: number, searchesAtLeast = 2 * SEARCHES_AT_ONCE): Promise<SearchLoad> {
  let running = true;
  const searchMs: number[] = [];
  const statuses: Record<string, number> = {};
  let scanned = 0;
  let hits = 0;
  const rss = samplePeakRss(pid);
  const searchOnAndOn = async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(new URL(searchPath, url), { headers: BENCH_AUTH });
      const body = (await response.json()) as { scanned?: number; hits?: unknown[] };
      searchMs.push(performance.now() - started);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      scanned = body.scanned ?? scanned;
      hits = body.hits?.length ?? hits;
    }
  };
  const searching = Array.from({ length: SEARCHES_AT_ONCE }, searchOnAndOn);
  await sleep(200);
  // Sample for as long as at least two searches took, so that the samples fall on searches.
  const others = await sampleOthers(url, sessionIds, samples, () => searchMs.length >= searchesAtLeast);
  running = false;
  await Promise.all(searching);
  return { others: spread(others), searches: spread(searchMs), statuses, scanned, hits, peakRssBytes: rss.stop() };
}

export async function measureSearch(url: string, pid: number, sessionIds: readonly string[], samples: number): Promise<SearchTimes> {
  const quiet = spread(await sampleOthers(url, sessionIds, samples));
  const pathological = await underSearches(url, pid, `/api/search?regex=1&q=${encodeURIComponent('(a+)+$')}`, sessionIds, samples);
  const noHit = await underSearches(url, pid, '/api/search?q=zqxjkv-no-such-text', sessionIds, samples);
  return { quiet, pathological, noHit };
}

/**
 * Runs the command on a record of its own: a few ordinary sessions, and one holding large entries
 * written with the writer's own code. Once it has read them, their page is asked for by three
 * clients at once, and one of them whole, while the other requests are timed; then the memory is
 * watched as it comes back. A small record, so that what the large entries cost stands out.
 */
export async function measureLargeEntries(bin: string, recordDir: string, options: { entries: number; entryBytes: number; samples: number }): Promise<LargeEntries> {
  rmSync(recordDir, { recursive: true, force: true });
  const record = generateRecord(recordDir, { sessions: 20, entriesPerSession: 20, seed: 3 });
  const sessionId = 'bench-large';
  const cwd = '/home/dev/projects/bench-large';
  const unit = 'the cart still posts orders to v1 — ünïcödé ✓ 日本語 ';
  const text = unit.repeat(Math.ceil(options.entryBytes / Buffer.byteLength(unit)));
  const base = Date.now() - 60_000;
  const at = (i: number) => new Date(base + i * 1000).toISOString();
  await writeEntryFile(recordDir, sessionId, { kind: 'start', sessionId, at: at(0), cwd, host: 'claude-code', version: '2.1.314', inbound: 'accept' }, { seq: 1 });
  for (let i = 1; i <= options.entries; i++) {
    const entry = { kind: 'message', sessionId, at: at(i), side: 'sent', peer: { as: 'uds:/tmp/cc-socks/4242.sock' }, text, isQueued: true, cwd };
    await writeEntryFile(recordDir, sessionId, entry, { seq: i + 1 });
  }
  const dashboard = await startDashboardProcess(bin, recordDir);
  try {
    const { url, pid } = dashboard;
    type Page = { items?: { type: string; file?: string; evidence?: string; kind?: string | null }[] };
    let files: string[] = [];
    for (let waited = 0; waited < 120_000 && files.length < options.entries; waited += 250) {
      await sleep(250);
      const page = await timedGet<Page>(url, `/api/sessions/${sessionId}`).catch(() => null);
      files = page?.body.items?.filter((item) => item.evidence === 'parsed' && item.kind === 'message').map((item) => item.file!) ?? [];
    }
    if (files.length !== options.entries) throw new Error(`the dashboard did not read the ${options.entries} large entries within 2 minutes`);
    // What reading them at start cost settles first.
    await sleep(5_000);
    const quiet = await sampleOthers(url, record.sessionIds, options.samples);
    const rssBeforeBytes = readRss(pid) ?? 0;
    const rss = samplePeakRss(pid);
    let done = false;
    const others = sampleOthers(url, record.sessionIds, 0, () => done);
    const pageMs = await Promise.all(Array.from({ length: 3 }, async () => (await timedGet(url, `/api/sessions/${sessionId}`)).ms));
    const fileMs = await timedDrain(url, `/api/sessions/${sessionId}/files/${encodeURIComponent(files[0]!)}`);
    done = true;
    const othersMs = await others;
    const peakRssBytes = rss.stop();
    const answeredAt = performance.now();
    const idleRss: LargeEntries['idleRss'] = [];
    for (const afterMs of [5_000, 15_000, 30_000]) {
      await sleep(afterMs - (performance.now() - answeredAt));
      idleRss.push({ afterMs, bytes: readRss(pid) ?? 0 });
    }
    return { entries: options.entries, entryBytes: Buffer.byteLength(text), pageMs, fileMs, quiet: spread(quiet), others: spread(othersMs), rssBeforeBytes, peakRssBytes, idleRss };
  } finally {
    await dashboard.stop();
    rmSync(recordDir, { recursive: true, force: true });
  }
}
