import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { entryFileName } from '../../server/demo/entryFile.ts';
import { createSeededRandom } from '../../shared/seededRandom.ts';
import { BENCH_AUTH, connectEvents, startDashboardProcess, timedGet } from './dashboardProcess.ts';
import type { GeneratedRecord } from './generateRecord.ts';
import { LAUNCH, watchLiveRows, type RowsSeen } from './liveView.ts';

// The live view while the record is still being indexed: Chromium is open before the command
// starts, goes to /live the moment the API first answers, and entries are written from the
// moment the view is live, one every `gapMs`, each into another session (some the first scan has
// read, some not; every fifth a new folder), each timed from its write to the frame its row is on
// screen. What the writes met is noted: the scan still running, or the record indexed.

export type LiveEarlyWrite = {
  afterFirstAnswerMs: number;
  indexing: string;
  /** Written → its row on screen. */
  rowMs: number | null;
  /** Written → its item notice at the bench's own client of the event stream: the server's part of `rowMs`. */
  noticeMs: number | null;
  /** When it was written, by the wall clock: beside the page's long tasks. */
  writtenAtClock: number;
};

/** A task of the page's main thread over 50 ms (Chromium's long tasks), by the wall clock. */
export type LongTask = { atClock: number; ms: number };

export type LiveEarlyResult = {
  firstAnswerMs: number;
  /** First answer → the live view says live. */
  liveAfterMs: number;
  readyMs: number | null;
  writes: LiveEarlyWrite[];
  pageErrors: string[];
  /**
   * The page's main thread over the write window, from Chromium's own counters, each in the
   * thread's CPU time (`threadTicks`): what the page's work costs whatever the machine's load, in
   * all and in its tasks, scripts, style and layout.
   */
  page: { threadMs: number; taskMs: number; scriptMs: number; layoutMs: number; styleMs: number };
  /** The page's long tasks from the first write to the last row: a row that came late came behind one, or not. */
  longTasks: LongTask[];
  /** Files and folders written, for the bench to remove afterwards. */
  written: string[];
};

export async function measureLiveEarly(bin: string, recordDir: string, record: GeneratedRecord, options: { windowMs: number; gapMs: number }): Promise<LiveEarlyResult> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch(LAUNCH);
  const pageErrors: string[] = [];
  const written: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => pageErrors.push(String(error.stack ?? error.message)));
    await page.addInitScript(watchLiveRows);
    await page.addInitScript(watchLongTasks);
    await page.setExtraHTTPHeaders(BENCH_AUTH);
    const dashboard = await startDashboardProcess(bin, recordDir);
    try {
      await timedGet(dashboard.url, '/api/sessions');
      const firstAnswerAt = performance.now();
      const events = await connectEvents(dashboard.url);
      await page.goto(`${dashboard.url}live`);
      await page.getByRole('status', { name: 'Connection' }).filter({ hasText: /^\s*live$/ }).waitFor({ timeout: 30_000 });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
      const readPage = async () => {
        const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
        const of = (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000;
        return { threadMs: of('ThreadTime'), taskMs: of('TaskDuration'), scriptMs: of('ScriptDuration'), layoutMs: of('LayoutDuration'), styleMs: of('RecalcStyleDuration') };
      };
      const pageBefore = await readPage();
      const liveAt = performance.now();
      const random = createSeededRandom(11);
      const order = record.sessionIds.filter((id) => !record.bigSessionIds.includes(id));
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      const writes: (LiveEarlyWrite & { name: string; writtenAt: number })[] = [];
      let indexing = 'scanning';
      for (let i = 0; performance.now() - liveAt < options.windowMs; i++) {
        const newFolder = i % 5 === 4;
        const sessionId = newFolder ? `bench-live-early-${i}` : order[i % order.length]!;
        const tail = record.tails[sessionId];
        const at = new Date(Math.max(tail?.lastAt ?? 0, Date.now() - 60_000) + 1_000).toISOString();
        const folder = join(recordDir, sessionId);
        if (newFolder) mkdirSync(folder);
        const name = entryFileName(at, tail?.nextSeq ?? 1);
        const entry = newFolder
          ? { kind: 'start', sessionId, at, cwd: '/home/dev/projects/bench-live-early', host: 'claude-code', version: '2.1.314', inbound: 'accept' }
          : { kind: 'message', sessionId, at, side: 'sent', peer: { as: 'api-service' }, text: `live early ${i}`, isQueued: true, cwd: tail!.cwd };
        for (const notice of events.notices) if (notice.event.type === 'source') indexing = notice.event.source.indexing.state;
        const writtenAt = performance.now();
        const writtenAtClock = Date.now();
        writeFileSync(join(folder, name), JSON.stringify(entry));
        written.push(newFolder ? folder : join(folder, name));
        writes.push({ name, writtenAt, writtenAtClock, afterFirstAnswerMs: writtenAt - firstAnswerAt, indexing, rowMs: null, noticeMs: null });
        await sleep(Math.max(0, writtenAt + options.gapMs - performance.now()));
      }
      const pageAfter = await readPage();
      const pageWork = {
        threadMs: pageAfter.threadMs - pageBefore.threadMs,
        taskMs: pageAfter.taskMs - pageBefore.taskMs,
        scriptMs: pageAfter.scriptMs - pageBefore.scriptMs,
        layoutMs: pageAfter.layoutMs - pageBefore.layoutMs,
        styleMs: pageAfter.styleMs - pageBefore.styleMs,
      };
      // Each row's frame, as the page stamped it; a row not on screen 5 s after the last write is missed.
      const deadline = performance.now() + 5_000;
      for (;;) {
        const seen = await page.evaluate(() => (globalThis as unknown as { __liveRows: RowsSeen }).__liveRows.seen);
        for (const write of writes) if (write.rowMs === null && seen[write.name] !== undefined) write.rowMs = seen[write.name]! - write.writtenAtClock;
        if (writes.every((write) => write.rowMs !== null) || performance.now() > deadline) break;
        await sleep(50);
      }
      for (const write of writes) {
        const notice = events.notices.find((n) => n.at >= write.writtenAt && n.event.type === 'items' && n.event.items.some((item) => item.key === write.name));
        write.noticeMs = notice === undefined ? null : notice.at - write.writtenAt;
      }
      const firstWrittenAt = writes[0]?.writtenAtClock ?? Date.now();
      const longTasks = (await page.evaluate(() => (globalThis as unknown as { __longTasks: LongTask[] }).__longTasks)).filter((task) => task.atClock + task.ms >= firstWrittenAt);
      let readyAt: number | null = null;
      try {
        readyAt = (await events.next((n) => n.event.type === 'source' && n.event.source.indexing.state === 'ready', 120_000)).at;
      } catch {
        readyAt = null;
      }
      events.close();
      return {
        firstAnswerMs: firstAnswerAt - dashboard.spawnedAt,
        liveAfterMs: liveAt - firstAnswerAt,
        readyMs: readyAt === null ? null : readyAt - dashboard.spawnedAt,
        writes: writes.map(({ afterFirstAnswerMs, indexing: state, rowMs, noticeMs, writtenAtClock }) => ({ afterFirstAnswerMs, indexing: state, rowMs, noticeMs, writtenAtClock })),
        pageErrors,
        page: pageWork,
        longTasks,
        written,
      };
    } finally {
      await dashboard.stop();
    }
  } finally {
    await browser.close();
  }
}

/** Runs in the page before its scripts: keeps each long task of its main thread, by the wall clock. */
function watchLongTasks(): void {
  type Entry = { startTime: number; duration: number };
  type Window = {
    performance: { timeOrigin: number };
    PerformanceObserver: new (callback: (list: { getEntries(): Entry[] }) => void) => { observe(options: object): void };
    __longTasks: LongTask[];
  };
  const page = globalThis as unknown as Window;
  const tasks: LongTask[] = [];
  page.__longTasks = tasks;
  new page.PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ atClock: page.performance.timeOrigin + entry.startTime, ms: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}
