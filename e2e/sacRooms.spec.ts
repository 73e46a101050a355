import { sacTime } from '../server/demo/sacWrite.ts';
import type { SacWriter } from '../tools/writer/sacWriter.ts';
import { startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { exitedPid, makeEmptySacStore, makeStoresFolder, readSources, registrySeat } from './support/stores.ts';
import { expect, openFolded, test, type Page } from './support/test.ts';

// What the dashboard shows beside `sac admin` of a room's evidence and of rooms sac knows only by
// its metadata: one torn write is one card, on the seat whose file it is; a room of two opened and
// never written, and a room retired to the archive, are listed with their members; a gone seat's
// backlog is never unread, in the list as on the roster. Written by a real writer process as sac's
// `send` (one of them killed mid-write), `join`, `dm` and `rooms --archive` leave the store.

const API = 'api-service#c4e10000';
const WEB = 'web-app#3f9c1a20';
const PAIR = 'dm-api-service-c4e10000-web-app-3f9c1a20';
const at = (minute: string) => `2026-11-30T16:${minute}.000+00:00`;
const TORN_FILE = `channels/ops/${API}.md`;

let folder: { dir: string; remove(): Promise<void> } | undefined;
let writer: SacWriter;
let dashboard: RunningDashboard;
let url = '';
let source = '';

test.beforeAll(async () => {
  folder = await makeStoresFolder('sacrooms');
  const made = await makeEmptySacStore(folder.dir);
  const store = made.dir;
  writer = made.writer;
  const now = sacTime();
  const seat = (session: string, pid: number, lastSeen: string, rooms: string[]) => registrySeat(session, pid, lastSeen, rooms, at('00:00'));
  const gonePid = await exitedPid();
  await writer.send({
    op: 'json',
    name: 'registry.json',
    value: {
      agents: {
        'web-app': { agent: 'web-app', project: '/home/dev/projects/web-app', rooms: ['ops'], seats: { [WEB]: seat('3f9c1a20-0000-0000-0000-000000000001', writer.pid, now, ['ops', PAIR, 'retro']) } },
        'api-service': { agent: 'api-service', project: '/home/dev/projects/api-service', rooms: ['ops'], seats: { [API]: seat('c4e10000-0000-0000-0000-000000000002', gonePid, at('05:00'), ['ops', PAIR, 'retro']) } },
      },
    },
  });
  await writer.send({ op: 'json', name: 'members.json', value: { [WEB]: { rooms: ['ops', PAIR, 'retro'], left: [] }, [API]: { rooms: ['ops', PAIR, 'retro'], left: [] } } });
  // `sac dm`: a room of two in rooms.json and both seats' books, its folder not made until one writes.
  await writer.send({ op: 'json', name: 'rooms.json', value: { ops: { by: API, at: at('00:00') }, retro: { by: WEB, at: at('00:00') }, [PAIR]: { by: WEB, at: at('00:10'), pair: [API, WEB] } } });
  await writer.send({ op: 'send', room: 'retro', seat: WEB, ts: at('00:20'), type: 'FACT', text: 'Retro notes: the release went out.' });
  // `sac rooms --archive retro`: its folder moves to channels/.archive/retro; its records stay.
  await writer.send({ op: 'archive', room: 'retro' });
  await writer.send({ op: 'send', room: 'ops', seat: API, ts: at('01:00'), type: 'QUESTION', to: ['web-app'], text: 'Q1: is the invoice endpoint on v2?' });
  await writer.send({ op: 'send', room: 'ops', seat: WEB, ts: at('02:00'), type: 'ANSWER', re: at('01:00'), text: 'A1: yes, v2 since Tuesday.' });
  await writer.send({ op: 'send', room: 'ops', seat: WEB, ts: at('03:00'), type: 'FACT', text: 'F1: the cart client is on 2.4.0.' });
  // A `send` killed after its header and a few bytes of its body, long ago: one torn write.
  const header = `\n## ${at('04:00')} — FACT\n`;
  await writer.send({ op: 'send', room: 'ops', seat: API, ts: at('04:00'), type: 'FACT', text: 'Rolling back the cache change because p95 went up', stopAfterBytes: Buffer.byteLength(header) + 12 });
  await writer.send({ op: 'raw', path: TORN_FILE, bytes: '', append: true, mtime: new Date(Date.now() - 3_600_000).toISOString() });
  // sac's cursors: the web app has read the question; the api service, whose session is gone, nothing.
  await writer.send({ op: 'json', name: 'cursors.json', value: { [`ops::${WEB}`]: { [API]: at('01:00') }, [`ops::${API}`]: {} } });
  dashboard = await startDashboard([store]);
  url = dashboard.url;
  source = (await readSources(url)).get('sac')!;
});

test.afterAll(async () => {
  await dashboard?.stop();
  await writer?.close();
  await folder?.remove();
});

const flowOf = (page: Page) => page.getByRole('region', { name: 'Flow' });
const seatRow = (page: Page, seat: string) => page.getByRole('link', { name: `set-agent-comm seat ${seat}` });
const roomRow = (page: Page, room: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: `#${room}`, exact: true }) });

test('one torn write is one card and one banner that names its file and links to its place; it degrades the seat whose file it is, not the room’s other seats', async ({ page }) => {
  await page.goto(`${url}/source/${source}/rooms/ops`);
  await expect(flowOf(page).getByRole('article')).toHaveCount(4);
  await expect(flowOf(page).locator('article.ev-damaged')).toHaveCount(1);
  // Whom a write cut short woke is not derived: sac wakes once its append is done.
  await expect(flowOf(page).locator('article.ev-damaged .sac-wakes')).toHaveText('whom it wakes: unknown, its write is not whole');
  const banner = page.getByRole('region', { name: 'Degraded evidence' }).locator('[data-reason="torn-entry"]');
  await expect(banner).toHaveCount(1);
  await expect(banner).toContainText(`1 torn write in ${TORN_FILE}`);
  // A banner of its own beside the room's header, as the record's and spex's are, shown whole,
  // headed as theirs are: what is incomplete.
  await expect(page.getByRole('region', { name: 'Degraded evidence' })).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('region', { name: 'Degraded evidence' }).getByRole('heading')).toHaveText("This room's evidence is degraded: what its flow shows is incomplete");
  await banner.getByRole('link', { name: /See it in #ops/ }).click();
  await expect(page).toHaveURL(/\/rooms\/ops\/item\//);
  await expect(flowOf(page).locator('article.sac-target')).toHaveClass(/ev-damaged/);
  await expect(seatRow(page, API).locator('.badge-degraded')).toBeVisible();
  await expect(seatRow(page, WEB)).toBeVisible();
  await expect(seatRow(page, WEB).locator('.badge-degraded')).toHaveCount(0);
  await seatRow(page, WEB).click();
  await expect(page.locator('[data-column="received"]').locator('article.ev-damaged')).toHaveCount(1);
  await expect(page.locator('[data-reason="torn-entry"]')).toHaveCount(0);
  // Whom it woke is unknown, not nobody: it stays in the flow of waking entries only.
  await page.goto(`${url}/source/${source}/rooms/ops?flow=waking`);
  await expect(flowOf(page).locator('article.ev-damaged')).toHaveCount(1);
});

test('a room’s entry and a seat’s, selected with j and k, are put in the address, as every conversation’s are: the address opens the same entry again', async ({ page }) => {
  await page.goto(`${url}/source/${source}/rooms/ops`);
  await expect(flowOf(page).getByRole('article')).toHaveCount(4);
  await page.keyboard.press('Home');
  await page.keyboard.press('j');
  await expect(page).toHaveURL(/\/rooms\/ops\/item\/[^/?]+$/);
  const chosen = page.url();
  await page.reload();
  await expect(flowOf(page).locator('article.sac-target')).toBeVisible();
  expect(page.url()).toBe(chosen);
  // A seat's, with what the address chose to show kept.
  await page.goto(`${url}/source/${source}/conversation/${encodeURIComponent(WEB)}?others=1`);
  await expect(page.locator('[data-column="received"]').getByRole('article').first()).toBeVisible();
  await page.keyboard.press('Home');
  await expect(page).toHaveURL(new RegExp(`/conversation/${encodeURIComponent(WEB)}/item/[^/?]+\\?others=1$`));
});

test('a room’s header, its roster in it, may take as much of the view as a seat’s header: a roster beside a degraded banner was cut to a member and a half at 1,280 × 800', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const capOf = async (path: string) => {
    await page.goto(`${url}${path}`);
    const header = page.locator('main .session-header');
    await expect(header).toBeVisible();
    return header.evaluate((element) => getComputedStyle(element).maxHeight);
  };
  const room = await capOf(`/source/${source}/rooms/ops`);
  const seat = await capOf(`/source/${source}/conversation/${encodeURIComponent(WEB)}`);
  expect(room).toBe(seat);
});

test('a room of two opened and never written, and a room retired to the archive, are listed with their members and where their folder is', async ({ page }) => {
  await page.goto(`${url}/source/${source}/rooms`);
  await expect(roomRow(page, PAIR)).toContainText('a room of two');
  await expect(roomRow(page, PAIR)).toContainText(API);
  await expect(roomRow(page, PAIR)).toContainText(WEB);
  await expect(roomRow(page, PAIR)).toContainText('no entries written: no folder yet');
  await expect(roomRow(page, 'retro')).toContainText('archived to channels/.archive/retro');
  await roomRow(page, PAIR).getByRole('link', { name: `#${PAIR}` }).click();
  await openFolded(page.locator('.sac-header .facts-fold'));
  await expect(page.getByRole('region', { name: 'Members' }).getByRole('listitem')).toHaveCount(2);
  await expect(page.locator('.sac-folder')).toContainText('no entries written: no folder yet');
});

test('a seat whose session is gone is drawn as gone in the list, and its backlog is not counted as unread', async ({ page }) => {
  await page.goto(`${url}/source/${source}/rooms/ops`);
  await expect(seatRow(page, API)).toContainText('gone (derived)');
  await expect(seatRow(page, API)).not.toContainText(/\d unread/);
  await expect(seatRow(page, API)).toContainText('gone: backlog of 2 not counted as unread');
  await expect(seatRow(page, WEB)).toContainText('1 unread by sac');
  // The rooms list says so of the member too, in the same words, with sac's reason on hover; a room with nothing degraded says no.
  await page.goto(`${url}/source/${source}/rooms`);
  const gone = roomRow(page, 'ops').locator('.sac-live-gone');
  await expect(gone).toHaveText('gone (derived)');
  await expect(gone).toHaveAttribute('title', /^Derived as set-agent-comm derives it: no process of it is running/);
  await expect(roomRow(page, PAIR).locator('td').last()).toHaveText('no');
});

test("a room's flow, asked again while entries keep coming, is let finish and then asked once more: no answer is cancelled for a newer one, and the last entry is shown", async ({ page }) => {
  await writer.send({ op: 'send', room: 'busy', seat: WEB, ts: sacTime(), type: 'FACT', text: 'busy 0' });
  await page.goto(`${url}/source/${source}/rooms/busy`);
  await expect(flowOf(page).getByRole('article')).toHaveCount(1);
  // Every answer takes 400 ms: ten notices a second would each cancel the one before.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 400, downloadThroughput: -1, uploadThroughput: -1 });
  const cancelled: string[] = [];
  page.on('requestfailed', (request) => {
    if (request.url().includes('/api/sac/rooms/busy')) cancelled.push(request.failure()?.errorText ?? '');
  });
  for (let i = 1; i <= 15; i++) {
    await writer.send({ op: 'send', room: 'busy', seat: WEB, ts: sacTime(), type: 'FACT', text: `busy ${i}` });
    await page.waitForTimeout(60);
  }
  // The flow follows its newest entry (only what is in view is drawn).
  await expect(flowOf(page).getByRole('article', { name: /./ }).filter({ hasText: 'busy 15' })).toBeVisible({ timeout: 15_000 });
  expect(cancelled).toEqual([]);
});

test('a room that is not there is not asked again as entries come to the store', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/sac/rooms/nosuchroom')) asked.push(request.url());
  });
  await page.goto(`${url}/source/${source}/rooms/nosuchroom`);
  await expect(page.getByText(/no such room|not there|no room/i).first()).toBeVisible();
  const before = asked.length;
  const seat = await seatRow(page, WEB).textContent();
  for (let i = 0; i < 5; i++) {
    await writer.send({ op: 'send', room: 'busy', seat: WEB, ts: sacTime(), type: 'FACT', text: `while away ${i}` });
    await page.waitForTimeout(150);
  }
  // The notices came (the seat's counts changed), and a flush or two went by.
  await expect(seatRow(page, WEB)).not.toHaveText(seat!);
  await page.waitForTimeout(500);
  expect(asked.length).toBe(before);
});

test('on a phone a room’s “Flow shows” field stays within the screen, its long choice cut to the field', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${url}/source/${source}/rooms/ops`);
  const field = page.getByRole('combobox', { name: 'Flow shows' });
  await expect(field).toBeVisible();
  const box = (await field.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});
