import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from './support/test.ts';
import { startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { makeRecordDir } from './support/record.ts';

// The way a person gets in: the address the command printed carries the token once; the
// browser trades it for a cookie. These tests send no bearer token of their own.
test.use({ extraHTTPHeaders: {} });

let dashboard: RunningDashboard;
let remove = async () => {};

test.beforeAll(async () => {
  const made = await makeRecordDir('access');
  remove = made.remove;
  dashboard = await startDashboard(made.dir, 0, { token: 'default' });
});
test.afterAll(async () => {
  await dashboard?.stop();
  await remove();
});

test('the printed address lets the browser in, and the token leaves the address bar', async ({ page }) => {
  expect(dashboard.printed).toMatch(/\/\?token=[A-Za-z0-9_-]+$/);
  await page.goto(dashboard.printed);
  await expect(page).toHaveURL(`${dashboard.url}/`);
  await expect(page.getByRole('heading', { name: 'The record' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'The record' })).toBeVisible();
});

test('the printed address opened from a page of no site, as --open opens it, lets the browser in too', async ({ page }) => {
  // A navigation another site began gets no SameSite=Strict cookie on its redirect: the page --open
  // writes is a file, so the first visit must not rest on a redirect.
  const dir = mkdtempSync(join(tmpdir(), 'rec-e2e-open-'));
  try {
    const opener = join(dir, 'open.html');
    writeFileSync(opener, `<!doctype html><meta http-equiv="refresh" content="0;url=${dashboard.printed.replaceAll('&', '&amp;')}">`);
    await page.goto(pathToFileURL(opener).href);
    await expect(page).toHaveURL(`${dashboard.url}/`);
    await expect(page.getByRole('heading', { name: 'The record' })).toBeVisible();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a browser without the token gets a page that says how to get in, and no record', async ({ page }) => {
  const response = await page.goto(`${dashboard.url}/`);
  expect(response?.status()).toBe(401);
  await expect(page.getByRole('heading', { name: 'This rec-dashboard needs its access token' })).toBeVisible();
  await expect(page.getByText('Open the address that rec-dashboard printed')).toBeVisible();
});
