import { expect, test } from './support/test.ts';
import { startDashboard, waitForItems } from './support/dashboard.ts';
import { makeRecordDir, SessionWriting, startWriter } from './support/record.ts';

test('stopping the server (SIGTERM) with the page open ends it, and the page shows a banner; on reconnect it goes, and what was written meanwhile is fetched', async ({ page }) => {
  const record = await makeRecordDir('connection');
  const writer = await startWriter(record.dir);
  let dashboard = await startDashboard(record.dir);
  try {
    const session = new SessionWriting(writer, '/e2e/connection');
    await session.start();
    await waitForItems(dashboard.url, session.sessionId, 1);
    await page.goto(`${dashboard.url}/session/${session.sessionId}`);
    await expect(page.getByRole('article', { name: /start entry/ })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);

    const port = Number(new URL(dashboard.url).port);
    // SIGTERM, with the page's event stream open: the command exits by itself (not killed).
    expect(await dashboard.stop()).toBe(0);
    await expect(page.getByRole('alert')).toContainText('Lost the connection to the rec-dashboard server. Reconnecting');
    const meanwhile = await session.received({ as: 'api' }, 'Written while the dashboard was down.');

    dashboard = await startDashboard(record.dir, port);
    await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 10_000 });
    await expect(page.locator(`article[data-file="${meanwhile}"] .entry-text`)).toHaveText('Written while the dashboard was down.');
  } finally {
    await dashboard.stop();
    await writer.kill();
    await record.remove();
  }
});
