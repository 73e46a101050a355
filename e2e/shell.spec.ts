import path from 'node:path';
import { startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { makeRecordDir, SessionWriting, startWriter, type Writer } from './support/record.ts';
import { makeSacStore, makeSpexHome, makeStoresFolder, readSources, spexSessionJson, waitForConversation, type SacStore, type SpexHome } from './support/stores.ts';
import { expect, test, type Page } from './support/test.ts';

// What every kind's page has from the one shell around them: one event stream for every tab of a
// dashboard, a status per store, conversations as virtualized lists, and times in the zone the
// reader chose. A record, a spex home and a set-agent-comm store, each written by its own writer.

const PROJECT = '-e2e-shell';
const SPEX_SMALL = 'aaaaaaaa-5151-4000-8000-00000000000a';
const SPEX_BIG = 'bbbbbbbb-5151-4000-8000-00000000000b';
const WEB = 'web-app#3f9c1a20';
const API = 'api-service#c4e10000';
const BIG = 5_000;
const spexText = (n: number) => `spex line ${n} of ${BIG}`;
const sacText = (n: number) => `sac entry ${n} of ${BIG}`;

let folder: { dir: string; remove(): Promise<void> };
let recordDir: { dir: string; remove(): Promise<void> };
let recordWriter: Writer;
let spex: SpexHome;
let sac: SacStore;
let dashboard: RunningDashboard;
let url = '';
let sources = new Map<string, string>();
let recordSession = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  folder = await makeStoresFolder('shell');
  recordDir = await makeRecordDir('shell-record');
  recordWriter = await startWriter(recordDir.dir);
  const session = new SessionWriting(recordWriter, '/e2e/shell');
  await session.start();
  recordSession = session.sessionId;

  spex = await makeSpexHome(folder.dir);
  await spex.writer.send({ op: 'session', project: PROJECT, sessionId: SPEX_SMALL, value: spexSessionJson(SPEX_SMALL, 'small') });
  await spex.writer.send({ op: 'event', project: PROJECT, sessionId: SPEX_SMALL, event: { ts: new Date().toISOString(), kind: 'sent', mid: 'm-small', text: 'a small session', from: null } });
  await spex.writer.send({ op: 'session', project: PROJECT, sessionId: SPEX_BIG, value: spexSessionJson(SPEX_BIG, 'big') });
  const base = Date.parse('2026-12-01T00:00:00.000Z');
  const appends: Promise<unknown>[] = [];
  for (let n = 1; n <= BIG; n++) {
    const event = { ts: new Date(base + n * 1000).toISOString(), kind: 'sent', mid: `m-${n}`, text: spexText(n), from: n % 2 === 0 ? null : SPEX_SMALL };
    appends.push(spex.writer.send({ op: 'event', project: PROJECT, sessionId: SPEX_BIG, event }));
  }
  await Promise.all(appends);

  sac = await makeSacStore(folder.dir);
  // In a room of their own, the web-app seat writes every other entry; api-service writes the others, to everyone.
  const sends: Promise<void>[] = [];
  for (let n = 1; n <= BIG; n++) {
    const ts = new Date(base + n * 1000).toISOString().replace('Z', '+00:00');
    sends.push(sac.writer.send({ op: 'send', room: 'busy', seat: n % 2 === 0 ? WEB : API, ts, type: 'FACT', text: sacText(n) }));
  }
  await Promise.all(sends);

  dashboard = await startDashboard([recordDir.dir, spex.dir, sac.dir]);
  url = dashboard.url;
  sources = await readSources(url);
  await waitForConversation(url, sources.get('spex')!, SPEX_BIG, BIG, (body) => (body['page'] as { total: number }).total);
  await waitForConversation(url, sources.get('sac')!, WEB, BIG, (body) => (body['sentTotal'] as number) + (body['receivedTotal'] as number));
});

test.afterAll(async () => {
  await dashboard?.stop();
  await recordWriter?.kill();
  await spex?.writer.kill();
  await sac?.writer.close();
  await recordDir?.remove();
  await folder?.remove();
});

const spexPage = (id: string) => `${url}/spex/${sources.get('spex')}/session/${id}`;
const seatPage = (seat: string) => `${url}/sac/${sources.get('sac')}/seat/${encodeURIComponent(seat)}`;
const roomPage = (room: string) => `${url}/sac/${sources.get('sac')}/room/${room}`;

/** The requests a page makes for the event stream. */
function countStreams(page: Page): () => number {
  let streams = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/events') streams++;
  });
  return () => streams;
}

test('a record session, a spex session and a set-agent-comm seat each open one event stream for the page', async ({ page }) => {
  const streams = countStreams(page);
  await page.goto(`${url}/session/${recordSession}`);
  await expect(page.getByRole('article', { name: /start entry/ })).toBeVisible();
  expect(streams()).toBe(1);

  for (const [address, shown] of [
    [spexPage(SPEX_SMALL), page.getByText('a small session')],
    [seatPage(WEB), page.getByText(sacText(BIG), { exact: true })],
    [roomPage('team'), page.getByText('Deployed api-service 2.4.0 to staging.')],
  ] as const) {
    const before = streams();
    await page.goto(address);
    await expect(shown.first()).toBeVisible();
    expect(streams() - before, address).toBe(1);
  }
});

test('seven tabs of one dashboard all load, and each shows what is appended while they are open', async ({ context }) => {
  test.setTimeout(90_000);
  const pages: Page[] = [];
  for (let tab = 0; tab < 7; tab++) {
    const page = await context.newPage();
    pages.push(page);
    await page.goto(spexPage(SPEX_SMALL), { timeout: 10_000 });
    await expect(page.getByText('a small session'), `tab ${tab + 1}`).toBeVisible({ timeout: 10_000 });
  }
  await spex.writer.send({ op: 'event', project: PROJECT, sessionId: SPEX_SMALL, event: { ts: new Date().toISOString(), kind: 'sent', mid: 'm-tabs', text: 'told to every tab', from: null } });
  for (const [tab, page] of pages.entries()) await expect(page.getByText('told to every tab'), `tab ${tab + 1}`).toBeVisible({ timeout: 10_000 });
});

test('a missing spex home has a banner that names the spex home once and says it is waited for, while the record beside it is present', async ({ page }) => {
  const missing = path.join(folder.dir, 'no-such-spex-home');
  const beside = await startDashboard([recordDir.dir, '--spex', missing]);
  try {
    await page.goto(`${beside.url}/session/${recordSession}`);
    await expect(page.getByRole('article', { name: /start entry/ })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'does not exist' })).toHaveText(`The spex home ${missing} does not exist (yet). Waiting for it.`);
    await expect(page.getByText('The record directory')).toHaveCount(0);
  } finally {
    await beside.stop();
  }
});

test.describe('in a browser whose zone is not UTC', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });

  test('set-agent-comm times follow the UTC / Local switch, and keep the header’s text as written on hover', async ({ page }) => {
    await page.goto(roomPage('team'));
    const question = page.getByRole('article', { name: `QUESTION by ${API}` });
    const time = question.locator('.sac-time');
    await expect(time).toHaveText('2026-11-30 17:18:53.482 UTC');
    await expect(time).toHaveAttribute('title', /2026-11-30T17:18:53\.482\+00:00/);
    await page.getByRole('group', { name: 'Time zone for all times' }).getByRole('button', { name: 'Local' }).click();
    await expect(time).toContainText('2026-11-30 22:48:53.482');
    await expect(time).toHaveAttribute('title', /2026-11-30T17:18:53\.482\+00:00/);
  });
});

/** Brings the first or the last item of a virtualized list into view, as Home and End do. */
async function reach(page: Page, key: 'Home' | 'End', shown: ReturnType<Page['getByText']>): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.getByRole('feed').focus();
        await page.keyboard.press(key);
        return shown.isVisible();
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  await expect(shown).toBeInViewport();
}

test(`a spex session of ${BIG.toLocaleString('en')} lines is a virtualized list: a screenful in the page, and scrolling reaches its first and last lines`, async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(spexPage(SPEX_BIG));
  await expect(page.getByText(spexText(BIG), { exact: true })).toBeInViewport({ timeout: 15_000 });
  expect(await page.locator('[data-item]').count()).toBeLessThan(60);
  await reach(page, 'Home', page.getByText(spexText(1), { exact: true }));
  expect(await page.locator('[data-item]').count()).toBeLessThan(60);
  await reach(page, 'End', page.getByText(spexText(BIG), { exact: true }));
});

test(`a set-agent-comm seat of ${BIG.toLocaleString('en')} entries is a virtualized list: a screenful in the page, and scrolling reaches its first and last entries`, async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(seatPage(WEB));
  await expect(page.getByText(sacText(BIG), { exact: true })).toBeInViewport({ timeout: 15_000 });
  expect(await page.locator('[data-item]').count()).toBeLessThan(60);
  // The seat's first entry: the example store's question, received before anything else was written.
  await reach(page, 'Home', page.getByText('Does the cart still POST /v1/orders, or did you move to /v2?'));
  expect(await page.locator('[data-item]').count()).toBeLessThan(60);
  await reach(page, 'End', page.getByText(sacText(BIG), { exact: true }));
});

test('Settings opens over the page without moving it, and closes as a menu does: on Escape, its button focused again, and on a click outside', async ({ page }) => {
  await page.goto(url);
  const main = page.locator('main.view');
  await expect(main).toBeVisible();
  const top = (await main.boundingBox())!.y;
  const summary = page.locator('.settings-menu summary');
  const panel = page.getByRole('group', { name: 'Settings' });
  await summary.click();
  await expect(panel.getByRole('checkbox', { name: 'relative times' })).toBeVisible();
  expect((await main.boundingBox())!.y).toBe(top);

  await panel.getByRole('checkbox', { name: 'relative times' }).focus();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(summary).toBeFocused();

  await summary.click();
  await expect(panel).toBeVisible();
  await main.click({ position: { x: 5, y: 5 } });
  await expect(panel).toBeHidden();
});

test('the first Tab reaches “Skip to the view”, which takes the keyboard past the top bar and the sidebar into the view', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${url}/source/${sources.get('record')}/conversation/${recordSession}`);
  await expect(page.locator('.session-header')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the view' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  // The next Tab is the view's first control, not the top bar's or the sidebar's.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement))).toBe(true);
});

test('the list of keys gives the focus back when it closes: to what had it, or to the view, whose next Enter is its own, not the list opened again', async ({ page }) => {
  await page.goto(url);
  await expect(page.locator('main.view')).toBeVisible();
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  // Opened by its key with nothing focused: closed, the view has the focus, not the page's start.
  await page.keyboard.press('?');
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await expect(page.locator('main.view')).toBeFocused();
  // So the next Enter is the view's: given to the list's button, it opened the list again (read two frames after).
  await page.keyboard.press('Enter');
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await expect(help).toHaveCount(0);
  // Opened from a link that had the focus: the link has it again.
  const live = page.getByRole('link', { name: 'Live: every new item (l)' });
  await live.focus();
  await page.keyboard.press('?');
  await help.getByRole('button', { name: 'Close' }).click();
  await expect(live).toBeFocused();
});

test('a page picked in the sidebar takes the focus, by the keyboard or a click, so the next Tab goes on in that page', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(url);
  const sidebar = page.getByRole('navigation', { name: 'Projects and sessions' });
  const spexRow = sidebar.getByRole('link', { name: `spex session ${SPEX_SMALL}`, exact: true });
  await spexRow.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${url}/source/${sources.get('spex')}/conversation/${SPEX_SMALL}`);
  // The page's view, once it is the only one (the page before is kept hidden while its code loads).
  const view = page.getByRole('main');
  await expect(view).toHaveCount(1);
  await expect(view).toBeFocused();
  // Once its first answer is here (before, the view has nothing to Tab to).
  await expect(view.getByRole('button', { name: 'Copy the full session id' })).toBeVisible();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement))).toBe(true);
  await sidebar.getByRole('link', { name: `set-agent-comm seat ${WEB}`, exact: true }).click();
  await expect(page).toHaveURL(`${url}/source/${sources.get('sac')}/conversation/${encodeURIComponent(WEB)}`);
  await expect(view).toHaveCount(1);
  await expect(view).toBeFocused();
  // A row opened in another tab opens nothing here: the next page, opened by a key, keeps its own focus.
  const [other] = await Promise.all([page.context().waitForEvent('page'), spexRow.click({ modifiers: ['Control'] })]);
  await other.close();
  await page.keyboard.press('/');
  await expect(page).toHaveURL(`${url}/search`);
  await expect(page.getByRole('searchbox', { name: 'Text to find' })).toBeFocused();
});

test('a view’s own key on that view keeps what it shows and gives it the focus: / the search’s words, l the live view’s filters, g the map’s list', async ({ page }) => {
  await page.goto(`${url}/search?q=spex%20line&side=sent`);
  await expect(page.getByRole('searchbox', { name: 'Text to find' })).toHaveValue('spex line');
  await page.locator('main').focus();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Text to find' })).toBeFocused();
  await expect(page.getByRole('searchbox', { name: 'Text to find' })).toHaveValue('spex line');
  expect(new URL(page.url()).search).toBe('?q=spex%20line&side=sent');

  for (const [key, address] of [
    ['l', '/live?side=received'],
    ['g', '/map?view=list'],
  ] as const) {
    await page.goto(`${url}${address}`);
    await expect(page.locator('main')).toBeVisible();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press(key);
    await expect(page.locator('main')).toBeFocused();
    expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(address);
  }
});

test('in the list of keys every key is drawn a line tall, beside words of one line or of two', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url);
  await expect(page.locator('main.view')).toBeVisible();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  const rows = await help.locator('dl > div').evaluateAll((all) => all.map((row) => ({ words: row.querySelector('dd')!.getBoundingClientRect().height, keys: [...row.querySelectorAll('kbd')].map((key) => key.getBoundingClientRect().height) })));
  const line = Math.min(...rows.map((row) => row.words));
  // Some words take two lines at this width: the test would not see a stretched key otherwise.
  expect(rows.some((row) => row.words > line * 1.5)).toBe(true);
  for (const height of rows.flatMap((row) => row.keys)) expect(height).toBeLessThanOrEqual(line + 1);
});
