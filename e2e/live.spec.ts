import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from './support/test.ts';
import { E2E_PENDING_WINDOW_MS, startDashboard, waitForItems } from './support/dashboard.ts';
import { useLiveRecord } from './support/liveRecord.ts';
import { SessionWriting, startWriter } from './support/record.ts';

// Files read while they are written, and writes cut short: what a concurrent reader meets
// (rule.oneWriter), and what appears without a reload.

const live = useLiveRecord(test, 'live');

const entry = (page: Page, file: string) => page.locator(`[data-file="${file}"]`);

test('a write killed halfway shows as being written, then as unknown evidence with its name and size', async ({ page }) => {
  // A command of its own, whose readers wait E2E_PENDING_WINDOW_MS for a file to parse where the
  // product waits 10 s; its bound below is shorter than the product's window.
  const dashboard = await startDashboard(live.dir, 0, { pendingWindowMs: E2E_PENDING_WINDOW_MS });
  const writer = await startWriter(live.dir);
  try {
    const session = new SessionWriting(writer, '/e2e/crash');
    await session.start();
    await waitForItems(dashboard.url, session.sessionId, 1);
    await page.goto(`${dashboard.url}/session/${session.sessionId}`);
    await expect(page.getByRole('article', { name: /start entry/ })).toBeVisible();
    const file = await session.sent({ as: 'api' }, 'This message is never finished on disk.', { isQueued: true }, { stallAfterBytes: 57 });
    await writer.kill();

    const row = entry(page, file);
    // Within the pending window it may still be a writer at work.
    await expect(row).toContainText('Being written');
    // After the reader's pending window.
    await expect(row).toContainText(`Unknown evidence: file ${file} (57 bytes) never parsed`, { timeout: E2E_PENDING_WINDOW_MS + 5_000 });
    const banner = page.getByRole('region', { name: 'Degraded recording' });
    await expect(banner).toContainText('1 file never parsed (for example a write cut short): unknown evidence, not nothing.');
    await expect(banner).toContainText(file);
    await expect(page.locator('.session-row', { hasText: session.sessionId.slice(0, 8) }).locator('.badge-degraded')).toBeVisible();
  } finally {
    await writer.kill();
    await dashboard.stop();
  }
});

test('a file read while it is being written is shown as pending, then appears as its entry when complete', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/slow');
  await session.start();
  await waitForItems(live.url, session.sessionId, 1);
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(page.getByRole('article', { name: /start entry/ })).toBeVisible();

  const text = 'Written in small pieces, with pauses, so that a reader sees it half-written. '.repeat(2);
  const writing = session.received({ as: 'uds:/tmp/cc-socks/7.sock' }, text, 'queued', { chunkBytes: 24, chunkDelayMs: 150 });
  await expect(page.getByText('Being written:')).toBeVisible();
  const file = await writing;
  await expect(entry(page, file).locator('.entry-text')).toHaveText(text);
  await expect(page.getByText('Being written:')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Degraded recording' })).toHaveCount(0);
});

// How soon is a figure, measured by the bench beside its baseline (`npm run bench -- --only
// browser`: file written → row on screen), not by a timed test on a shared machine.
test('a new entry appears in the open session from the live notices, without a reload', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/live');
  await session.start();
  await waitForItems(live.url, session.sessionId, 1);
  // The event stream answers once it is connected: what is written after that is news to the page.
  const connected = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await connected;
  await expect(page.getByRole('article', { name: /start entry/ })).toBeVisible();
  // Set in this document: a reload would lose it.
  await page.evaluate(() => Object.assign(window, { openedOnce: true }));

  const file = await session.received({ as: 'web-app' }, 'Live, as it happens.');
  await expect(entry(page, file).locator('.entry-text')).toHaveText('Live, as it happens.');
  expect(await page.evaluate(() => (window as { openedOnce?: boolean }).openedOnce)).toBe(true);
});

test('a new session in a new project appears in the sidebar without a reload', async ({ page }) => {
  await page.goto(live.url);
  await expect(page.getByRole('navigation', { name: 'Projects and sessions' })).toBeVisible();
  const session = new SessionWriting(live.writer, '/e2e/brand-new-project');
  await session.start();
  await waitForItems(live.url, session.sessionId, 1);
  await expect(page.getByRole('region', { name: 'Project /e2e/brand-new-project' })).toBeVisible();
  await expect(page.getByRole('link', { name: `Session ${session.sessionId}` })).toBeVisible();
});

test('a session in the sidebar follows its new entries from the live notices, without fetching the list again', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/sidebar-counts');
  await session.start();
  await waitForItems(live.url, session.sessionId, 1);
  await page.goto(live.url);
  const row = page.getByRole('link', { name: `Session ${session.sessionId}` });
  await expect(row).toContainText('0 sent');
  const listFetches: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/sessions') listFetches.push(request.url());
  });
  await session.sent({ as: 'uds:/tmp/cc-socks/1.sock' }, 'one');
  await session.sent({ as: 'uds:/tmp/cc-socks/1.sock' }, 'two', { isQueued: false, reason: 'no such peer' });
  await expect(row).toContainText('2 sent');
  await expect(row).toContainText('1 not queued');
  expect(listFetches).toEqual([]);
});

test('a followed session keeps its newest entry in view when what is above its rows grows after them (its activity comes once they are shown)', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/grown');
  await session.start();
  await live.writer.send({ op: 'burst', sessionId: session.sessionId, count: 40, startSeq: 2, cwd: '/e2e/grown' });
  await waitForItems(live.url, session.sessionId, 41);
  // Tall enough for the activity and the peers to be open, as they come.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(page.getByRole('table', { name: 'Messages per peer' })).toBeVisible();
  await expect(page.getByText('(#40)')).toBeInViewport();
});

test('the view follows the newest entry until the reader scrolls away; then "N new" brings them back', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/busy');
  await session.start();
  await waitForItems(live.url, session.sessionId, 1);
  await live.writer.send({ op: 'burst', sessionId: session.sessionId, count: 40, startSeq: 2, cwd: '/e2e/busy' });
  session.seq = 41;
  await page.goto(`${live.url}/session/${session.sessionId}`);
  // It opens at the newest entry.
  await expect(page.getByText('(#40)')).toBeInViewport();

  const following = await session.sent({ as: 'web-app' }, 'while following');
  await expect(entry(page, following)).toBeInViewport();

  await page.locator('.conversation-scroll').hover();
  await page.mouse.wheel(0, -1500);
  await expect(entry(page, following)).not.toBeInViewport();
  const one = await session.sent({ as: 'web-app' }, 'first while away');
  const two = await session.sent({ as: 'web-app' }, 'second while away');
  const marker = page.getByRole('button', { name: '2 new ↓' });
  await expect(marker).toBeVisible();
  await expect(entry(page, one)).not.toBeInViewport();
  await marker.click();
  await expect(entry(page, two)).toBeInViewport();
  await expect(marker).toHaveCount(0);
});

test('a followed session that grows past a page boundary keeps showing its newest entry, whichever page answers first', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/growing');
  await session.start();
  await live.writer.send({ op: 'burst', sessionId: session.sessionId, count: 200, startSeq: 2, cwd: '/e2e/growing' });
  session.seq = 201;
  await waitForItems(live.url, session.sessionId, 201);
  // The second page (items 200 to 399) answers late, as a slow answer would: the first page's
  // answer, with the session's new length, comes first while the view moves off the first page.
  await page.route(
    (url) => url.pathname === `/api/sessions/${session.sessionId}` && url.searchParams.get('offset') === '200',
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await route.continue();
    },
  );
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(page.getByText('(#200)')).toBeInViewport();
  // About a screenful of writes: the view leaves the first page on one of them.
  for (let i = 0; i < 25; i++) {
    const written = await session.sent({ as: 'web-app' }, `growing ${i}`);
    await expect(entry(page, written)).toBeInViewport();
  }
});

test('an invalid entry too large for a page says so in place, and shows the file\'s own text on demand', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/large-invalid');
  await session.start();
  // JSON, but not an entry (a side the record does not know), and over the page's 64 KiB.
  const file = await session.sent({ as: 'api' }, 'z'.repeat(70_000) + ' the end', { isQueued: true }, {});
  await waitForItems(live.url, session.sessionId, 2);
  const invalid = await session.write({ kind: 'message', side: 'sideways', text: 'y'.repeat(70_000) + ' its last words' });
  await waitForItems(live.url, session.sessionId, 3);
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(entry(page, file).locator('.entry-text')).toBeVisible();
  const row = entry(page, invalid);
  await expect(row).toContainText('Not a valid entry');
  await expect(row.locator('.raw-json')).toHaveCount(0);
  await row.getByRole('button', { name: /show the file's text \([\d,]+ bytes\)/ }).click();
  await expect(row.locator('.raw-json')).toContainText('"side":"sideways"');
});

test('once the page holds the list, it asks the server only for what changed since: a stray file beside the sessions is listed from an answer of the changes alone', async ({ page }) => {
  const before = new SessionWriting(live.writer, '/e2e/list-changes');
  await before.start();
  await waitForItems(live.url, before.sessionId, 1);
  await page.goto(live.url);
  await expect(page.getByRole('link', { name: `Session ${before.sessionId}` })).toBeVisible();
  // Each answer as it is told; its body read apart, since the page may draw it before that is done.
  const answers: Promise<{ since: string | null; schema: string }>[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname !== '/api/sessions') return;
    answers.push(response.json().then((body: { schema: string }) => ({ since: url.searchParams.get('since'), schema: body.schema })));
  });
  // A file directly in the record directory is told as the store's state, which has the list fetched again.
  const stray = `list-changes-${process.pid}.txt`;
  writeFileSync(join(live.dir, stray), 'beside the sessions, in no session folder');
  try {
    await expect(page.locator(`.sidebar-note[title*="${stray}"]`)).toBeVisible();
    await expect.poll(() => answers.length).toBeGreaterThan(0);
    for (const answer of await Promise.all(answers)) expect(answer).toEqual({ since: expect.stringMatching(/^[0-9a-f]{8}\.[0-9]+$/), schema: 'rec.session-changes/1' });
  } finally {
    rmSync(join(live.dir, stray), { force: true });
  }
});

/** Writes `count` entries into a session, one every `everyMs`, while something else is looked at. */
async function keepWriting(session: SessionWriting, count: number, everyMs: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await session.sent({ as: 'web-app' }, `busy write ${i}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

test("a search the server refuses (a regular expression it cannot run) shows the server's words, and is not asked again while the record is written", async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/refused-search');
  await session.start();
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/search') asked.push(request.url());
  });
  await page.goto(`${live.url}/search?q=${encodeURIComponent('(unclosed')}&regex=1`);
  const writing = keepWriting(session, 15, 200);
  // Each write's notice once cancelled the search and asked it again: its answer never showed.
  await expect(page.locator('.notice.error')).toContainText('not a regular expression', { timeout: 5_000 });
  await writing;
  await page.waitForTimeout(1_000);
  await expect(page.locator('.notice.error')).toContainText('not a regular expression');
  // The first ask, and at most the one a store's hello asks again.
  expect(asked.length, asked.join('\n')).toBeLessThanOrEqual(2);
  // Nothing to download of a search that was refused.
  await expect(page.getByRole('link', { name: /NDJSON/ })).toHaveCount(0);
});

test("a search's results come while the record is written, and it is asked again at most every few seconds, which the page says", async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/busy-search');
  await session.start();
  await session.sent({ as: 'web-app' }, 'findable busy-search marker');
  await waitForItems(live.url, session.sessionId, 2);
  const asked: number[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/search') asked.push(Date.now());
  });
  await page.goto(`${live.url}/search?q=busy-search+marker`);
  const writing = keepWriting(session, 20, 150);
  await expect(page.getByRole('status')).toContainText('1 entry', { timeout: 10_000 });
  await writing;
  // 20 writes over ~4 s: once every notice was once a search asked again, cancelling the last.
  expect(asked.length, `${asked.length} searches asked`).toBeLessThanOrEqual(3);
  // An entry written that matches is a hit without a reload, and the page says its hits come so.
  await session.sent({ as: 'web-app' }, 'a second findable busy-search marker');
  await expect(page.getByRole('status')).toContainText('2 entries', { timeout: 10_000 });
  await expect(page.getByRole('status')).toContainText('Searched again as entries are written.');
});
