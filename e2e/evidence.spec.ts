import { readFileSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './support/test.ts';
import { apiFetch, waitForItems } from './support/dashboard.ts';
import { useLiveRecord } from './support/liveRecord.ts';
import { SessionWriting } from './support/record.ts';

// Evidence that something other than the writer touched the record stays on the page, in words:
// an entry whose name a link took, an entry put back as it was, a sequence that jumps.

const live = useLiveRecord(test, 'evidence');

const row = (page: Page, file: string) => page.locator(`[data-file="${file}"]`);

async function apiItem(sessionId: string, file: string): Promise<{ evidence: string; episode?: string } | undefined> {
  const response = await apiFetch(`${live.url}/api/sessions/${encodeURIComponent(sessionId)}?limit=5000`);
  const page = (await response.json()) as { items: { type: string; file?: string; evidence: string; episode?: string }[] };
  return page.items.find((item) => item.type === 'file' && item.file === file);
}

test('an entry whose name a link took keeps its column and says what it was and what is there now', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/replaced');
  await session.start();
  const file = await session.sent({ as: 'api-service' }, 'Words read before the file was replaced.');
  await session.received({ as: 'api-service' }, 'A reply after it.');
  await waitForItems(live.url, session.sessionId, 3);
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(row(page, file).locator('.entry-text')).toHaveText('Words read before the file was replaced.');

  const where = path.join(live.dir, session.sessionId, file);
  unlinkSync(where);
  symlinkSync('/etc/hostname', where);
  const changed = row(page, file);
  await expect(changed).toContainText('Changed after it was read:', { timeout: 10_000 });
  await expect(changed).toContainText('a sent message entry');
  await expect(changed).toContainText('changed after it was read: now a symbolic link, not followed');
  await expect(page.locator('.cell-sent').filter({ has: changed })).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Degraded recording' }).locator('[data-reason="changed-after-read"]')).toContainText(file);
  // The session still counts the entry it read.
  await expect(page.locator('.session-header')).toContainText('1 sent');
});

test('an entry cut and written again as it was is shown as its entry, with a note that it was touched', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/restored');
  await session.start();
  const file = await session.received({ as: 'web-app' }, 'Put back byte for byte.');
  await waitForItems(live.url, session.sessionId, 2);
  const where = path.join(live.dir, session.sessionId, file);
  const bytes = readFileSync(where);
  truncateSync(where, 0);
  await expect.poll(async () => (await apiItem(session.sessionId, file))?.evidence, { timeout: 10_000 }).toBe('changed');
  writeFileSync(where, bytes);
  await expect.poll(async () => (await apiItem(session.sessionId, file))?.episode, { timeout: 10_000 }).toBe('changed-then-restored');

  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(row(page, file).locator('.entry-text')).toHaveText('Put back byte for byte.');
  await expect(row(page, file).locator('.entry-note')).toContainText('changed after it was read, then put back as it was read');
  await expect(page.getByRole('region', { name: 'Degraded recording' }).locator('[data-reason="changed-after-read"]')).toContainText(file);
});

test('a sequence that jumps is shown as a jump, not as a quadrillion missing entries', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/jump');
  await session.start();
  await session.sent({ as: 'api-service' }, 'before the jump');
  await session.sent({ as: 'api-service' }, 'after the jump', { isQueued: true }, { seq: 999_999_999_999_999 });
  await waitForItems(live.url, session.sessionId, 4);
  await page.goto(`${live.url}/session/${session.sessionId}`);
  const gap = page.getByRole('article', { name: /sequence jump after/ });
  await expect(gap).toContainText('The sequence jumps from 2 to 999,999,999,999,999 (a jump of 999,999,999,999,997)');
  const banner = page.getByRole('region', { name: 'Degraded recording' }).locator('[data-reason="sequence-gap"]');
  await expect(banner).toContainText('The sequence jumps once (a jump of 999,999,999,999,997)');
  await expect(banner).not.toContainText('entries are missing');
});
