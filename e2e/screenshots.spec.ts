import { expect, test, type Page } from './support/test.ts';
import path from 'node:path';
import type { SessionSummary } from '../shared/wire/record.ts';
import { sessionsResponseSchema } from '../shared/wire/conversations.ts';
import { joinedSessionsResponseSchema } from '../shared/wire/session.ts';
import { REPO, apiFetch, startDashboard, type RunningDashboard } from './support/dashboard.ts';

// Pictures of the main views for the README, made from the demo record at 1280×800. Each run
// makes them in the test results; `npm run screenshots` makes them where the README shows them.
// (The demo's times are always now, so the pictures differ from run to run.)

const OUT = path.join(REPO, ...(process.env['REC_SCREENSHOTS'] === 'readme' ? ['e2e', 'screenshots'] : ['test-results', 'screenshots']));
let dashboard: RunningDashboard;

test.beforeAll(async () => {
  dashboard = await startDashboard(null);
});
test.afterAll(async () => {
  await dashboard?.stop();
});

async function demoSessions(): Promise<SessionSummary[]> {
  // The demo writes its backlog over a moment; wait until every kind of session is there.
  for (let i = 0; i < 100; i++) {
    const body = sessionsResponseSchema.parse(await (await apiFetch(`${dashboard.url}/api/sessions`)).json());
    const all = body.projects.flatMap((project) => project.sessions).filter((s): s is SessionSummary => s.source.kind === 'record');
    if (body.sources[0]!.indexing.state === 'ready' && all.some((s) => s.counts.refused > 0 && s.counts.rejected > 0) && all.some((s) => s.counts.damaged > 0) && all.some((s) => s.counts.missing > 0)) return all;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the demo record did not fill in time');
}

async function shoot(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
}

test('screenshots of the main views, light and dark', async ({ page }) => {
  const sessions = await demoSessions();
  const talky = sessions.find((s) => s.counts.refused > 0 && s.counts.rejected > 0)!;
  const damaged = sessions.find((s) => s.counts.damaged > 0)!;
  const gap = sessions.find((s) => s.counts.missing > 0)!;

  await page.goto(dashboard.url);
  await expect(page.getByRole('heading', { name: 'Every store' })).toBeVisible();
  await shoot(page, 'overview');

  await page.goto(`${dashboard.url}/session/${talky.sessionId}`);
  // The page opens at the newest entry; the demo keeps writing, so the refused send of its
  // backlog is at the top, out of a long session's rendered rows until Home.
  await expect(page.locator('.session-header')).toBeVisible();
  await page.keyboard.press('Home');
  await expect(page.getByText('not queued:').first()).toBeVisible();
  await page.waitForTimeout(300);
  await shoot(page, 'session');

  await page.goto(`${dashboard.url}/session/${damaged.sessionId}`);
  await expect(page.getByRole('region', { name: 'Degraded recording' })).toBeVisible();
  await page.locator('.evidence-damaged').scrollIntoViewIfNeeded();
  await shoot(page, 'degraded-damaged');

  // Opened at the entry after the gap: the demo keeps writing, and a session opened at its newest
  // entry has its gap out of the rendered rows.
  const items = ((await (await apiFetch(`${dashboard.url}/api/sessions/${gap.sessionId}?limit=5000`)).json()) as { items: { type: string; before?: string }[] }).items;
  await page.goto(`${dashboard.url}/session/${gap.sessionId}/entry/${items.find((item) => item.type === 'gap')!.before}`);
  await expect(page.getByRole('article', { name: /^missing entr/ })).toBeVisible();
  await shoot(page, 'degraded-gap');

  await page.goto(`${dashboard.url}/search?q=orders`);
  await expect(page.locator('.search-hit').first()).toBeVisible();
  await shoot(page, 'search');

  // The demo writes a message every second or three: the live view fills as it runs.
  test.setTimeout(90_000);
  await page.goto(`${dashboard.url}/live`);
  await expect(page.locator('.live-item').nth(5)).toBeVisible({ timeout: 30_000 });
  await shoot(page, 'live');

  // A spex session a person and a peer wrote to, and a set-agent-comm room's flow.
  const list = sessionsResponseSchema.parse(await (await apiFetch(`${dashboard.url}/api/sessions`)).json());
  const conversations = list.projects.flatMap((project) => project.sessions);
  const spex = conversations.find((c) => c.source.kind === 'spex' && 'counts' in c && 'fromPerson' in c.counts && c.counts.fromPerson > 0)!;
  await page.goto(`${dashboard.url}/spex/${spex.source.id}/session/${encodeURIComponent(spex.id)}`);
  await expect(page.getByRole('group', { name: 'Status now' })).toBeVisible();
  await shoot(page, 'spex-session');
  const sac = list.sources.find((source) => source.kind === 'sac')!;
  await page.goto(`${dashboard.url}/sac/${sac.id}/room/team`);
  await expect(page.getByRole('region', { name: 'Flow' })).toBeVisible();
  await shoot(page, 'sac-room');

  // The map of who talks to whom, over every store of the demo.
  await page.goto(`${dashboard.url}/map`);
  await expect(page.getByRole('group', { name: 'Map of who talks to whom' }).getByRole('button').first()).toBeVisible();
  await shoot(page, 'map');

  // One Claude Code session across the stores: the demo's live sessions talk in every store.
  const joined = joinedSessionsResponseSchema.parse(await (await apiFetch(`${dashboard.url}/api/joined-sessions`)).json());
  const everywhere = joined.projects.flatMap((project) => project.sessions).find((session) => new Set(session.conversations.map((one) => one.source.kind)).size === 3)!;
  await page.goto(`${dashboard.url}/sessions/${encodeURIComponent(everywhere.session)}`);
  // It opens at the newest rows, whichever stores they are of; its badges name all three.
  await expect(page.getByRole('list', { name: 'Its stores' }).locator('a.store-badge')).toHaveCount(everywhere.conversations.length);
  await expect(page.locator('.joined-row').first()).toBeVisible();
  await shoot(page, 'one-session');

  // An export: the Markdown transcript of the session with a gap, as it downloads.
  const markdown = await (await apiFetch(`${dashboard.url}/api/sessions/${gap.sessionId}/export?format=md`)).text();
  const escaped = markdown.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  await page.setContent(`<pre style="font: 13px/1.45 ui-monospace, monospace; white-space: pre-wrap; margin: 16px">${escaped}</pre>`);
  await shoot(page, 'export-markdown');

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${dashboard.url}/session/${talky.sessionId}`);
  // The page opens at the newest entry; the demo keeps writing, so the refused send of its
  // backlog is at the top, out of a long session's rendered rows until Home.
  await expect(page.locator('.session-header')).toBeVisible();
  await page.keyboard.press('Home');
  await expect(page.getByText('not queued:').first()).toBeVisible();
  await page.waitForTimeout(300);
  await shoot(page, 'session-dark');
});
