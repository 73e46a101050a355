import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { entryFileName } from '../../server/demo/entryFile.ts';
import { startWriter } from '../writer/writerClient.ts';
import { BENCH_AUTH, connectEvents } from './dashboardProcess.ts';
import type { LiveTarget } from './live.ts';

// The live view in Debian's Chromium, driven by Playwright: entries written one at a time, each
// timed to its item notice at a client of the event stream and to its row on screen; then a
// burst from a writer process, timed until the view lists every one of its writes.

export type LiveViewResult = {
  /** File written → the first item notice naming it, at a client of /api/events. */
  noticeMs: number[];
  /** File written → the first frame with its row inside the live view's scroll box. */
  rowMs: number[];
  missedNotices: number;
  missedRows: number;
  /** The burst: how many writes, how long they took, and from the last write to all listed. */
  burst: { count: number; writeMs: number; listedAfterMs: number | null; listed: number };
  pageErrors: string[];
  jsHeapUsedBytes: number;
};

export type RowsSeen = { seen: Record<string, number> };

/**
 * Runs in the page before its scripts: at the first animation frame after a change to the DOM or
 * a scroll, notes each live row inside the live view's scroll box the first time it is there
 * (Date.now()). Stamped in the page, so that Playwright's polling is not in the figures.
 */
export function watchLiveRows(): void {
  type Box = { top: number; bottom: number };
  type Element = { getAttribute(name: string): string | null; getBoundingClientRect(): Box };
  type Document = { querySelector(selector: string): Element | null; querySelectorAll(selector: string): Iterable<Element>; addEventListener(type: string, listener: () => void, options: object): void };
  type Window = {
    document: Document;
    requestAnimationFrame(callback: () => void): number;
    MutationObserver: new (callback: () => void) => { observe(target: Document, options: object): void };
    __liveRows: RowsSeen;
  };
  const page = globalThis as unknown as Window;
  const rows: RowsSeen = { seen: {} };
  page.__liveRows = rows;
  let scheduled = false;
  const look = () => {
    scheduled = false;
    const scroll = page.document.querySelector('.live-scroll');
    if (scroll === null) return;
    const view = scroll.getBoundingClientRect();
    const now = Date.now();
    for (const row of page.document.querySelectorAll('.live-item[data-key]')) {
      const box = row.getBoundingClientRect();
      if (box.bottom <= box.top || box.bottom <= view.top || box.top >= view.bottom) continue;
      const key = row.getAttribute('data-key');
      if (key !== null) rows.seen[key] ??= now;
    }
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    page.requestAnimationFrame(look);
  };
  new page.MutationObserver(schedule).observe(page.document, { childList: true, subtree: true, attributes: true, attributeFilter: ['style'] });
  page.document.addEventListener('scroll', schedule, { capture: true, passive: true });
}

export const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/** Files written go into `written` as they are written, so that the caller removes them even when the phase fails. */
export async function measureLiveView(url: string, recordDir: string, target: LiveTarget, writes: number, burstCount: number, written: string[]): Promise<LiveViewResult> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch(LAUNCH);
  const events = await connectEvents(url);
  const result: LiveViewResult = { noticeMs: [], rowMs: [], missedNotices: 0, missedRows: 0, burst: { count: burstCount, writeMs: 0, listedAfterMs: null, listed: 0 }, pageErrors: [], jsHeapUsedBytes: 0 };
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => result.pageErrors.push(String(error.stack ?? error.message)));
    page.on('console', (message) => {
      if (message.type() === 'error') result.pageErrors.push(message.text());
    });
    await page.addInitScript(watchLiveRows);
    await page.setExtraHTTPHeaders(BENCH_AUTH);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const sampleHeap = async () => {
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      result.jsHeapUsedBytes = Math.max(result.jsHeapUsedBytes, metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0);
    };
    await page.goto(`${url}live`);
    await page.getByRole('status', { name: 'Connection' }).filter({ hasText: /^\s*live$/ }).waitFor({ timeout: 30_000 });
    await sleep(500);

    const folder = join(recordDir, target.sessionId);
    mkdirSync(folder, { recursive: true });
    let time = Math.max(target.lastAt, Date.now() - 60_000);
    for (let i = 0; i < writes; i++) {
      time += 1 + Math.floor(Math.random() * 50);
      const at = new Date(time).toISOString();
      const name = entryFileName(at, target.nextSeq++);
      const path = join(folder, name);
      const entry = { kind: 'message', sessionId: target.sessionId, at, side: 'sent', peer: { as: 'uds:/tmp/cc-socks/4242.sock' }, text: `live view ${i}\nsecond line`, isQueued: true, cwd: target.cwd };
      const writtenAt = performance.now();
      const writtenAtClock = Date.now();
      const noticeCount = events.notices.length;
      writeFileSync(path, JSON.stringify(entry));
      written.push(path);
      const [notice, row] = await Promise.allSettled([
        events.next((n) => n.event.type === 'items' && n.event.items.some((item) => item.key === name) && events.notices.indexOf(n) >= noticeCount, 5_000),
        page
          .waitForFunction((key) => (globalThis as unknown as { __liveRows: RowsSeen }).__liveRows.seen[key] ?? null, name, { timeout: 5_000, polling: 20 })
          .then((handle) => handle.jsonValue() as Promise<number>),
      ]);
      if (notice.status === 'fulfilled') result.noticeMs.push(notice.value.at - writtenAt);
      else result.missedNotices++;
      if (row.status === 'fulfilled') result.rowMs.push(row.value - writtenAtClock);
      else result.missedRows++;
      if (i % 50 === 0) await sampleHeap();
      await sleep(20 + Math.random() * 30);
    }
    target.lastAt = time;

    // A burst from a writer process into a session of its own, the view filtered to it.
    const burstSession = 'bench-live-view-burst';
    await page.goto(`${url}live?session=${burstSession}`);
    await page.getByRole('status', { name: 'Connection' }).filter({ hasText: /^\s*live$/ }).waitFor({ timeout: 30_000 });
    const writer = await startWriter(recordDir);
    written.push(join(recordDir, burstSession));
    const started = performance.now();
    try {
      await writer.send({ op: 'burst', sessionId: burstSession, count: burstCount, startSeq: 1, cwd: '/home/dev/projects/bench-live-view' });
    } finally {
      await writer.kill('SIGTERM');
    }
    const wroteAt = performance.now();
    result.burst.writeMs = wroteAt - started;
    const listedText = `${burstCount.toLocaleString('en')} of`;
    const deadline = wroteAt + 60_000;
    while (performance.now() < deadline) {
      const text = (await page.getByLabel('Items listed').textContent()) ?? '';
      result.burst.listed = Number(text.split(' of ')[0]!.replaceAll(',', '')) || 0;
      if (text.startsWith(listedText)) {
        result.burst.listedAfterMs = performance.now() - wroteAt;
        break;
      }
      await sleep(20);
    }
    await sampleHeap();
  } finally {
    events.close();
    await browser.close();
  }
  return result;
}
