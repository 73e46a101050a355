import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { entryFileName } from '../writer/entryFile.ts';
import type { BareWatcher } from './bareWatcherClient.ts';
import { BENCH_AUTH } from './dashboardProcess.ts';
import type { LiveTarget } from './live.ts';

// The built UI in Debian's Chromium, driven by Playwright: a long session opened, scrolled, and
// followed while entries are written.

export type BrowserResult = {
  /** Navigation to the session's URL → its first entry rows on screen. */
  openMs: number;
  /** Long tasks (over 50 ms) while opening, and while scrolling through the session. */
  openLongTasksMs: number[];
  scrollLongTasksMs: number[];
  scrolledRows: number;
  /** File written → its row in the page (seen from here, so a CDP round trip is included). */
  visibleMs: number[];
  watcherMs: number[];
  missed: number;
  /** The tab's JS heap, used, at its highest sample. */
  jsHeapUsedBytes: number;
  written: string[];
};

const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

export async function measureBrowser(url: string, recordDir: string, watcher: BareWatcher, target: LiveTarget, writes: number): Promise<BrowserResult> {
  // A dev dependency, loaded only when the browser phase runs.
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch(LAUNCH);
  const result: BrowserResult = { openMs: 0, openLongTasksMs: [], scrollLongTasksMs: [], scrolledRows: 0, visibleMs: [], watcherMs: [], missed: 0, jsHeapUsedBytes: 0, written: [] };
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Runs in the page (the server's tsconfig has no DOM types, hence the casts).
    await page.addInitScript(() => {
      const tasks: number[] = [];
      (globalThis as unknown as { __longTasks: number[] }).__longTasks = tasks;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push(entry.duration);
      }).observe({ type: 'longtask', buffered: true } as never);
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const sampleHeap = async () => {
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      const used = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
      result.jsHeapUsedBytes = Math.max(result.jsHeapUsedBytes, used);
    };
    const takeLongTasks = () => page.evaluate(() => (globalThis as unknown as { __longTasks: number[] }).__longTasks.splice(0));

    await page.setExtraHTTPHeaders(BENCH_AUTH);
    const started = performance.now();
    await page.goto(`${url}session/${encodeURIComponent(target.sessionId)}`);
    await page.locator('.timeline-row [data-file]').first().waitFor({ state: 'visible', timeout: 30_000 });
    result.openMs = performance.now() - started;
    await sleep(500);
    result.openLongTasksMs = await takeLongTasks();
    await sampleHeap();

    // A reader scrolling up through the session with the wheel, then jumping to its start.
    const feed = page.locator('.timeline-scroll');
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
      time += 1 + Math.floor(Math.random() * 50);
      const at = new Date(time).toISOString();
      const name = entryFileName(at, target.nextSeq++);
      const path = join(folder, name);
      const entry = { kind: 'message', sessionId: target.sessionId, at, side: 'received', peer: { as: 'api-service' }, envelope: { origin: { kind: 'peer' } }, text: `browser live ${i}`, outcome: 'consumed', cwd: target.cwd };
      const writtenAt = performance.now();
      writeFileSync(path, JSON.stringify(entry));
      result.written.push(path);
      const [shown, event] = await Promise.allSettled([
        page.locator(`[data-file="${name}"]`).waitFor({ state: 'attached', timeout: 5_000 }).then(() => performance.now()),
        watcher.next((line) => line.path === path, 5_000),
      ]);
      if (shown.status === 'fulfilled') result.visibleMs.push(shown.value - writtenAt);
      else result.missed++;
      if (event.status === 'fulfilled') result.watcherMs.push(event.value.at - writtenAt);
      if (i % 50 === 0) await sampleHeap();
      await sleep(20 + Math.random() * 30);
    }
    target.lastAt = time;
    await sampleHeap();
  } finally {
    await browser.close();
  }
  return result;
}
