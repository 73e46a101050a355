import { conversationPath, startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { makeSacStore, makeSpexHome, makeStoresFolder, readSources, spexSessionJson, waitForConversation, type SacStore, type SpexHome } from './support/stores.ts';
import { expect, test } from './support/test.ts';

// A text too large to read for a page (a spex line, a set-agent-comm body over 4 MiB) shows its
// head with the same mark for every kind: its size, how much is shown, and that the whole is in
// the downloads. No "show all": the item's own answer has no more of it than the page.

const PROJECT = '-e2e-large';
const A = 'a3a3a3a3-0000-4000-8000-00000000000a';
const WEB = 'web-app#3f9c1a20';
const TEXT_BYTES = 6 * 1024 * 1024;
const MARK = /^This (line|body) is [\d,]+ bytes, too large to read here: shown up to its first [\d,]+ bytes\. The whole is in the conversation's NDJSON and Markdown downloads\.$/;

let folder: { dir: string; remove(): Promise<void> };
let spex: SpexHome;
let sac: SacStore;
let dashboard: RunningDashboard;
let sources: Map<string, string>;

test.beforeAll(async () => {
  folder = await makeStoresFolder('large');
  spex = await makeSpexHome(folder.dir);
  await spex.writer.send({ op: 'session', project: PROJECT, sessionId: A, value: spexSessionJson(A, 'large') });
  await spex.writer.send({ op: 'event', project: PROJECT, sessionId: A, event: { ts: new Date().toISOString(), kind: 'sent', mid: crypto.randomUUID(), text: 'a short one', from: null } });
  await spex.writer.send({ op: 'event', project: PROJECT, sessionId: A, event: { ts: new Date().toISOString(), kind: 'sent', mid: crypto.randomUUID(), text: `LARGE-HEAD ${'a long line\n'.repeat(TEXT_BYTES / 12)}`, from: null } });
  sac = await makeSacStore(folder.dir);
  await sac.writer.send({ op: 'big', room: 'team', seat: WEB, ts: '2026-11-30T17:25:00.000+00:00', type: 'FACT', bodyBytes: TEXT_BYTES, marker: 'LARGE-BODY' });
  dashboard = await startDashboard([spex.dir, sac.dir]);
  sources = await readSources(dashboard.url);
  await waitForConversation(dashboard.url, sources.get('spex')!, A, 2, (body) => (body['page'] as { total: number }).total);
});

test.afterAll(async () => {
  await dashboard?.stop();
  await spex?.writer.kill();
  await sac?.writer.close();
  await folder?.remove();
});

test("a spex line over 4 MiB shows its text's head with the mark of a large line, and no 'show all'", async ({ page }) => {
  await page.goto(`${dashboard.url}${conversationPath(sources.get('spex')!, A)}`);
  const card = page.locator('article').filter({ hasText: 'LARGE-HEAD' });
  await expect(card.locator('.large-text-mark')).toHaveText(MARK);
  await expect(card.locator('.large-text-mark')).toContainText('This line is 6,');
  await expect(card.getByRole('button', { name: /show all \(6,/ })).toHaveCount(0);
  await expect(page.locator('article').filter({ hasText: 'a short one' }).locator('.large-text-mark')).toHaveCount(0);
});

test('a sac body over 4 MiB shows its head with the same mark, as a large body', async ({ page }) => {
  await page.goto(`${dashboard.url}${conversationPath(sources.get('sac')!, WEB)}`);
  const card = page.locator('article').filter({ hasText: 'LARGE-BODY' });
  await expect(card.locator('.large-text-mark')).toHaveText(MARK);
  await expect(card.locator('.large-text-mark')).toContainText('This body is 6,');
});
