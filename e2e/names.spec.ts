import { conversationPath, startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { makeSacStore, makeSpexHome, makeStoresFolder, readSources, spexSessionJson, type SacStore, type SpexHome } from './support/stores.ts';
import { expect, test, type Page } from './support/test.ts';

// Sessions named as their users know them: a spex session by its session.json title and branch
// beside its id (sender, receiver, search hit, live row), and ids in the live view whole, or cut
// only in their middle, never so that two differ only in what was cut.

const PROJECT = '-e2e-names';
// Three spex sessions whose ids share their first 8 characters, as do the two seats' names.
const FIRST = '5e55a0a1-0000-4000-8000-000000000001';
const SECOND = '5e55a0a1-0000-4000-8000-000000000002';
const THIRD = '5e55a0a1-0000-4000-8000-000000000003';
const TITLES: Record<string, string> = { [FIRST]: 'checkout retries', [SECOND]: 'invoice totals', [THIRD]: 'release notes' };
const SEATS = ['frontend#f222f222', 'frontend#f333f333'];

let folder: { dir: string; remove(): Promise<void> };
let spex: SpexHome;
let sac: SacStore;
let dashboard: RunningDashboard;
let sources: Map<string, string>;

test.beforeAll(async () => {
  folder = await makeStoresFolder('names');
  spex = await makeSpexHome(folder.dir);
  for (const id of [FIRST, SECOND, THIRD]) await spex.writer.send({ op: 'session', project: PROJECT, sessionId: id, value: spexSessionJson(id, TITLES[id]!, { branch: `node/${id.slice(-4)}` }) });
  await spex.writer.send({ op: 'event', project: PROJECT, sessionId: FIRST, event: { ts: '2026-11-30T10:00:01.000Z', kind: 'sent', mid: crypto.randomUUID(), text: 'totals are off by one cent', from: SECOND } });
  sac = await makeSacStore(folder.dir);
  dashboard = await startDashboard([spex.dir, sac.dir]);
  sources = await readSources(dashboard.url);
});

test.afterAll(async () => {
  await dashboard?.stop();
  await spex?.writer.kill();
  await sac?.writer.close();
  await folder?.remove();
});

const spexPath = (id: string) => conversationPath(sources.get('spex')!, id);

test("a spex message's sender and a sent message's receiver are named by their title and branch beside the whole id", async ({ page }) => {
  await page.goto(`${dashboard.url}${spexPath(FIRST)}`);
  const received = page.locator('article.entry-received', { hasText: 'totals are off by one cent' });
  await expect(received.locator('.spex-session-ref')).toHaveText(`${SECOND} invoice totals node/0002`);
  await page.goto(`${dashboard.url}${spexPath(SECOND)}`);
  const sent = page.locator('article.entry-sent', { hasText: 'totals are off by one cent' });
  await expect(sent.locator('.spex-session-ref')).toHaveText(`${FIRST} checkout retries node/0001`);
});

test('a spex search hit names its session and its peer; a sent hit goes from this session to its receiver; the line’s two hits are each marked as one event seen from two sides', async ({ page }) => {
  await page.goto(`${dashboard.url}/search?q=${encodeURIComponent('off by one')}`);
  const sentHit = page.locator('.search-hit.hit-sent');
  await expect(sentHit).toContainText(`session ${SECOND} invoice totals`);
  await expect(sentHit).toContainText(`to ${FIRST} checkout retries node/0001 from the receiver's log`);
  await expect(sentHit).not.toContainText(`from ${SECOND}`);
  const receivedHit = page.locator('.search-hit.hit-received');
  await expect(receivedHit).toContainText(`session ${FIRST} checkout retries`);
  await expect(receivedHit).toContainText(`from ${SECOND} invoice totals`);
  for (const hit of [sentHit, receivedHit]) await expect(hit.locator('.hit-peer .page-mark-two-sides')).toHaveAttribute('title', /^One event seen from two sides/);
  // The count says its two hits are one line.
  await expect(page.getByRole('status').filter({ hasText: 'read)' })).toContainText(
    /^2 entries \(\d+ texts read\)\. Two of them are one spex line, found from both its sides: a hit under its receiver and one under its sender, each marked two sides\. /,
  );
});

test('a search whose hits hold two spex lines each found from both sides counts them as lines, a person’s line once', async ({ page }) => {
  for (const [sessionId, from] of [[THIRD, FIRST], [FIRST, THIRD], [SECOND, null]] as const) {
    await spex.writer.send({ op: 'event', project: PROJECT, sessionId, event: { ts: new Date().toISOString(), kind: 'sent', mid: crypto.randomUUID(), text: `plural lines to ${sessionId}`, from } });
  }
  await page.goto(`${dashboard.url}/search?q=${encodeURIComponent('plural lines')}`);
  await expect(page.getByRole('status').filter({ hasText: 'read)' })).toContainText(
    /^5 entries \(\d+ texts read\)\. 4 of them are 2 spex lines, each found from both its sides: a hit under its receiver and one under its sender, each marked two sides\. /,
  );
});

async function openLive(page: Page) {
  await page.goto(`${dashboard.url}/live`);
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText(/live/);
}

test('the live view shows ids and seats whole or cut in their middle, never two alike, with a spex session and its peer named', async ({ page }) => {
  await openLive(page);
  const now = () => new Date().toISOString();
  for (const [sessionId, from] of [[FIRST, THIRD], [SECOND, null], [THIRD, FIRST]] as const) {
    await spex.writer.send({ op: 'event', project: PROJECT, sessionId, event: { ts: now(), kind: 'sent', mid: crypto.randomUUID(), text: `live to ${sessionId}`, from } });
  }
  for (const seat of SEATS) await sac.writer.send({ op: 'send', room: 'ui', seat, ts: now(), type: 'FACT', text: `written by ${seat}` });
  const rows = page.locator('.live-item');
  for (const text of [...[FIRST, SECOND, THIRD].map((id) => `live to ${id}`), ...SEATS.map((seat) => `written by ${seat}`)]) await expect(rows.filter({ hasText: text }).first()).toBeVisible();
  const names = await page.locator('.live-item .live-session .live-name').allTextContents();
  const shown = new Map<string, string>();
  const sessions = await rows.evaluateAll((found) => found.map((row) => row.querySelector('.live-session')!.getAttribute('title')!.split(' · ')[0]!));
  sessions.forEach((id, index) => shown.set(id, names[index]!));
  expect([...shown.keys()].sort()).toEqual([FIRST, SECOND, THIRD, ...SEATS].sort());
  // Two different names are never shown alike; each is whole or keeps both its ends.
  expect(new Set(shown.values()).size).toBe(shown.size);
  for (const [id, text] of shown) {
    if (text === id) continue;
    const [head, tail] = text.split('…') as [string, string];
    expect(id.startsWith(head) && id.endsWith(tail)).toBe(true);
  }
  for (const seat of SEATS) expect(shown.get(seat)).toBe(seat);
  // A spex row names its session, and a peer that is a session of the home, by title and branch.
  const toFirst = rows.filter({ hasText: `live to ${FIRST}` }).filter({ has: page.locator('.live-side', { hasText: 'received' }) });
  await expect(toFirst.locator('.live-session')).toContainText('checkout retries');
  await expect(toFirst.locator('.live-peer')).toContainText('release notes · node/0003');
});
