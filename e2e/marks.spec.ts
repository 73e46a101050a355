import { conversationPath, sourceIdOf, startDashboard, waitForItems, type RunningDashboard } from './support/dashboard.ts';
import { makeRecordDir, SessionWriting, startWriter, type Writer } from './support/record.ts';
import { makeSpexHome, makeStoresFolder, readSources, spexSessionJson, waitForConversation, type SpexHome } from './support/stores.ts';
import type { Locator } from '@playwright/test';
import { expect, openFolded, test, type Page } from './support/test.ts';

// What every card would repeat is said once per page, in a legend; each card carries a short mark
// with the whole sentence on hover. The record's statement that correlation is not claimed stays
// whole on every received entry.

const PROJECT = '-e2e-marks';
const A = 'a1a1a1a1-0000-4000-8000-00000000000a';
const B = 'b2b2b2b2-0000-4000-8000-00000000000b';
const TWO_SIDES = 'One event seen from two sides';
const UNKNOWN = 'Unknown evidence, not nothing';

let folder: { dir: string; remove(): Promise<void> };
let spex: SpexHome;
let record: { dir: string; remove(): Promise<void> };
let writer: Writer;
let session: SessionWriting;
let dashboard: RunningDashboard;
let sources: Map<string, string>;

test.beforeAll(async () => {
  folder = await makeStoresFolder('marks');
  spex = await makeSpexHome(folder.dir);
  for (const id of [A, B]) await spex.writer.send({ op: 'session', project: PROJECT, sessionId: id, value: spexSessionJson(id, id.slice(0, 4)) });
  const line = (text: string, from: string | null) => ({ ts: new Date().toISOString(), kind: 'sent', mid: crypto.randomUUID(), text, from });
  await spex.writer.send({ op: 'event', project: PROJECT, sessionId: A, event: line('first from B', B) });
  await spex.writer.send({ op: 'event', project: PROJECT, sessionId: A, event: line('second from B', B) });
  for (const bytes of ['not json, first\n', 'not json, second\n']) await spex.writer.send({ op: 'bytes', project: PROJECT, sessionId: A, base64: Buffer.from(bytes).toString('base64') });
  await spex.writer.send({ op: 'event', project: PROJECT, sessionId: A, event: line('from a person', null) });
  record = await makeRecordDir('marks-record');
  writer = await startWriter(record.dir);
  session = new SessionWriting(writer, '/e2e/marks');
  await session.start();
  await session.received({ as: 'api-service' }, 'first received');
  await session.received({ as: 'api-service' }, 'second received', 'consumed', { seq: 4 });
  await session.received({ as: 'web-app' }, 'third received', 'consumed', { seq: 7 });
  dashboard = await startDashboard([spex.dir, record.dir]);
  sources = await readSources(dashboard.url);
  await waitForConversation(dashboard.url, sources.get('spex')!, A, 5, (body) => (body['page'] as { total: number }).total);
  await waitForItems(dashboard.url, session.sessionId, 4);
});

test.afterAll(async () => {
  await dashboard?.stop();
  await spex?.writer.kill();
  await writer?.kill();
  await record?.remove();
  await folder?.remove();
});

async function timesSaid(page: Page, sentence: string): Promise<number> {
  return (await page.locator('main.view').innerText()).split(sentence).length - 1;
}

async function expectMarked(cards: Locator, name: string, sentence: string, count: number) {
  await expect(cards).toHaveCount(count);
  for (const card of await cards.all()) {
    await expect(card.locator(`.page-mark-${name}`)).toHaveAttribute('title', new RegExp(`^${sentence}`));
    await expect(card).not.toContainText(sentence);
  }
}

test("a spex page says once what 'two sides' and 'unknown evidence' mean, and marks each card", async ({ page }) => {
  await page.goto(`${dashboard.url}${conversationPath(sources.get('spex')!, A)}`);
  const legend = page.getByRole('complementary', { name: 'What the marks on the cards mean' });
  // Where the window is short, the legend is its marks, its sentences folded under them.
  await expect(legend.locator('summary')).toHaveText('What the marks mean: two sides, unknown evidence');
  await openFolded(legend.locator('details'));
  await expectMarked(page.locator('article.entry-received').filter({ hasText: 'from B' }), 'two-sides', TWO_SIDES, 2);
  await expectMarked(page.locator('article.evidence-damaged'), 'unknown', UNKNOWN, 2);
  expect(await timesSaid(page, TWO_SIDES)).toBe(1);
  expect(await timesSaid(page, UNKNOWN)).toBe(1);

  // The legend opened above is open on this page too: the reader's choice is kept in the tab.
  await page.goto(`${dashboard.url}${conversationPath(sources.get('spex')!, B)}`);
  await expectMarked(page.locator('article.entry-sent'), 'two-sides', TWO_SIDES, 2);
  expect(await timesSaid(page, TWO_SIDES)).toBe(1);
});

test('a record page marks each gap and says once what unknown evidence means; every received entry still says correlation is not shown', async ({ page }) => {
  await page.goto(`${dashboard.url}${conversationPath(sourceIdOf('record', record.dir), session.sessionId)}`);
  await expectMarked(page.locator('article.gap-row'), 'unknown', UNKNOWN, 2);
  await openFolded(page.locator('.marks-legend details'));
  expect(await timesSaid(page, UNKNOWN)).toBe(1);
  const received = page.locator('article.entry-received');
  await expect(received).toHaveCount(3);
  for (const entry of await received.all()) await expect(entry.locator('.correlation')).toHaveText('Which sent entry this corresponds to: not shown by the record.');
});
