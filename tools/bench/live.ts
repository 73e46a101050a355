import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { entryFileName } from '../../server/demo/entryFile.ts';
import { startWriter } from '../writer/writerClient.ts';
import type { BareWatcher } from './bareWatcherClient.ts';
import { connectEvents, timedGet } from './dashboardProcess.ts';

export type LiveSeries = {
  writes: number;
  /** File written → its session-changed notice at a connected client. */
  noticeMs: number[];
  /** File written → chokidar's own event, in a bare watcher. */
  watcherMs: number[];
  /** File written → a page holding it fetched after the notice, with the entry parsed. */
  pageMs: number[];
  /** File written → /api/sessions fetched after the notice: an API client that lists again (the UI takes the summary the notice carries). */
  listMs: number[];
  missed: number;
  /** The files written, for the bench to remove afterwards. */
  written: string[];
};

export type LiveTarget = { sessionId: string; nextSeq: number; lastAt: number; cwd: string };

/**
 * Writes entries one at a time into a session, as a live session does, and times when each is
 * noticed by the dashboard and by a bare chokidar watcher. The next write waits for both, plus
 * a pause, so a late event of one write is never taken for the next one's.
 */
export async function measureLive(
  url: string,
  recordDir: string,
  watcher: BareWatcher,
  target: LiveTarget,
  options: { writes: number; fetchList: boolean; pageLimit: number },
): Promise<LiveSeries> {
  const events = await connectEvents(url);
  const folder = join(recordDir, target.sessionId);
  mkdirSync(folder, { recursive: true });
  const series: LiveSeries = { writes: options.writes, noticeMs: [], watcherMs: [], pageMs: [], listMs: [], missed: 0, written: [] };
  let seq = target.nextSeq;
  let time = Math.max(target.lastAt, Date.now() - 60_000);
  for (let i = 0; i < options.writes; i++) {
    time += 1 + Math.floor(Math.random() * 50);
    const at = new Date(time).toISOString();
    const name = entryFileName(at, seq++);
    const path = join(folder, name);
    const entry = {
      kind: 'message', sessionId: target.sessionId, at, side: 'sent', peer: { as: 'uds:/tmp/cc-socks/4242.sock' },
      text: `live entry ${i}: does the cart still POST /v1/orders?`, isQueued: true, cwd: target.cwd,
    };
    const startedAt = performance.now();
    const noticeCount = events.notices.length;
    writeFileSync(path, JSON.stringify(entry));
    series.written.push(path);
    const [notice, seen] = await Promise.allSettled([
      events.next((n) => n.event.type === 'session-changed' && n.event.sessionId === target.sessionId && events.notices.indexOf(n) >= noticeCount, 5_000),
      watcher.next((line) => line.at >= startedAt && line.path === path, 5_000),
    ]);
    if (notice.status === 'fulfilled') series.noticeMs.push(notice.value.at - startedAt);
    else series.missed++;
    if (seen.status === 'fulfilled') series.watcherMs.push(seen.value.at - startedAt);
    if (notice.status === 'fulfilled') {
      // What a browser does on the notice: fetch the page that holds the entry.
      for (let attempt = 0; attempt < 20; attempt++) {
        const page = await timedGet<{ items: { file?: string; evidence?: string }[] }>(
          url,
          `/api/sessions/${encodeURIComponent(target.sessionId)}?around=${encodeURIComponent(name)}&limit=${options.pageLimit}`,
        );
        if (page.body.items?.some((item) => item.file === name && item.evidence === 'parsed')) {
          series.pageMs.push(performance.now() - startedAt);
          break;
        }
        await sleep(5);
      }
      if (options.fetchList) {
        await timedGet(url, '/api/sessions');
        series.listMs.push(performance.now() - startedAt);
      }
    }
    await sleep(15 + Math.random() * 20);
  }
  events.close();
  target.nextSeq = seq;
  target.lastAt = time;
  return series;
}

export type BurstResult = {
  count: number;
  /** How long the writer took to write them all. */
  writeMs: number;
  /** From the last write to every entry shown by the API; null when some were never shown. */
  shownAfterMs: number | null;
  /** Entries shown 5 s after the last write, and at the end of the wait. */
  shownAt5s: number;
  shownAtEnd: number;
  waitedMs: number;
  /** Add events a bare chokidar watcher saw for the burst's files, and when its last came. */
  watcherAdds: number;
  watcherLastAfterMs: number | null;
};

/**
 * A writer process writes `count` entries into a new session as fast as it can. Polls the API
 * until all are shown, or until `maxWaitMs` after the last write (a reconcile may find late ones).
 */
export async function measureBurst(url: string, recordDir: string, watcher: BareWatcher, sessionId: string, count: number, maxWaitMs: number): Promise<BurstResult> {
  const writer = await startWriter(recordDir);
  const started = performance.now();
  try {
    await writer.send({ op: 'burst', sessionId, count, startSeq: 1, cwd: '/home/dev/projects/bench-burst' });
  } finally {
    await writer.kill('SIGTERM');
  }
  const wroteAt = performance.now();
  let shownAfterMs: number | null = null;
  let shownAt5s = -1;
  let shown = 0;
  while (performance.now() - wroteAt < maxWaitMs) {
    const page = await timedGet<{ session?: { counts: { sent: number; received: number } } }>(url, `/api/sessions/${sessionId}?limit=1`);
    const counts = page.body.session?.counts;
    shown = counts === undefined ? 0 : counts.sent + counts.received;
    const after = performance.now() - wroteAt;
    if (shown === count) {
      shownAfterMs = after;
      break;
    }
    if (after >= 5_000 && shownAt5s === -1) shownAt5s = shown;
    await sleep(after < 5_000 ? 50 : 250);
  }
  if (shownAt5s === -1) shownAt5s = shown;
  const folder = join(recordDir, sessionId);
  const adds = watcher.lines.filter((line) => line.event === 'add' && line.path.startsWith(folder) && line.at >= started);
  return {
    count,
    writeMs: wroteAt - started,
    shownAfterMs,
    shownAt5s,
    shownAtEnd: shown,
    waitedMs: performance.now() - wroteAt,
    watcherAdds: new Set(adds.map((line) => line.path)).size,
    watcherLastAfterMs: adds.length === 0 ? null : adds.at(-1)!.at - wroteAt,
  };
}
