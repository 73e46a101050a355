import { expect, test } from './support/test.ts';
import { useSharedRecord } from './support/liveRecord.ts';
import { fingerprint } from './support/record.ts';
import { loadShared } from './support/sharedRecord.ts';

// rec-dashboard only reads (rule.neverPruned, rule.staysLocal): driving every view and every key
// over a record leaves every file in it as it was: names, sizes, mtimes and contents.

const view = useSharedRecord(test);

test('driving every view and every key leaves every file of the record as it was', async ({ page, context }) => {
  // Every session, every key: some 30 s on a loaded two-core runner, before this change too.
  test.setTimeout(60_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { fingerprint: before } = await loadShared();
  expect(await fingerprint(view.shared.dir)).toEqual(before);

  await page.goto(view.url);
  await expect(page.locator('.session-row')).toHaveCount(6);
  const sessions = await page.locator('.session-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-session-id')!));
  for (const sessionId of sessions) {
    await page.goto(`${view.url}/session/${sessionId}`);
    await expect(page.locator('.session-header .full-id')).toHaveText(sessionId);
    await expect(page.locator('.conversation-row article').first()).toBeVisible();
    await page.keyboard.press('Home');
    const rows = await page.locator('.conversation-row').count();
    for (let i = 0; i < rows; i++) {
      await page.keyboard.press('j');
      await page.keyboard.press('r');
    }
    for (const button of await page.getByRole('button', { name: 'Copy the exact text' }).all()) await button.click();
    await page.keyboard.press('t');
    await page.keyboard.press('m');
  }
  await page.goto(`${view.url}/search?q=line&regex=1`);
  await expect(page.locator('.search-hit').first()).toBeVisible();
  await page.goto(`${view.url}/project?cwd=${encodeURIComponent('/home/dev/projects/beta')}`);
  await expect(page.locator('.session-table')).toBeVisible();

  expect(await fingerprint(view.shared.dir)).toEqual(before);
});
