import { startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { makeRecordDir, SessionWriting, startWriter, type Writer } from './support/record.ts';
import { expect, test } from './support/test.ts';

// A search whose time runs out says so, with how far it got: it is never shown as "no matches".
// The command runs with a budget of 50 ms, and every text matches but takes tens of
// milliseconds of matching: the search cannot go through them all within it.

const TEXTS = 20;
const HEAVY_TEXT = 'a'.repeat(2_000_000) + '!';

let record: { dir: string; remove(): Promise<void> };
let writer: Writer;
let dashboard: RunningDashboard;

test.beforeAll(async () => {
  record = await makeRecordDir('budget');
  writer = await startWriter(record.dir);
  const session = new SessionWriting(writer, '/home/dev/projects/budget');
  await session.start();
  for (let i = 0; i < TEXTS; i++) await session.sent({ as: 'peer' }, HEAVY_TEXT);
  dashboard = await startDashboard(record.dir, 0, { args: ['--search-budget', '0.05'] });
});

test.afterAll(async () => {
  await dashboard?.stop();
  await writer?.kill();
  await record?.remove();
});

test('a search out of time says how many texts it searched of how many, and after how long, and shows what it found in them', async ({ page }) => {
  await page.goto(`${dashboard.url}/search?regex=1&q=${encodeURIComponent('(a+)+!')}`);
  const notice = page.locator('.search-stopped-early');
  await expect(notice).toHaveText(/^Searched (\d+) of 20 texts; stopped after \d+\.\d s — narrow the search \(a project, a time range, a store\)\. The texts not searched may hold more matches\.$/);
  const searched = Number(/Searched (\d+) of/.exec((await notice.textContent()) ?? '')![1]);
  expect(searched).toBeLessThan(TEXTS);
  // Every text matches: what it found is every text it searched.
  await expect(page.locator('.search-hit')).toHaveCount(searched);
  await expect(page.getByRole('status')).toContainText(`in the texts searched`);
});
