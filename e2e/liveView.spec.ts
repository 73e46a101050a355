import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { EXAMPLE_STORE } from '../shared/sac/testing/exampleStore.ts';
import { writtenOn } from '../shared/sac/testing/machine.ts';
import { startSacWriter, type SacWriter } from '../tools/writer/sacWriter.ts';
import { startSpexWriter, type SpexWriter } from '../tools/writer/spexWriter.ts';
import { apiFetch, conversationPath, sourceIdOf, startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { makeRecordDir, SessionWriting, startWriter, type Writer } from './support/record.ts';
import { expect, test, type Page } from './support/test.ts';

// The live view: every new item of every source as it lands, in arrival order, filtered by what
// the address says, following until the reader pauses, and never dropping a row.

type Store = { dir: string; writer: Writer; remove(): Promise<void> };
const stores: Store[] = [];
let sac: { dir: string; writer: SacWriter; remove(): Promise<void> };
let sacSource = '';
let dashboard: RunningDashboard;
// A spex home beside the two records, written as spex's writer writes it.
const SPEX_PROJECT = '-e2e-live-spex';
const SPEX_RECEIVER = 'dddddddd-4444-4000-8000-00000000000d';
const SPEX_SENDER = 'eeeeeeee-5555-4000-8000-00000000000e';
let spexHome: { dir: string; remove(): Promise<void> };
let spexWriter: SpexWriter;

test.beforeAll(async () => {
  for (const label of ['live-view-a', 'live-view-b']) {
    const made = await makeRecordDir(label);
    stores.push({ dir: made.dir, writer: await startWriter(made.dir), remove: made.remove });
  }
  const made = await makeRecordDir('live-view-sac');
  sac = { dir: made.dir, writer: await startSacWriter(made.dir), remove: made.remove };
  for (const [file, text] of Object.entries(writtenOn(hostname(), EXAMPLE_STORE))) await sac.writer.send({ op: 'raw', path: file, bytes: Buffer.from(text).toString('base64') });
  spexHome = await makeRecordDir('live-view-spex');
  spexWriter = await startSpexWriter(spexHome.dir);
  for (const sessionId of [SPEX_RECEIVER, SPEX_SENDER]) {
    await spexWriter.send({ op: 'session', project: SPEX_PROJECT, sessionId, value: { session_id: sessionId, worktree_path: '/e2e/live-spex', title: sessionId === SPEX_SENDER ? 'currency' : sessionId.slice(0, 4), status: 'active' } });
  }
  dashboard = await startDashboard([stores[0]!.dir, stores[1]!.dir, sac.dir, spexHome.dir]);
  for (let i = 0; i < 200 && sacSource === ''; i++) {
    const list = (await (await apiFetch(`${dashboard.url}/api/sessions`)).json()) as { sources: { kind: string; id: string; indexing: { state: string } }[] };
    const found = list.sources.find((candidate) => candidate.kind === 'sac');
    if (found !== undefined && list.sources.every((candidate) => candidate.indexing.state === 'ready')) sacSource = found.id;
    else await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (sacSource === '') throw new Error('the set-agent-comm store was not read');
});

test.afterAll(async () => {
  await dashboard?.stop();
  for (const store of stores) {
    await store.writer.kill();
    await store.remove();
  }
  await sac?.writer.close();
  await sac?.remove();
  await spexWriter?.kill();
  await spexHome?.remove();
});

const rows = (page: Page) => page.locator('.live-item');
const rowOf = (page: Page, file: string) => page.locator(`.live-item[data-key="${file}"]`);

async function openLive(page: Page, query = '') {
  await page.goto(`${dashboard.url}/live${query}`);
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText(/live/);
}

test('items of two stores arrive in the order written, each row saying its source, session, side, peer, words and first line, and opening the item in its place', async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-a');
  const b = new SessionWriting(stores[1]!.writer, '/e2e/live-b');
  await openLive(page);
  await a.start();
  const refused = await a.sent({ as: 'uds:/tmp/cc-socks/4242.sock' }, 'Can you look at the cart?\nSecond line, not shown.', { isQueued: false, reason: 'inbox full' });
  await b.start();
  const rejected = await b.received({ as: 'api-service' }, 'Refused at the door', 'rejected');
  await expect(rowOf(page, rejected)).toBeVisible();
  const refusedRow = rowOf(page, refused);
  await expect(refusedRow).toContainText('not queued: inbox full');
  // A peer is shown as whole as its cell holds (a longer one is cut in its middle: below), and whole on hover.
  await expect(refusedRow.locator('.live-peer')).toHaveAttribute('title', 'uds:/tmp/cc-socks/4242.sock');
  await expect(refusedRow.locator('.live-peer')).toHaveText('uds:/tmp/cc-socks/4242.sock');
  await expect(refusedRow).toContainText('Can you look at the cart?');
  await expect(refusedRow).not.toContainText('Second line');
  await expect(refusedRow.locator('.live-side')).toHaveText('sent');
  await expect(refusedRow.locator('.live-session')).toContainText(a.sessionId.slice(0, 8));
  // Its link to the session across the stores is shown whole in its cell, not cut by the column.
  const cell = await refusedRow.locator('.live-session').boundingBox();
  const across = await refusedRow.locator('.live-session .session-link').boundingBox();
  expect(across!.x + across!.width).toBeLessThanOrEqual(cell!.x + cell!.width + 0.5);
  await expect(rowOf(page, rejected)).toContainText('rejected: the receive hook was refused');
  const keys = await rows(page).evaluateAll((found) => found.map((row) => row.getAttribute('data-key')));
  expect(keys.indexOf(refused)).toBeLessThan(keys.indexOf(rejected));

  await refusedRow.locator('.live-line').click();
  // The server's link is the entry's address today: the page opens it in its place.
  await expect(page).toHaveURL(`${dashboard.url}${conversationPath(sourceIdOf('record', stores[0]!.dir), a.sessionId, refused)}`);
  await expect(page.locator(`[data-file="${refused}"]`)).toBeVisible();
});

test('a list shows as much of an id or a peer as the narrower of their cells holds, cut in its middle, each within its cell: a session’s full id where there is room', async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-wide');
  await openLive(page);
  await a.start();
  const file = await a.sent({ as: 'uds:/tmp/cc-socks/4242.sock' }, 'shown at many widths');
  const row = rowOf(page, file);
  const id = a.sessionId;
  // Cut in its middle to `max` characters, the mark one of them, its head the longer half.
  const cut = (name: string, max: number) => (name.length <= max ? name : `${name.slice(0, Math.ceil((max - 1) / 2))}…${name.slice(name.length - Math.floor((max - 1) / 2))}`);
  const listWidth = () => page.locator('.live-list').evaluate((list) => list.getBoundingClientRect().width);
  // The list is the window less the sidebar, whose width follows the window's: the window is widened until the list is as wide as asked.
  const widenListTo = async (px: number) => {
    let window = 1280;
    for (let tries = 0; tries < 4; tries++) {
      await page.setViewportSize({ width: window, height: 800 });
      const short = px - (await listWidth());
      if (short >= -1 && short <= 0) return;
      window += Math.ceil(short);
    }
    throw new Error(`the list is not ${px} px wide at any width tried`);
  };
  // Each width just past the style's threshold for that many characters (a rem is 16 px), where a name's cells are narrowest.
  const steps: [listRem: number, chars: number][] = [[40, 19], [42.1, 23], [56, 36], [60.1, 20], [84, 26], [108, 36]];
  for (const [listRem, chars] of steps) {
    await widenListTo(Math.ceil(listRem * 16));
    const label = `a list of ${await listWidth()} px`;
    await expect(row.locator('.live-session .live-name'), label).toHaveText(cut(id, chars));
    await expect(row.locator('.live-peer .live-name'), label).toHaveText(cut('uds:/tmp/cc-socks/4242.sock', chars));
    // The name, and the session's link across beside it, end within their cell.
    for (const [cell, last] of [['.live-session', '.session-link'], ['.live-peer', '.live-name']] as const) {
      const [box, end] = [await row.locator(cell).boundingBox(), await row.locator(`${cell} ${last}`).boundingBox()];
      expect(end!.x + end!.width, `${cell} in ${label}`).toBeLessThanOrEqual(box!.x + box!.width + 0.5);
    }
  }
});

test("items of a record and a spex home arrive in the order written; a spex message is a row of its receiver and, from the receiver's log, of its sender", async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-mixed');
  await openLive(page);
  await a.start();
  const fromRecord = await a.sent({ as: 'api' }, 'written to the record first');
  await expect(rowOf(page, fromRecord)).toBeVisible();
  const spex = (sessionId: string, event: Record<string, unknown>) => spexWriter.send({ op: 'event', project: SPEX_PROJECT, sessionId, event });
  await spex(SPEX_RECEIVER, { ts: new Date().toISOString(), kind: 'sent', mid: crypto.randomUUID(), text: 'from a person to spex\nsecond line', from: null });
  await spex(SPEX_RECEIVER, { ts: new Date().toISOString(), kind: 'sent', mid: crypto.randomUUID(), text: 'from one spex session to another', from: SPEX_SENDER });
  await spex(SPEX_RECEIVER, { ts: new Date().toISOString(), kind: 'status', status: 'awaiting', proposal: 'merge', note: 'ready' });
  await spex(SPEX_RECEIVER, { ts: new Date().toISOString(), kind: 'sent', mid: crypto.randomUUID(), text: 'from a sender spex names so', from: 'a person' });

  const person = page.locator('.live-item', { hasText: 'from a person to spex' });
  await expect(person).toBeVisible();
  await expect(person.locator('.live-source')).toHaveText('spex');
  await expect(person.locator('.live-side')).toHaveText('received');
  await expect(person.locator('.live-peer')).toHaveText('a person');
  await expect(person.locator('.live-peer .live-person')).toHaveText('a person');
  // A sender whose name as written is "a person" is a peer, shown as written, never as a person.
  const soNamed = page.locator('.live-item', { hasText: 'from a sender spex names so' });
  await expect(soNamed.locator('.live-peer .live-person')).toHaveCount(0);
  await expect(soNamed.locator('.live-peer .live-name')).toHaveText('a person');
  await expect(soNamed.locator('.live-words')).toHaveText('received from “a person”, as written');
  await expect(person).not.toContainText('second line');
  await expect(person.locator('.live-session')).toContainText(SPEX_RECEIVER.slice(0, 8));
  const peer = page.locator('.live-item', { hasText: 'from one spex session to another' });
  await expect(peer).toHaveCount(2);
  const peerCell = peer.filter({ has: page.locator('.live-side', { hasText: 'received' }) }).locator('.live-peer');
  await expect(peerCell).toHaveAttribute('title', new RegExp(`^${SPEX_SENDER} · `));
  await expect(peerCell.locator('.live-name')).toHaveText(SPEX_SENDER);
  const sent = peer.filter({ has: page.locator('.live-side', { hasText: 'sent' }) });
  await expect(sent.locator('.live-session')).toContainText(SPEX_SENDER.slice(0, 8));
  await expect(sent).toContainText("from the receiver's log");
  // The line's two rows are marked as one event seen from two sides; a person's and a sender's as written are one row each.
  await expect(peer.locator('.live-words .page-mark-two-sides')).toHaveCount(2);
  await expect(person.locator('.page-mark-two-sides')).toHaveCount(0);
  await expect(soNamed.locator('.page-mark-two-sides')).toHaveCount(0);
  // And so in the view's Markdown, which has no marks to hover.
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the selection as Markdown' }).click()]);
  const markdown = (await readFile((await file.path())!)).toString('utf8');
  expect(markdown.split('- Two sides: the same line is also an item under the other session').length - 1).toBeGreaterThanOrEqual(2);
  await expect(page.locator('.live-item', { hasText: 'declared review' })).toBeVisible();
  const keys = await rows(page).evaluateAll((found) => found.map((row) => row.textContent ?? ''));
  expect(keys.findIndex((text) => text.includes('written to the record first'))).toBeLessThan(keys.findIndex((text) => text.includes('from a person to spex')));

  // The peer filter finds what a person wrote by the words its row says, as a session's page does.
  await page.getByRole('textbox', { name: 'peer' }).fill('a person');
  await expect(person).toBeVisible();
  await expect(peer).toHaveCount(0);
  // A spex session is found by its title too, as its row shows it beside the id.
  await page.getByRole('textbox', { name: 'peer' }).fill('Currency');
  await expect(peer).toHaveCount(1);
  await expect(person).toHaveCount(0);
  await page.getByRole('textbox', { name: 'peer' }).fill('');

  // A row opens the spex line in its place.
  await person.locator('.live-line').click();
  await expect(page).toHaveURL(new RegExp(`/source/spex-[0-9a-f]{8}/conversation/${SPEX_RECEIVER}/item/line-1$`));
  await expect(page.locator('[data-item="line-1"]')).toContainText('from a person to spex');
});

test('an item written while another page of the dashboard was open is listed when the live view opens, as its note says: since the dashboard was opened in the tab', async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-earlier');
  await page.goto(`${dashboard.url}/`);
  await expect(page.locator('main.view')).toBeVisible();
  await a.start();
  const earlier = await a.sent({ as: 'api' }, 'written before the live view opened');
  // Told to the page: its session is listed.
  await expect(page.locator('#sidebar').getByText(a.sessionId.slice(0, 8)).first()).toBeVisible();
  await page.keyboard.press('l');
  await expect(page).toHaveURL(/\/live$/);
  await expect(rowOf(page, earlier)).toBeVisible();
  await expect(page.locator('.live-note')).toContainText('since the dashboard was opened in this tab (not only since this view was)');
});

test('in the page’s first minute the rate says how many items came in how many seconds, not a rate per minute it has not watched', async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-rate');
  await openLive(page);
  await a.start();
  const sent = await a.sent({ as: 'docs' }, 'one more');
  await expect(rowOf(page, sent)).toBeVisible();
  await expect(page.getByLabel('Rate', { exact: true })).toHaveText(/^2 arrived in \d+ s$/);
  // The seconds are as many as the page has listened, not as of the view's last tick (every 5 s).
  const opened = Date.now();
  await page.waitForTimeout(2_500);
  await a.sent({ as: 'docs' }, 'and one more');
  await expect(page.getByLabel('Rate', { exact: true })).toHaveText(/^3 arrived in \d+ s$/);
  const rate = (await page.getByLabel('Rate', { exact: true }).textContent())!;
  expect(Number(/in (\d+) s$/.exec(rate)![1]), rate).toBeGreaterThanOrEqual(Math.floor((Date.now() - opened) / 1000));
});

test('the rate counts its seconds from when the stream opened, not from the page’s load: a stream still connecting has watched nothing', async ({ page }) => {
  // The stream answers three seconds late, as over a slow or waking machine.
  await page.route('**/api/events*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await route.continue();
  });
  await page.goto(`${dashboard.url}/live`);
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText(/connecting/);
  await expect(page.getByLabel('Rate', { exact: true })).toHaveText('–');
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText(/live/, { timeout: 15_000 });
  const opened = Date.now();
  const rate = (await page.getByLabel('Rate', { exact: true }).textContent())!;
  expect(rate).toMatch(/^\d+ arrived in \d+ s$/);
  expect(Number(/in (\d+) s$/.exec(rate)![1]), rate).toBeLessThanOrEqual(1 + Math.ceil((Date.now() - opened) / 1000));
});

test('the live view’s downloads, opened first, look as every view’s: the word, then its buttons apart', async ({ page }) => {
  await openLive(page);
  const group = page.getByRole('group', { name: 'Download the selection' });
  await expect(group).toBeVisible();
  // Its style came with another view's downloads: opened first, the word and the buttons touched.
  const gaps = await group.evaluate((links) => {
    const boxes = [...links.children].map((child) => child.getBoundingClientRect());
    return boxes.slice(1).map((box, i) => Math.round(box.left - boxes[i]!.right));
  });
  expect(gaps.length).toBe(3);
  for (const gap of gaps) expect(gap, `gaps ${gaps.join(', ')} px`).toBeGreaterThanOrEqual(4);
});

test('a filter is kept in the address and survives a reload', async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-filter');
  await openLive(page);
  await page.getByRole('combobox', { name: /^side\b/ }).selectOption('received');
  await page.getByLabel('refused only').check();
  await expect(page).toHaveURL(/\/live\?side=received&refused=1$/);
  await page.reload();
  await expect(page.getByRole('combobox', { name: /^side\b/ })).toHaveValue('received');
  await expect(page.getByLabel('refused only')).toBeChecked();
  await a.start();
  const consumed = await a.received({ as: 'web-app' }, 'Fine', 'consumed');
  const rejected = await a.received({ as: 'web-app' }, 'Not fine', 'rejected');
  await expect(rowOf(page, rejected)).toBeVisible();
  await expect(rowOf(page, consumed)).toHaveCount(0);
  await expect(page.getByLabel('Items listed')).toHaveText(/^1 of \d+ items? listed$/);
});

test('the project field lists the projects by name, not in the order their latest activity moves them', async ({ page }) => {
  const early = new SessionWriting(stores[0]!.writer, '/e2e/live-project-a');
  const late = new SessionWriting(stores[0]!.writer, '/e2e/live-project-z');
  await early.start();
  await late.start();
  await openLive(page);
  const field = page.getByRole('combobox', { name: /^project\b/ });
  await expect(field.locator('option', { hasText: '/e2e/live-project-z' })).toHaveCount(1);
  const named = (await field.locator('option').allTextContents()).slice(1);
  expect(named).toContain('/e2e/live-project-a');
  expect(named).toEqual([...named].sort());
});

test('a filter of the address the live view does not take is said, not dropped in silence; what it does take is not', async ({ page }) => {
  await openLive(page, '?side=both&refused=1&colour=red');
  await expect(page.locator('.params-not-applied')).toHaveText(/^Not applied on this page: side=both \(not a value it takes\); colour=red \(this page's address takes only project, source, session, side, peer, type, refused, degraded\)\.$/);
  await expect(page.getByLabel('refused only')).toBeChecked();
  // Every row is one store's statement: the view says it pairs none.
  await expect(page.locator('.live-note')).toContainText('nothing pairs a received item with a sent one');
  // Where a reader would expect a link, the note says where the one it marks comes from.
  await expect(page.locator('.live-note')).toContainText('both read from that line and marked two sides, joined by the id spex wrote in it');
  await expect(page.locator('.live-note .page-mark-two-sides')).toHaveAttribute('title', /^One event seen from two sides/);
  await openLive(page, '?side=received');
  await expect(page.locator('.params-not-applied')).toHaveCount(0);
  // A store this dashboard does not read is no filter that lets nothing through: said, and every row shown.
  await openLive(page, '?source=nope');
  await expect(page.locator('.params-not-applied')).toHaveText(/^Not applied on this page: source=nope \(not a value it takes\)\.$/);
  await expect(page.getByRole('combobox', { name: /^store\b/ })).toHaveValue('');
  await expect(page.getByLabel('Items listed')).toHaveText(/^[\d,]+ items? listed$/);
});

test('a paused list whose new rows are all in view counts them on Resume but puts no “new ↓” over them; once some are below the view, it does', async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-pause-short');
  await openLive(page);
  await a.start();
  await expect(rows(page)).toHaveCount(1);
  await page.getByRole('button', { name: 'Pause' }).click();
  const during: string[] = [];
  for (let i = 0; i < 3; i++) during.push(await a.sent({ as: 'api' }, `short while paused ${i}`));
  await expect(page.getByRole('button', { name: /^Resume \(3 new\)$/ })).toBeVisible();
  await expect(rowOf(page, during.at(-1)!)).toBeInViewport();
  await expect(page.getByRole('button', { name: /new ↓$/ })).toHaveCount(0);
  for (let i = 0; i < 40; i++) during.push(await a.sent({ as: 'api' }, `long while paused ${i}`));
  await expect(page.getByRole('button', { name: '43 new ↓' })).toBeVisible();
  await expect(rowOf(page, during.at(-1)!)).not.toBeInViewport();
});

test('Pause stops following and counts what arrives; Resume jumps back to the newest', async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-pause');
  await openLive(page);
  await a.start();
  for (let i = 0; i < 40; i++) await a.sent({ as: 'api' }, `filler ${i}`);
  const lastBefore = `${a.sessionId.slice(0, 8)}`;
  await expect(rows(page).last()).toContainText(lastBefore);
  await page.getByRole('button', { name: 'Pause' }).click();
  const during: string[] = [];
  for (let i = 0; i < 5; i++) during.push(await a.sent({ as: 'api' }, `while paused ${i}`));
  await expect(page.getByRole('button', { name: /^Resume \(5 new\)$/ })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('live · list paused');
  await expect(page.getByRole('button', { name: '5 new ↓' })).toBeVisible();
  await expect(rowOf(page, during.at(-1)!)).not.toBeInViewport();
  await page.getByRole('button', { name: /^Resume/ }).click();
  await expect(rowOf(page, during.at(-1)!)).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('live');
  // Following again: the next item is shown as it lands.
  const next = await a.sent({ as: 'api' }, 'after resume');
  await expect(rowOf(page, next)).toBeInViewport();
});


test('the keys walk the rows as a conversation’s entries: k and j choose a row, one above the newest pausing the list; Enter opens its item, and Back finds it chosen still; End goes back to the newest and follows', async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-keys');
  await openLive(page, `?session=${a.sessionId}`);
  await a.start();
  const files: string[] = [];
  for (let i = 0; i < 4; i++) files.push(await a.sent({ as: 'api' }, `by key ${i}`));
  await expect(rowOf(page, files[3]!)).toBeInViewport();
  const selected = page.locator('.live-item[aria-current="true"]');
  await expect(selected).toHaveCount(0);
  // None chosen yet: k takes the last row on screen, the newest, and the list still follows.
  await page.keyboard.press('k');
  await expect(selected).toHaveAttribute('data-key', files[3]!);
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await page.keyboard.press('k');
  await expect(selected).toHaveAttribute('data-key', files[2]!);
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
  // A row arriving is counted as new, and the choice stays on its row.
  const later = await a.sent({ as: 'api' }, 'by key, later');
  await expect(page.getByRole('button', { name: 'Resume (1 new)' })).toBeVisible();
  await expect(selected).toHaveAttribute('data-key', files[2]!);
  await page.keyboard.press('j');
  await expect(selected).toHaveAttribute('data-key', files[3]!);
  await page.keyboard.press('End');
  await expect(selected).toHaveAttribute('data-key', later);
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  const next = await a.sent({ as: 'api' }, 'by key, once following again');
  await expect(rowOf(page, next)).toBeInViewport();
  // The newest chosen, following: the choice goes on to the newer row as it comes.
  await expect(selected).toHaveAttribute('data-key', next);
  // j at the newest: the list still follows.
  await page.keyboard.press('j');
  await expect(selected).toHaveAttribute('data-key', next);
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/item/${next.replace(/[.]/g, '\\.')}$`));
  // Written while its item is open: Back finds the list following and the choice, the newest as
  // it left, gone on to what came meanwhile; k goes on from there.
  const meanwhile = await a.sent({ as: 'api' }, 'by key, while away');
  await page.goBack();
  await expect(rowOf(page, meanwhile)).toBeInViewport();
  await expect(selected).toHaveAttribute('data-key', meanwhile);
  await page.keyboard.press('k');
  await expect(selected).toHaveAttribute('data-key', next);
  // A click opens a row as Enter does, and chooses it.
  await rowOf(page, files[1]!).locator('.live-time').click();
  await expect(page).toHaveURL(new RegExp(`/item/${files[1]!.replace(/[.]/g, '\\.')}$`));
  await page.goBack();
  await expect(selected).toHaveAttribute('data-key', files[1]!);
  // Clicked above the newest while the list follows, a row pauses it, as choosing it does: Back finds the list paused.
  await page.keyboard.press('End');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await rowOf(page, files[2]!).locator('.live-time').click();
  await expect(page).toHaveURL(new RegExp(`/item/${files[2]!.replace(/[.]/g, '\\.')}$`));
  await page.goBack();
  await expect(selected).toHaveAttribute('data-key', files[2]!);
  await expect(page.getByRole('button', { name: /^Resume/ })).toBeVisible();
  await expect(rowOf(page, files[2]!)).toBeInViewport();
});

/**
 * A session's burst of `count` writes listed wide, paused, and scrolled so that row `at` is at the
 * top; and how to read which row is at the top (the least index of a row not above the list's top).
 */
async function pausedAt(page: Page, sessionId: string, count: number, at: number) {
  await page.setViewportSize({ width: 1700, height: 800 });
  await openLive(page, `?session=${sessionId}`);
  await stores[1]!.writer.send({ op: 'burst', sessionId, count, startSeq: 1, cwd: `/e2e/${sessionId}` });
  await expect(page.getByLabel('Items listed')).toHaveText(new RegExp(`^${count} of [\\d,]+ items listed$`), { timeout: 30_000 });
  await page.getByRole('button', { name: 'Pause' }).click();
  const scroll = page.locator('.live-scroll');
  const height = await page.locator('.live-item').first().evaluate((row) => row.getBoundingClientRect().height);
  await scroll.evaluate((element, [rowHeight, index]) => element.scrollTo(0, index * rowHeight), [height, at] as const);
  const topIndex = () =>
    scroll.evaluate((element) => {
      const top = element.getBoundingClientRect().top;
      const rows = [...element.querySelectorAll('.live-item')].filter((row) => row.getBoundingClientRect().bottom > top + 1);
      return Math.min(...rows.map((row) => Number(row.getAttribute('data-index'))));
    });
  // The rows at the new place are drawn once the scroll is told, at the next frame, not at once.
  await expect.poll(topIndex).toBe(at);
  return { height, topIndex };
}

test('a paused reader keeps the row at the top when the list turns its rows to two lines', async ({ page }) => {
  const { height, topIndex } = await pausedAt(page, 'live-view-keep-place', 300, 120);
  // Narrower: the list is under 60rem beside the sidebar, and each row is two lines.
  await page.setViewportSize({ width: 1100, height: 800 });
  await expect.poll(() => page.locator('.live-item').first().evaluate((row) => row.getBoundingClientRect().height)).toBeGreaterThan(height);
  await expect.poll(topIndex).toBe(120);
});

test('a paused view left for a row’s item is found paused at the row it was at on Back, what came meanwhile counted as new', async ({ page }) => {
  // Wide (pausedAt): its rows one line each, far from the width where a scroll bar turns them to two.
  const sessionId = 'live-view-back-paused';
  const { topIndex } = await pausedAt(page, sessionId, 200, 80);
  await page.locator('.live-item[data-index="82"]').click();
  await expect(page).toHaveURL(/\/item\/[^/]+-83\.json$/);
  await stores[1]!.writer.send({ op: 'burst', sessionId, count: 3, startSeq: 201, cwd: `/e2e/${sessionId}` });
  await page.goBack();
  await expect(page.getByRole('button', { name: /^Resume \(3 new\)$/ })).toBeVisible();
  await expect.poll(topIndex).toBe(80);
  await page.waitForTimeout(300);
  expect(await topIndex()).toBe(80);
});

test('a paused view whose reader scrolled up to a row and opened it at once is found paused on Back: a scroll up is never taken for one to the end', async ({ page }) => {
  const sessionId = 'live-view-back-scrolled-up';
  await page.setViewportSize({ width: 1280, height: 800 });
  await openLive(page, `?session=${sessionId}`);
  await stores[1]!.writer.send({ op: 'burst', sessionId, count: 40, startSeq: 1, cwd: `/e2e/${sessionId}` });
  await expect(page.getByLabel('Items listed')).toHaveText(/^40 of [\d,]+ items listed$/, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Pause' }).click();
  // The first row drawn, out of view above: the click scrolls the list up to it first, and the
  // scroll is told after the press.
  const first = Math.min(...(await page.locator('.live-item').evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-index'))))));
  await expect(page.locator(`.live-item[data-index="${first}"]`)).not.toBeInViewport();
  await page.locator(`.live-item[data-index="${first}"] .live-words a`).click();
  await expect(page).toHaveURL(new RegExp(`/item/[^/]+-${first + 1}\\.json$`));
  await stores[1]!.writer.send({ op: 'burst', sessionId, count: 2, startSeq: 41, cwd: `/e2e/${sessionId}` });
  await page.goBack();
  await expect(page.getByRole('button', { name: /^Resume \(2 new\)$/ })).toBeVisible();
  await page.waitForTimeout(300);
  await expect(page.getByRole('button', { name: /^Resume \(2 new\)$/ })).toBeVisible();
});

test('a burst of 2,000 writes ends with all of them listed, in the order written', async ({ page }) => {
  test.setTimeout(90_000);
  const sessionId = 'live-view-burst';
  await openLive(page, `?session=${sessionId}`);
  const ack = await stores[1]!.writer.send({ op: 'burst', sessionId, count: 2_000, startSeq: 1, cwd: '/e2e/live-burst' });
  const last = ack.file!.split('/').at(-1)!;
  await expect(page.getByLabel('Items listed')).toHaveText(/^2,000 of [\d,]+ items listed$/, { timeout: 60_000 });
  await expect(rowOf(page, last)).toBeInViewport();
  await expect(rowOf(page, last)).toHaveAttribute('data-index', '1999');
  await expect(rowOf(page, last)).toHaveAttribute('data-evidence', 'parsed');
  // The first write is the first row.
  await page.locator('.live-scroll').evaluate((element) => element.scrollTo(0, 0));
  await expect(page.locator('.live-item[data-index="0"]')).toHaveAttribute('data-key', /-1\.json$/);
  await expect(page.locator('.live-item[data-index="999"]')).toHaveCount(0);
  // Every row has the same height (one line or two, as the list's width has it).
  const rowHeight = await page.locator('.live-item[data-index="0"]').evaluate((row) => row.getBoundingClientRect().height);
  await page.locator('.live-scroll').evaluate((element, height) => element.scrollTo(0, 999 * height - 2 * height), rowHeight);
  await expect(page.locator('.live-item[data-index="999"]')).toHaveAttribute('data-key', /-1000\.json$/);
});

test('items from a record and a set-agent-comm store arriving, each in its store’s words, one store chosen by its name, a sac entry opening in its room’s flow', async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-mixed');
  await openLive(page);
  await a.start();
  const recorded = await a.sent({ as: 'api-service' }, 'From the record first');
  await expect(rowOf(page, recorded)).toBeVisible();
  const seat = 'web-app#3f9c1a20';
  await sac.writer.send({ op: 'send', room: 'live-room', seat, ts: '2026-12-01T10:00:00.000+00:00', type: 'QUESTION', text: 'From set-agent-comm\nnot this line', to: ['api-service'] });
  const item = `channels/live-room/${seat}.md:0`;
  const sacRow = rowOf(page, item);
  await expect(sacRow).toBeVisible();
  await expect(sacRow).toHaveAttribute('data-evidence', 'parsed');
  await expect(sacRow.locator('.live-source')).toHaveText('sac');
  await expect(sacRow.locator('.live-side')).toHaveText('sent');
  await expect(sacRow).toContainText('QUESTION to api-service');
  await expect(sacRow).toContainText('From set-agent-comm');
  await expect(sacRow).not.toContainText('not this line');
  const keys = await rows(page).evaluateAll((found) => found.map((row) => row.getAttribute('data-key')));
  expect(keys.indexOf(recorded)).toBeLessThan(keys.indexOf(item));
  // One store chosen as the search chooses one: by its kind's name and its id.
  const store = page.getByRole('combobox', { name: 'store' });
  await expect(store.locator(`option[value="${sacSource}"]`)).toHaveText(`set-agent-comm (${sacSource})`);
  await store.selectOption(sacSource);
  await expect(page).toHaveURL(new RegExp(`[?&]source=${sacSource}(&|$)`));
  await expect(rowOf(page, recorded)).toHaveCount(0);
  await expect(sacRow).toBeVisible();
  await sacRow.locator('.live-line').click();
  await expect(page).toHaveURL(`${dashboard.url}/source/${sacSource}/rooms/live-room/item/${encodeURIComponent(item)}`);
  await expect(page.locator(`[data-item="${item}"]`)).toHaveAttribute('aria-current', 'true');
});

test('the session filter finds a seat’s rows by the full session id its registry states for it, as by a part of the seat', async ({ page }) => {
  const seat = 'web-app#3f9c1a20';
  const fullId = '3f9c1a20-1111-2222-3333-444455556666';
  await openLive(page);
  await sac.writer.send({ op: 'send', room: 'live-session-room', seat, ts: '2026-12-01T11:00:00.000+00:00', type: 'FACT', text: 'found by its full session id' });
  const item = `channels/live-session-room/${seat}.md:0`;
  await expect(rowOf(page, item)).toBeVisible();
  // Typed into the filter: the rows are this tab's since it opened, and a reload would have none.
  const field = page.getByRole('textbox', { name: 'session' });
  for (const session of [fullId, '3f9c1a20', 'web-app#3f9c']) {
    await field.fill(session);
    await expect(page).toHaveURL(new RegExp(`[?&]session=${encodeURIComponent(session).replace('%23', '(%23|#)')}(&|$)`));
    await expect(rowOf(page, item), session).toBeVisible();
  }
  await field.fill('3f9c1a20-1111-2222-3333-000000000000');
  await expect(rowOf(page, item)).toHaveCount(0);
});

test('a type is chosen in one store, as that store names its kinds: the record’s “message” is not a spex line of kind “message”', async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-types');
  await openLive(page);
  await a.start();
  const recorded = await a.sent({ as: 'api-service' }, 'A record message');
  // spex keeps a line of a kind it does not know, raw: here one its writer named "message".
  await spexWriter.send({ op: 'event', project: SPEX_PROJECT, sessionId: SPEX_RECEIVER, event: { ts: new Date().toISOString(), kind: 'message', text: 'a spex line of its own kind' } });
  const spexRow = rows(page).filter({ has: page.locator('.live-source', { hasText: /^spex$/ }) }).filter({ hasText: "a kind spex's reader does not know" });
  await expect(rowOf(page, recorded)).toBeVisible();
  await expect(spexRow).toHaveCount(1);
  const type = page.getByRole('combobox', { name: /^type/ });
  await expect(type.locator('optgroup[label="the record"] option', { hasText: /^message$/ })).toHaveCount(1);
  await expect(type.locator('optgroup[label="spex"] option', { hasText: /^message$/ })).toHaveCount(1);
  await type.selectOption('spex:message');
  await expect(page).toHaveURL(/[?&]type=spex%3Amessage(&|$)/);
  await expect(spexRow).toHaveCount(1);
  await expect(rowOf(page, recorded)).toHaveCount(0);
  await type.selectOption('record:message');
  await expect(rowOf(page, recorded)).toBeVisible();
  await expect(spexRow).toHaveCount(0);
  // An address that names a kind without its store keeps meaning any store's.
  await openLive(page, '?type=message');
  await expect(type).toHaveValue('message');
  await expect(type.locator('option:checked')).toHaveText('message (any store)');
});

test("the live view's current selection downloads as NDJSON, JSON and Markdown: the rows it lists, as it was told them, its values written as every export writes them", async ({ page }) => {
  const a = new SessionWriting(stores[0]!.writer, '/e2e/live-export');
  await openLive(page, '?side=sent');
  await a.start();
  const sent = await a.sent({ as: 'web-app' }, 'taken away ``` with a fence\nsecond line');
  const received = await a.received({ as: 'web-app' }, 'not in the selection', 'consumed');
  await expect(rowOf(page, sent)).toBeVisible();
  await expect(rowOf(page, received)).toHaveCount(0);
  const download = async (label: string) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Download the selection as ${label}` }).click()]);
    return (await readFile((await file.path())!)).toString('utf8');
  };
  const ndjson = (await download('NDJSON')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(ndjson[0]).toMatchObject({ type: 'live', schema: 'rec.live-export/1', filter: ['side: sent'] });
  const items = ndjson.filter((line) => line['type'] === 'item');
  expect(items.every((item) => item['side'] === 'sent')).toBe(true);
  expect(items.some((item) => item['key'] === sent && item['sessionId'] === a.sessionId && item['firstLine'] === 'taken away ``` with a fence')).toBe(true);
  expect(items.some((item) => item['key'] === received)).toBe(false);
  const json = JSON.parse(await download('JSON')) as { items: unknown[] };
  expect(json.items).toHaveLength(items.length);
  const markdown = await download('Markdown');
  // Headings one level at a time, a side as every export heads it.
  expect([...new Set(markdown.split('\n').filter((line) => /^#+ /.test(line)).map((line) => line.split(' ')[0]!.length))]).toEqual([1, 2, 3]);
  expect(markdown).toMatch(/^### Sent · /m);
  expect(markdown).toContain('````text\ntaken away ``` with a fence\n````');
  expect(markdown).toContain('- side: sent');
  // Each item opens at today's address of its entry, as a link in the page does; its values are
  // written as every other export writes them (inline code that reads as the value, no quotes).
  expect(markdown).toContain(`- Opens at \`${conversationPath(sourceIdOf('record', stores[0]!.dir), a.sessionId, sent)}\``);
  expect(markdown).toContain(`- Store record \`${sourceIdOf('record', stores[0]!.dir)}\`, conversation \`${a.sessionId}\``);
});
