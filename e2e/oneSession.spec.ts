import { SESSION_A, SESSION_B } from '../shared/session/testing/oneSessionStores.ts';
import { sacTime } from '../server/demo/sacWrite.ts';
import { writeOneSessionStores } from '../server/test/oneSession.ts';
import type { ThreeStores } from '../server/test/threeStores.ts';
import { apiFetch, startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { expect, test } from './support/test.ts';

// One Claude Code session across the stores, in the browser: the record, a spex home and a
// set-agent-comm store, each written by its own writer process, hold the same two sessions whose
// ids share their first 8 characters.

let stores: ThreeStores;
let dashboard: RunningDashboard;

test.beforeAll(async () => {
  stores = await writeOneSessionStores('rec-e2e-one-session');
  dashboard = await startDashboard([stores.record, stores.spex, stores.sac]);
  for (let i = 0; i < 200; i++) {
    const list = (await (await apiFetch(`${dashboard.url}/api/joined-sessions`)).json()) as { projects: { sessions: { conversations: unknown[] }[] }[] };
    if (list.projects.flatMap((project) => project.sessions).filter((session) => session.conversations.length === 3).length === 2) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the three stores were not read');
});

test.afterAll(async () => {
  await dashboard?.stop();
  await stores?.remove();
});

test('two sessions whose ids share a prefix are two rows, each with a badge and counts for each of its stores', async ({ page }) => {
  await page.goto(dashboard.url);
  const rows = page.locator('table.joined-sessions tbody tr');
  await expect(rows).toHaveCount(2);
  const a = page.locator(`tr[data-session="${SESSION_A}"]`);
  await expect(a.locator('.store-badge')).toHaveText(['the record: 1 sent, 1 received', 'spex: 1 sent, 2 received', 'set-agent-comm checkout#9c0ffee0: 1 sent, 1 received']);
  await expect(page.locator(`tr[data-session="${SESSION_B}"] .store-badge`).last()).toContainText('checkout#9c0ffee0-111');
});

test("a session's page shows every store's items labelled with their store, none of the other session's, and a new sac entry without a reload", async ({ page }) => {
  await page.goto(dashboard.url);
  await page.getByRole('link', { name: `Across the stores: ${SESSION_A}` }).click();
  await expect(page).toHaveURL(`${dashboard.url}/sessions/${SESSION_A}`);
  const rows = page.locator('.joined-row');
  await expect(rows.first()).toBeVisible();
  expect(new Set(await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-store'))))).toEqual(new Set(['record', 'spex', 'sac']));
  // The record's received entry still says it pairs with no sent one; spex's sent line says whose log it is in.
  await expect(page.getByText('Which sent entry this corresponds to: not shown by the record.')).toBeVisible();
  await expect(page.getByText('Two comments on the retry loop, see the review.')).toHaveCount(0);

  await stores.sacWriter.send({ op: 'send', room: 'checkout', seat: 'checkout#9c0ffee0', ts: sacTime(), type: 'FACT', text: 'A live fact for the session page.' });
  const live = page.locator('.joined-row[data-store="sac"]', { hasText: 'A live fact for the session page.' });
  await expect(live).toBeVisible();
  await expect(live.locator('.store-badge')).toHaveText('set-agent-comm checkout#9c0ffee0');
});

test("a session page's filters are in its address: one store, one side", async ({ page }) => {
  await page.goto(`${dashboard.url}/sessions/${SESSION_A}`);
  await expect(page.locator('.joined-row').first()).toBeVisible();
  await page.getByRole('group', { name: 'Store' }).getByRole('checkbox').first().check();
  await expect(page).toHaveURL(/\?store=record-[0-9a-f]{8}$/);
  await expect(page.locator('.joined-row:not([data-store="record"])')).toHaveCount(0);
  await page.getByLabel('Side').selectOption('received');
  await expect(page).toHaveURL(/side=received/);
  await expect(page.locator('.joined-row:not(.side-received)')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('.joined-row.side-received')).toHaveCount(1);
});
