import { sacTime } from '../server/demo/sacWrite.ts';
import type { SacWriter } from '../tools/writer/sacWriter.ts';
import { conversationPath, startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { exitedPid, makeEmptySacStore, makeStoresFolder, readSources, registrySeat } from './support/stores.ts';
import { expect, openFolded, test, type Page } from './support/test.ts';

// What `sac admin` shows of a room, shown here: every member of a room and whether sac's cursor
// has it reading, who each entry wakes by sac's rule, the flow in `sac history`'s order, focus
// files and quiet presence. The store is written by a real writer process as sac's `send`,
// `focus`, `quiet` and its bridge (a relayed entry) write it.

const API = 'api-service#c4e10000';
const WEB = 'web-app#3f9c1a20';
const DB = 'db-tool#d0d0d0d0';
const REMOTE = 'api-service@macmini#99990000';
const PAIR = 'dm-api-service-c4e10000-web-app-3f9c1a20';
const at = (minute: string) => `2026-11-30T16:${minute}.000+00:00`;

let folder: { dir: string; remove(): Promise<void> } | undefined;
let writer: SacWriter;
let dashboard: RunningDashboard;
let url = '';
let source = '';

test.beforeAll(async () => {
  folder = await makeStoresFolder('sacadmin');
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
        'web-app': { agent: 'web-app', project: '/home/dev/projects/web-app', rooms: ['ops'], seats: { [WEB]: seat('3f9c1a20-0000-0000-0000-000000000001', writer.pid, now, ['ops', PAIR]) } },
        'api-service': { agent: 'api-service', project: '/home/dev/projects/api-service', rooms: ['ops'], seats: { [API]: seat('c4e10000-0000-0000-0000-000000000002', gonePid, at('05:00'), ['ops', PAIR]) } },
        'db-tool': { agent: 'db-tool', project: '/home/dev/projects/db-tool', rooms: ['ops'], seats: { [DB]: seat('d0d0d0d0-0000-0000-0000-000000000003', writer.pid, now, ['ops']) } },
      },
    },
  });
  await writer.send({ op: 'json', name: 'members.json', value: { [WEB]: { rooms: ['ops', PAIR], left: [] }, [API]: { rooms: ['ops', PAIR], left: [] }, [DB]: { rooms: ['ops'], left: [] } } });
  await writer.send({ op: 'json', name: 'rooms.json', value: { ops: { by: API, at: at('00:00') }, [PAIR]: { by: WEB, at: at('00:10'), pair: [API, WEB] } } });
  // `sac dm`: a room of two, joined by the one who opened it, before either writes.
  await writer.send({ op: 'join', room: PAIR, seat: WEB });
  await writer.send({ op: 'focus', seat: WEB, text: 'reworking the invoice totals', files: ['src/invoice/', 'src/lib/tax.ts'], phase: 'apply', ts: now });
  await writer.send({ op: 'quiet', seat: DB, since: at('00:00') });
  await writer.send({ op: 'send', room: 'ops', seat: API, ts: at('01:00'), type: 'QUESTION', to: ['web-app'], text: 'Q1: is the invoice endpoint on v2?' });
  await writer.send({ op: 'send', room: 'ops', seat: API, ts: at('02:00'), type: 'FACT', text: 'F1: deployed api-service 2.4.0 to staging.' });
  await writer.send({ op: 'send', room: 'ops', seat: WEB, ts: at('03:00'), type: 'ANSWER', re: at('01:00'), text: 'A1: yes, v2 since Tuesday.' });
  await writer.send({ op: 'send', room: 'ops', seat: API, ts: at('04:00'), type: 'QUESTION', text: 'Q2: who holds the tax table?' });
  await writer.send({ op: 'send', room: 'ops', seat: API, ts: at('05:00'), type: 'REQUEST', to: [DB], text: 'R1: please rebuild the tax table.' });
  // Pulled from the relay: one written on macmini after everything here, then one written there first of all.
  await writer.send({ op: 'relay', room: 'ops', seat: REMOTE, ts: at('06:00'), type: 'FACT', text: 'M9: written on macmini after everything here.' });
  await writer.send({ op: 'relay', room: 'ops', seat: REMOTE, ts: at('00:30'), type: 'FACT', text: 'M0: written on macmini before everything here, relayed late.' });
  await writer.send({
    op: 'json',
    name: 'cursors.json',
    value: { [`ops::${WEB}`]: { [API]: at('01:00') }, [`ops::${DB}`]: { [API]: at('05:00'), [WEB]: at('03:00'), [REMOTE]: at('06:00') }, [`ops::${API}`]: {} },
  });
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
const membersOf = (page: Page) => page.getByRole('region', { name: 'Members' });
/** The room's roster, opened where the window is short enough to fold it (the tests' 800 px). */
const openRoster = (page: Page) => openFolded(page.locator('.sac-header .facts-fold'));
const memberRow = (page: Page, seat: string) => membersOf(page).getByRole('listitem', { name: seat });

test('a room’s roster lists every member, one that never wrote included, and a room of two lists both seats before either writes', async ({ page }) => {
  await page.goto(`${url}/source/${source}/rooms/ops`);
  await openRoster(page);
  await expect(membersOf(page).getByRole('listitem')).toHaveCount(4);
  await expect(memberRow(page, DB)).toContainText('never wrote');
  // The room's summary counts it as the roster lists it.
  await expect(page.locator('.sac-meta')).toContainText('1 member never wrote here: no file here');
  await expect(memberRow(page, DB)).toContainText('members.json');
  await expect(memberRow(page, REMOTE)).toContainText('a member by: a seat file here');
  await page.goto(`${url}/source/${source}/rooms`);
  await page.getByRole('link', { name: `#${PAIR}` }).click();
  await openRoster(page);
  await expect(membersOf(page).getByRole('listitem')).toHaveCount(2);
  await expect(memberRow(page, API)).toBeVisible();
  await expect(memberRow(page, WEB)).toBeVisible();
  // Neither wrote: one joined (sac's join leaves an empty file), the other has no file here.
  await expect(page.locator('.sac-meta')).toContainText('2 members never wrote here: 1 joined (an empty file), 1 with no file here');
});

test('each member says how far sac’s cursor has it read: unread, caught up, or gone with its backlog not counted', async ({ page }) => {
  await page.goto(`${url}/source/${source}/rooms/ops`);
  await openRoster(page);
  await expect(memberRow(page, WEB)).toContainText('5 unread by sac’s cursor');
  await expect(memberRow(page, WEB)).toContainText('live (derived)');
  await expect(memberRow(page, DB)).toContainText('caught up by sac’s cursor');
  await expect(memberRow(page, API)).toContainText('gone (derived)');
  await expect(memberRow(page, API)).not.toContainText('unread by sac’s cursor');
  await expect(memberRow(page, API)).toContainText('its backlog is not counted as unread');
});

test('each entry says whom it wakes by sac’s rule, labelled as derived, and the flow can show waking entries only', async ({ page }) => {
  await page.goto(`${url}/source/${source}/rooms/ops`);
  const wakes = (text: string) => flowOf(page).getByRole('article').filter({ hasText: text }).locator('.sac-wakes');
  await expect(wakes('Q1:')).toHaveText(`wakes ${WEB} (derived by sac’s rule: addressed)`);
  await expect(wakes('F1:')).toHaveText('wakes nobody (derived by sac’s rule)');
  await expect(wakes('A1:')).toHaveText(`wakes ${API} (derived by sac’s rule: re: its entry)`);
  await expect(wakes('Q2:')).toContainText(`wakes ${REMOTE}, ${WEB} (derived by sac’s rule: a broadcast question or request)`);
  await expect(wakes('Q2:')).toContainText(`not ${DB}: quiet`);
  await expect(wakes('R1:')).toContainText(`wakes nobody`);
  await page.getByLabel('Flow shows').selectOption('waking');
  await expect(page).toHaveURL(/flow=waking/);
  await expect(flowOf(page).getByRole('article')).toHaveCount(3);
  await page.reload();
  await expect(flowOf(page).getByRole('article')).toHaveCount(3);
  await expect(page.getByLabel('Flow shows')).toHaveValue('waking');
});

test('a room’s flow is in sac history’s order: an entry relayed late but dated first comes first, says where its file order differs, and the rooms list names the room’s latest entry', async ({ page }) => {
  await page.goto(`${url}/source/${source}/rooms/ops`);
  const entries = flowOf(page).getByRole('article');
  await expect(entries).toHaveCount(7);
  const firsts = (await entries.locator('.verbatim').allTextContents()).map((text) => text.slice(0, 2));
  expect(firsts).toEqual(['M0', 'Q1', 'F1', 'A1', 'Q2', 'R1', 'M9']);
  await expect(entries.first().locator('.sac-file-order')).toContainText('placed by its time');
  await expect(entries.nth(1).locator('.sac-file-order')).toHaveCount(0);
  await page.goto(`${url}/source/${source}/rooms`);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: '#ops', exact: true }) });
  await expect(row).toContainText(`2026-11-30 16:06:00.000 UTC · ${REMOTE} · FACT`);
});

test('a seat’s focus shows its files, and a quiet seat is quiet on its room’s roster and in the list', async ({ page }) => {
  await page.goto(`${url}${conversationPath(source, WEB)}`);
  await expect(page.locator('.sac-facts')).toContainText('reworking the invoice totals');
  await expect(page.locator('.sac-facts')).toContainText('src/invoice/');
  await expect(page.locator('.sac-facts')).toContainText('src/lib/tax.ts');
  await page.goto(`${url}/source/${source}/rooms/ops`);
  await openRoster(page);
  await expect(memberRow(page, DB)).toContainText('quiet');
  await expect(memberRow(page, WEB)).not.toContainText('quiet');
  await expect(memberRow(page, WEB)).toContainText('src/invoice/');
  await expect(page.getByRole('link', { name: `set-agent-comm seat ${DB}` })).toContainText('quiet');
  await expect(page.getByRole('link', { name: `set-agent-comm seat ${WEB}` })).not.toContainText('quiet');
});

test('a seat’s Received counts what the page shows, with entries to others counted apart, and showing them is part of the address', async ({ page }) => {
  await page.goto(`${url}${conversationPath(source, WEB)}`);
  const received = page.locator('[data-column="received"]').getByRole('article');
  await expect(received).toHaveCount(5);
  // The sidebar's row counts as the page does: the entries to others apart, never among "received".
  await expect(page.getByRole('link', { name: `set-agent-comm seat ${WEB}` }).locator('.session-row-counts')).toContainText('5 received · 1 to others');
  // Its unread count is sac's cursor's, which counts those too: said so, or it reads as more than it received.
  await expect(page.getByRole('link', { name: `set-agent-comm seat ${WEB}` }).locator('.sac-cursor')).toHaveText(/^\d+ unread by sac’s cursor, which counts entries to others too$/);
  await expect(page.locator('.conversation-columns .side-received')).toContainText('Received (5');
  await expect(page.locator('.conversation-columns .side-received')).toContainText('1 to others not shown');
  // sac's cursor counts the entries to others too, and the heading says so.
  await expect(page.locator('.conversation-columns .side-received')).toContainText('unread by sac’s cursor, which counts entries to others too');
  await page.getByLabel(/show entries addressed to others/).check();
  await expect(page).toHaveURL(/others=1/);
  await expect(received).toHaveCount(6);
  await expect(page.locator('.conversation-columns .side-received')).toContainText('Received (6');
  await page.goto(`${url}${conversationPath(source, WEB)}?others=1`);
  await expect(page.getByLabel(/show entries addressed to others/)).toBeChecked();
  await expect(received).toHaveCount(6);
  // The overview counts the same: its session's badge, and its row in the table of conversations.
  await page.goto(url);
  await expect(page.locator('.store-badge', { hasText: WEB })).toContainText('5 received');
  await expect(page.locator('tr', { has: page.locator(`a[title="${WEB}"]`) }).locator('td.num').nth(1)).toHaveText('5');
});

test('a room’s roster opened in a short window is no scroll box of its own: the room’s header is the one box that scrolls, down to its last member whole', async ({ page }) => {
  // A room of twelve, each joined with sac's `join` (an empty file): more than the roster's old box of its own showed.
  const crowd = Array.from({ length: 12 }, (_, i) => `crowd-${String(i).padStart(2, '0')}#c0c0c0${String(i).padStart(2, '0')}`);
  for (const seat of crowd) await writer.send({ op: 'join', room: 'crowd', seat });
  await page.setViewportSize({ width: 900, height: 640 });
  await page.goto(`${url}/source/${source}/rooms/crowd`);
  await openRoster(page);
  await expect(membersOf(page).getByRole('listitem')).toHaveCount(12);
  expect(await membersOf(page).getByRole('list').evaluate((list) => list.scrollHeight - list.clientHeight)).toBeLessThanOrEqual(1);
  await page.locator('.sac-header').evaluate((header) => header.scrollTo(0, header.scrollHeight));
  await expect(membersOf(page).getByRole('listitem').last()).toBeInViewport({ ratio: 1 });
});
