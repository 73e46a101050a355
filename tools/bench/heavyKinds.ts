import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { appendEvent, spexSessionFolder, writeSessionJson } from '../../server/demo/spexAppend.ts';
import { startSacWriter } from '../writer/sacWriter.ts';
import { BENCH_TOKEN, startDashboardProcess } from './dashboardProcess.ts';
import { readRss } from './proc.ts';
import type { Row } from './report.ts';
import { sampleOthers, samplePeakRss, underSearches } from './search.ts';
import { spread } from './stats.ts';

// One request must not stall the others, for spex and set-agent-comm as for the record: other
// requests' round trips while two clients run a regular-expression search over spex lines and a
// sac body of megabytes, beside the same requests with nothing else running; and the memory of
// the process, and others' round trips, while ten clients export a spex session holding a 200 MB
// line (and a sac seat holding a 200 MB body) as NDJSON, JSON and Markdown and drop it after a
// megabyte, then once idle again.

const PROJECT = '-home-dev-shop';
const SEARCHED = 'aaaaaaaa-0000-4000-8000-00000000000a';
const LARGE = 'bbbbbbbb-0000-4000-8000-00000000000b';
const OTHERS = Array.from({ length: 20 }, (_, i) => `cccccccc-0000-4000-8000-${String(i).padStart(12, '0')}`);
const LARGE_LINE_BYTES = 200 * 1024 * 1024;
const LARGE_SEAT = 'big-writer#5e6f7a8b';
const EXPORTS = 10;
const DROP_AFTER = 1024 * 1024;

function sessionJson(sessionId: string): Record<string, unknown> {
  return { session_id: sessionId, worktree_path: '/home/dev/shop', branch: 'main', title: `session ${sessionId.slice(0, 4)}`, name: '', parent: '', status: 'active', proposal: '', note: '', createdAt: 1, harness: 'claude', stopped: false, archived: false };
}

function writeSession(home: string, sessionId: string, texts: readonly string[]): void {
  const folder = spexSessionFolder(home, PROJECT, sessionId);
  writeSessionJson(folder, sessionJson(sessionId));
  for (const text of texts) appendEvent(folder, { ts: new Date().toISOString(), kind: 'sent', mid: crypto.randomUUID(), text, from: null });
}

/** GETs an export, takes a megabyte of it and goes away. */
function takeAndDrop(url: string, path: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request(new URL(path, url), { headers: { authorization: `Bearer ${BENCH_TOKEN}` } }, (response) => {
      let got = 0;
      response.on('data', (chunk: Buffer) => {
        got += chunk.length;
        if (got >= DROP_AFTER) {
          req.destroy();
          resolve();
        }
      });
      response.on('end', () => resolve());
      response.on('error', () => resolve());
    });
    req.on('error', () => resolve());
    req.end();
  });
}

const mb = (bytes: number) => bytes / 1024 / 1024;

/**
 * Peak RSS and others' round trips while ten clients take an export and drop it after a
 * megabyte, and RSS once idle again.
 */
async function measureDroppedExports(url: string, pid: number, path: string, measure: string, quietP95: number): Promise<Row[]> {
  const rssBefore = readRss(pid) ?? 0;
  const rss = samplePeakRss(pid);
  let done = false;
  const others = sampleOthers(url, OTHERS, 0, () => done);
  await Promise.all(Array.from({ length: EXPORTS }, () => takeAndDrop(url, path)));
  done = true;
  const exporting = spread(await others);
  const peak = rss.stop();
  const answeredAt = performance.now();
  const idle: { afterMs: number; bytes: number }[] = [];
  for (const afterMs of [5_000, 15_000]) {
    await sleep(afterMs - (performance.now() - answeredAt));
    idle.push({ afterMs, bytes: readRss(pid) ?? 0 });
  }
  const last = idle.at(-1)!;
  return [
    { measure: `${measure}, peak RSS`, value: mb(peak), unit: 'MB', baseline: { value: mb(rssBefore), what: 'before' }, target: '≤ 1.5 GB', met: mb(peak) <= 1536, note: `others meanwhile p95 ${exporting.p95.toFixed(1)} ms (${(exporting.p95 / quietP95).toFixed(1)}× quiet), max ${exporting.max.toFixed(1)} ms over ${exporting.n}` },
    { measure: `           RSS idle ${last.afterMs / 1000} s after`, value: mb(last.bytes), unit: 'MB', baseline: { value: mb(rssBefore), what: 'before' }, target: '≤ 400 MB', met: mb(last.bytes) <= 400, note: idle.map((sample) => `${Math.round(mb(sample.bytes))} MB at ${sample.afterMs / 1000} s`).join(', ') },
  ];
}

export async function measureHeavyKinds(bin: string, workDir: string, log: (line: string) => void): Promise<Row[]> {
  const dir = mkdtempSync(join(workDir, 'heavy-kinds-'));
  const home = join(dir, 'spex');
  const store = join(dir, 'sac');
  try {
    writeSession(home, SEARCHED, Array.from({ length: 3 }, () => 'a'.repeat(2_000_000) + '!'));
    for (const sessionId of OTHERS) writeSession(home, sessionId, Array.from({ length: 20 }, (_, i) => `message ${i} about the cart`));
    const unit = 'the cart still posts orders to v1 — ünïcödé ✓ 日本語 ';
    writeSession(home, LARGE, ['a short one first', unit.repeat(Math.ceil(LARGE_LINE_BYTES / Buffer.byteLength(unit)))]);
    const writer = await startSacWriter(store);
    await writer.send({ op: 'big', room: 'team', seat: 'web-app#3f9c1a20', ts: '2026-11-30T17:20:00.000+00:00', type: 'FACT', bodyBytes: 2_000_000, marker: 'aaaa' });
    // No `a` in it: the search above reads its first 4 MiB, and finds nothing there.
    await writer.send({ op: 'big', room: 'large', seat: LARGE_SEAT, ts: '2026-11-30T17:21:00.000+00:00', type: 'FACT', bodyBytes: LARGE_LINE_BYTES, marker: 'zzzz' });
    await writer.close();
    log('spex and sac: a regular-expression search by two clients, then ten exports of a 200 MB line and of a 200 MB body in each format, dropped after 1 MB');
    const dashboard = await startDashboardProcess(bin, [`--spex=${home}`, `--sac=${store}`]);
    try {
      const { url, pid } = dashboard;
      // The first scans read the 200 MB line; what they cost settles first.
      for (let waited = 0; waited < 120_000; waited += 250) {
        const list = (await (await fetch(new URL('/api/sessions', url), { headers: { authorization: `Bearer ${BENCH_TOKEN}` } })).json()) as { sources?: { indexing: { state: string } }[] };
        if (list.sources?.every((source) => source.indexing.state === 'ready') === true) break;
        await sleep(250);
      }
      await sleep(5_000);
      const quiet = spread(await sampleOthers(url, OTHERS, 60));
      const searched = await underSearches(url, pid, `/api/search?regex=1&q=${encodeURIComponent('(.*a){20}$')}`, OTHERS, 60, 2);

      const sources = ((await (await fetch(new URL('/api/sessions', url), { headers: { authorization: `Bearer ${BENCH_TOKEN}` } })).json()) as { sources: { id: string; kind: string }[] }).sources;
      const idOf = (kind: string) => sources.find((source) => source.kind === kind)!.id;
      const statuses = Object.entries(searched.statuses).map(([status, n]) => `${n}× ${status}`).join(', ');
      const rows: Row[] = [
        { measure: 'spex+sac regex search: others while 2 clients search (p95)', value: searched.others.p95, unit: 'ms', baseline: { value: quiet.p95, what: 'no search' }, ratio: searched.others.p95 / quiet.p95, target: '≤ 50 ms', met: searched.others.p95 <= 50, note: `(.*a){20}$ over 3 spex lines and a sac body of 2 MB; p50 ${searched.others.p50.toFixed(1)} ms, max ${searched.others.max.toFixed(1)} ms over ${searched.others.n}; searches p50 ${Math.round(searched.searches.p50)} ms (${statuses})` },
      ];
      // Each export of each kind in each format, one after the other, each from the memory the one before left.
      const exports = [
        { what: '200 MB spex line', path: `/api/sources/${idOf('spex')}/conversations/${LARGE}/export` },
        { what: '200 MB sac body', path: `/api/sources/${idOf('sac')}/conversations/${encodeURIComponent(LARGE_SEAT)}/export` },
      ];
      for (const { what, path } of exports) {
        for (const format of ['ndjson', 'json', 'md']) {
          log(`${what}: ten ${format} exports dropped after 1 MB`);
          rows.push(...(await measureDroppedExports(url, pid, `${path}?format=${format}`, `${what}: 10 ${format} exports dropped after 1 MB`, quiet.p95)));
        }
      }
      return rows;
    } finally {
      await dashboard.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
