import { expect, test } from './support/test.ts';
import { apiFetch, waitForItems } from './support/dashboard.ts';
import { useLiveRecord } from './support/liveRecord.ts';
import { SessionWriting } from './support/record.ts';

// A long session costs what a screenful costs: rows are virtualized and pages are fetched by
// position, on demand.

const live = useLiveRecord(test, 'scale');
const COUNT = 20_000;

test(`a session of ${COUNT.toLocaleString('en')} entries keeps a screenful in the page and fetches only the pages it shows`, async ({ page }) => {
  test.setTimeout(90_000);
  const session = new SessionWriting(live.writer, '/e2e/scale');
  await session.start();
  await waitForItems(live.url, session.sessionId, 1);
  await live.writer.send({ op: 'burst', sessionId: session.sessionId, count: COUNT, startSeq: 2, cwd: '/e2e/scale' });
  await expect
    .poll(async () => (await (await apiFetch(`${live.url}/api/sessions/${session.sessionId}?limit=1`)).json()).page.total, { timeout: 30_000 })
    .toBe(COUNT + 1);

  const offsets: number[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === `/api/sessions/${session.sessionId}` && url.searchParams.has('offset')) offsets.push(Number(url.searchParams.get('offset')));
  });
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(page.getByText(`(#${COUNT})`)).toBeInViewport();
  expect(await page.locator('.conversation-row').count()).toBeLessThan(40);
  // The sidebar writes its counts as the tables do: 20,000, not 20000.
  const row = page.getByRole('navigation', { name: 'Projects and sessions' }).locator(`a[href*="${session.sessionId}"]`).first();
  await expect(row.locator('.session-row-counts')).toContainText(/\d{1,3}(,\d{3})+ (sent|received)/);

  // Scroll away as a reader does (the wheel stops following the newest entry), then jump to the
  // middle, as a drag of the scrollbar would.
  await page.locator('.conversation-scroll').hover();
  await page.mouse.wheel(0, -400);
  await expect(page.getByRole('button', { name: /new/ })).toHaveCount(0);
  await page.locator('.conversation-scroll').evaluate((element) => (element.scrollTop = element.scrollHeight / 2));
  const firstSeq = async () => Number((await page.locator('.conversation-row .seq').allTextContents())[0]?.slice(1) ?? NaN);
  // Rows are placeholders until their page arrives, and the list settles as rows are measured:
  // wait until the first row shown is a loaded entry in the middle.
  await expect.poll(async () => {
    const seq = await firstSeq();
    return seq > COUNT * 0.3 && seq < COUNT * 0.7;
  }).toBe(true);
  await expect(page.locator('.conversation-row .loading-row')).toHaveCount(0);
  expect(await page.locator('.conversation-row').count()).toBeLessThan(40);
  // A few pages near the newest entries and near the middle: never the whole session.
  expect(new Set(offsets).size).toBeLessThan(10);
  expect(offsets.every((offset) => offset === 0 || offset > COUNT * 0.3)).toBe(true);
});

test('a project of more sessions than a table shows lists them 200 at a time and says how many are not shown', async ({ page }) => {
  const cwd = '/e2e/many-sessions';
  const sessions = Array.from({ length: 205 }, () => new SessionWriting(live.writer, cwd));
  for (const session of sessions) await session.start();
  await waitForItems(live.url, sessions.at(-1)!.sessionId, 1);
  await page.goto(`${live.url}/project?cwd=${encodeURIComponent(cwd)}`);
  const table = page.getByRole('table', { name: 'The record: 205 sessions, latest activity first' });
  await expect(table.locator('tbody tr')).toHaveCount(200);
  await page.getByRole('button', { name: 'Show 5 more (5 not shown)' }).click();
  await expect(table.locator('tbody tr')).toHaveCount(205);
  await expect(page.getByRole('button', { name: /more/ })).toHaveCount(0);
});
