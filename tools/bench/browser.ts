import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { entryFileName } from '../../server/demo/entryFile.ts';
import type { BareWatcher } from './bareWatcherClient.ts';
import { BENCH_AUTH } from './dashboardProcess.ts';
import type { LiveTarget } from './live.ts';

// The built UI in Debian's Chromium, driven by Playwright: a long session opened, scrolled, and
// followed while entries are written.

export type BrowserResult = {
  /** Navigation start → the first frame with entry rows inside the conversation's scroll box (page clock). */
  openMs: number;
  /** Navigation start → DOMContentLoaded, and → the answer that held the rows first shown. */
  domContentLoadedMs: number;
  rowsAnsweredMs: number | null;
  /** Long tasks (over 50 ms) while opening, and while scrolling through the session. */
  openLongTasksMs: number[];
  scrollLongTasksMs: number[];
  scrolledRows: number;
  /** File written → the first frame with its row inside the conversation's scroll box (both stamped with Date.now()). */
  visibleMs: number[];
  watcherMs: number[];
  missed: number;
  /** For each write that never came into view: which write, and what the view showed then. */
  misses: Miss[];
  /** The same session's page across the stores (`/sessions/<id>`), opened afterwards: navigation start → its first row, and its long tasks. */
  acrossOpenMs: number | null;
  acrossLongTasksMs: number[];
  /** Errors thrown in the page, and what it logged as errors. */
  pageErrors: string[];
  /** The tab's JS heap, used, at its highest sample. */
  jsHeapUsedBytes: number;
};

/** The view when a written row did not come into view: the "N new" marker, and how far from the bottom it was. */
type Miss = { write: number; inDom: boolean; marker: string | null; fromBottomPx: number; path: string; shows: string };

/** What the page notes about rows as they come into view; see watchRows. */
type RowsSeen = { firstAt: number | null; seen: Record<string, number>; acrossAt: number | null };

/**
 * Runs in the page before its scripts. At the first animation frame after any change to the DOM or
 * any scroll, it notes each entry row that lies inside the conversation's scroll box: the first time
 * any did (performance.now(), from navigation start), and each file's first time (Date.now()).
 * Stamping in the page, at the frame, keeps Playwright's polling out of the figures: a locator's
 * waitFor retries after 20, 50, 100, 100 and then every 500 ms, and so rounds every time up.
 * The server's tsconfig has no DOM types, hence the small local ones.
 */
function watchRows(): void {
  type Box = { top: number; bottom: number };
  type Element = { getAttribute(name: string): string | null; getBoundingClientRect(): Box };
  type Document = { querySelector(selector: string): Element | null; querySelectorAll(selector: string): Iterable<Element>; addEventListener(type: string, listener: () => void, options: object): void };
  type Window = {
    document: Document;
    requestAnimationFrame(callback: () => void): number;
    MutationObserver: new (callback: () => void) => { observe(target: Document, options: object): void };
    __rows: RowsSeen;
  };
  const page = globalThis as unknown as Window;
  const rows: RowsSeen = { firstAt: null, seen: {}, acrossAt: null };
  page.__rows = rows;
  let scheduled = false;
  const look = () => {
    scheduled = false;
    if (rows.acrossAt === null && page.document.querySelector('.joined-rows > li') !== null) rows.acrossAt = performance.now();
    const scroll = page.document.querySelector('.conversation-scroll');
    if (scroll === null) return;
    const view = scroll.getBoundingClientRect();
    const sinceNavigation = performance.now();
    const now = Date.now();
    for (const row of page.document.querySelectorAll('.conversation-row [data-file]')) {
      const box = row.getBoundingClientRect();
      if (box.bottom <= box.top || box.bottom <= view.top || box.top >= view.bottom) continue;
      rows.firstAt ??= sinceNavigation;
      const file = row.getAttribute('data-file');
      if (file !== null) rows.seen[file] ??= now;
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

/** Opening, scrolling and 200 writes take about a minute; ten is a page that stopped answering. */
const PHASE_LIMIT_MS = 10 * 60_000;

const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/** Files written go into `written` as they are written, so that the caller removes them even when the phase fails. */
export async function measureBrowser(url: string, recordDir: string, watcher: BareWatcher, target: LiveTarget, writes: number, written: string[]): Promise<BrowserResult> {
  // A dev dependency, loaded only when the browser phase runs.
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch(LAUNCH);
  // A page that stops answering would hold page.evaluate (which has no timeout) for ever: past
  // the limit the browser is closed, which fails whatever was waiting, and the phase says where.
  let step = 'opening the session';
  let stuckAt: string | null = null;
  const watchdog = setTimeout(() => {
    stuckAt = step;
    void browser.close();
  }, PHASE_LIMIT_MS);
  const result: BrowserResult = { openMs: 0, domContentLoadedMs: 0, rowsAnsweredMs: null, openLongTasksMs: [], scrollLongTasksMs: [], scrolledRows: 0, visibleMs: [], watcherMs: [], missed: 0, misses: [], acrossOpenMs: null, acrossLongTasksMs: [], pageErrors: [], jsHeapUsedBytes: 0 };
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => result.pageErrors.push(String(error.stack ?? error.message)));
    page.on('console', (message) => {
      if (message.type() === 'error') result.pageErrors.push(message.text());
    });
    // Runs in the page (the server's tsconfig has no DOM types, hence the casts).
    await page.addInitScript(() => {
      const tasks: number[] = [];
      (globalThis as unknown as { __longTasks: number[] }).__longTasks = tasks;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push(entry.duration);
      }).observe({ type: 'longtask', buffered: true } as never);
    });
    await page.addInitScript(watchRows);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const sampleHeap = async () => {
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      const used = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
      result.jsHeapUsedBytes = Math.max(result.jsHeapUsedBytes, used);
    };
    const takeLongTasks = () => page.evaluate(() => (globalThis as unknown as { __longTasks: number[] }).__longTasks.splice(0));

    await page.setExtraHTTPHeaders(BENCH_AUTH);
    await page.goto(`${url}session/${encodeURIComponent(target.sessionId)}`);
    await page.waitForFunction(() => (globalThis as unknown as { __rows: RowsSeen }).__rows.firstAt !== null, undefined, { timeout: 30_000, polling: 50 });
    const opened = await page.evaluate((sessionPath) => {
      const navigation = performance.getEntriesByType('navigation' as never)[0] as unknown as { domContentLoadedEventEnd: number };
      const firstAt = (globalThis as unknown as { __rows: RowsSeen }).__rows.firstAt!;
      // The last answer for the session's items that came before the rows did.
      const answers = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes(sessionPath) && entry.name.includes('?'))
        .map((entry) => (entry as unknown as { responseEnd: number }).responseEnd)
        .filter((end) => end <= firstAt);
      return { firstAt, domContentLoaded: navigation.domContentLoadedEventEnd, answeredAt: answers.length > 0 ? Math.max(...answers) : null };
    }, `/api/sessions/${encodeURIComponent(target.sessionId)}`);
    result.openMs = opened.firstAt;
    result.domContentLoadedMs = opened.domContentLoaded;
    result.rowsAnsweredMs = opened.answeredAt;
    await sleep(500);
    result.openLongTasksMs = await takeLongTasks();
    await sampleHeap();

    step = 'scrolling';
    // A reader scrolling up through the session with the wheel, then jumping to its start.
    const feed = page.locator('.conversation-scroll');
    const box = await feed.boundingBox();
    if (box !== null) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const seen = new Set<string>();
    for (let i = 0; i < 60; i++) {
      await page.mouse.wheel(0, -1500);
      await sleep(50);
      if (i % 10 === 0) for (const file of await page.locator('[data-file]').evaluateAll((els) => els.map((el) => el.getAttribute('data-file') ?? ''))) seen.add(file);
    }
    await feed.focus();
    await page.keyboard.press('Home');
    await sleep(500);
    await page.keyboard.press('End');
    await sleep(1_000);
    result.scrollLongTasksMs = await takeLongTasks();
    result.scrolledRows = seen.size;
    await sampleHeap();

    // Following the newest entry while a session writes.
    const folder = join(recordDir, target.sessionId);
    mkdirSync(folder, { recursive: true });
    let time = Math.max(target.lastAt, Date.now() - 60_000);
    for (let i = 0; i < writes; i++) {
      step = `waiting for live write ${i + 1} of ${writes}`;
      time += 1 + Math.floor(Math.random() * 50);
      const at = new Date(time).toISOString();
      const name = entryFileName(at, target.nextSeq++);
      const path = join(folder, name);
      const entry = { kind: 'message', sessionId: target.sessionId, at, side: 'received', peer: { as: 'api-service' }, envelope: { origin: { kind: 'peer' } }, text: `browser live ${i}`, outcome: 'consumed', cwd: target.cwd };
      const writtenAt = performance.now();
      const writtenAtClock = Date.now();
      writeFileSync(path, JSON.stringify(entry));
      written.push(path);
      const [shown, event] = await Promise.allSettled([
        page
          .waitForFunction((file) => (globalThis as unknown as { __rows: RowsSeen }).__rows.seen[file] ?? null, name, { timeout: 5_000, polling: 20 })
          .then((handle) => handle.jsonValue() as Promise<number>),
        watcher.next((line) => line.path === path, 5_000),
      ]);
      if (shown.status === 'fulfilled') result.visibleMs.push(shown.value - writtenAtClock);
      else {
        result.missed++;
        const view = await page.evaluate((file) => {
          type Element = { textContent: string | null; innerText: string; scrollHeight: number; scrollTop: number; clientHeight: number };
          const document = (globalThis as unknown as { document: { querySelector(selector: string): Element | null; body: Element } }).document;
          const scroll = document.querySelector('.conversation-scroll');
          return {
            inDom: document.querySelector(`[data-file="${file}"]`) !== null,
            marker: document.querySelector('.new-marker')?.textContent ?? null,
            fromBottomPx: scroll === null ? -1 : Math.round(scroll.scrollHeight - scroll.scrollTop - scroll.clientHeight),
            path: (globalThis as unknown as { location: { pathname: string } }).location.pathname,
            shows: document.body.innerText.slice(0, 300),
          };
        }, name);
        result.misses.push({ write: i, ...view });
      }
      if (event.status === 'fulfilled') result.watcherMs.push(event.value.at - writtenAt);
      if (i % 50 === 0) await sampleHeap();
      await sleep(20 + Math.random() * 30);
    }
    target.lastAt = time;
    await sampleHeap();

    step = 'opening the session across the stores';
    await takeLongTasks();
    await page.goto(`${url}sessions/${encodeURIComponent(target.sessionId)}`);
    await page.waitForFunction(() => (globalThis as unknown as { __rows: RowsSeen }).__rows.acrossAt !== null, undefined, { timeout: 30_000, polling: 50 });
    result.acrossOpenMs = await page.evaluate(() => (globalThis as unknown as { __rows: RowsSeen }).__rows.acrossAt);
    await sleep(1_500);
    result.acrossLongTasksMs = await takeLongTasks();
    await sampleHeap();
  } catch (error) {
    if (stuckAt !== null) throw new Error(`no progress after ${PHASE_LIMIT_MS / 60_000} minutes, while ${stuckAt}`);
    throw error;
  } finally {
    clearTimeout(watchdog);
    await browser.close();
  }
  return result;
}
