import { expect, test } from './support/test.ts';
import { useSharedRecord } from './support/liveRecord.ts';
import { UNKNOWN_FIELDS } from './support/sharedRecord.ts';

// Where the record is silent or damaged, the UI says so: in a banner with the files, and in place.

const view = useSharedRecord(test);

test('a gap in the sequence is a banner naming the missing entry and the files around it, and a row in its place', async ({ page }) => {
  await page.goto(`${view.url}/session/${view.shared.ids.degraded}`);
  const banner = page.getByRole('region', { name: 'Degraded recording' });
  await expect(banner.locator('[data-reason="sequence-gap"]')).toContainText(
    '1 entry is missing from the sequence: a write may have failed or a file was removed.',
  );
  await expect(banner.locator('[data-reason="sequence-gap"]')).toContainText('entry 3 missing, between');
  const gap = page.getByRole('article', { name: 'missing entry 3' });
  await expect(gap).toContainText('entry 3 missing: a write may have failed or the file was removed.');
  // In its place: after entry 2 and before entry 4.
  const order = await page.locator('.conversation-row').evaluateAll((rows) =>
    rows.sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index'))).map((row) => row.textContent ?? ''),
  );
  const gapAt = order.findIndex((text) => text.includes('entry 3 missing'));
  expect(order[gapAt - 1]).toContain('before the gap');
  expect(order[gapAt + 1]).toContain('after the gap');
});

test('a short banner is shown whole: the files it names are in view, not behind a scroll', async ({ page }) => {
  await page.goto(`${view.url}/session/${view.shared.ids.degraded}`);
  const banner = page.getByRole('region', { name: 'Degraded recording' });
  await expect(banner.locator('[data-reason="sequence-gap"]')).toContainText('entry 3 missing, between');
  const { scrollHeight, clientHeight } = await banner.evaluate((element) => ({ scrollHeight: element.scrollHeight, clientHeight: element.clientHeight }));
  expect(scrollHeight, 'the banner holds more than it shows').toBeLessThanOrEqual(clientHeight + 1);
  // Nor is its room taken below the view: the rows' box ends on the page.
  const overflow = await page.locator('main.conversation-view').evaluate((element) => element.scrollHeight - element.clientHeight);
  expect(overflow, 'pixels of the page pushed below the view').toBeLessThanOrEqual(1);
});

test('at a short view nothing is pushed out of the page: the rows keep a third of it, and what sits above scrolls', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 420 });
  await page.goto(`${view.url}/session/${view.shared.ids.degraded}`);
  await expect(page.getByRole('region', { name: 'Degraded recording' }).locator('[data-reason="sequence-gap"]')).toContainText('entry 3 missing, between');
  const main = page.locator('main.conversation-view');
  const { overflow, rowsShare } = await main.evaluate((element) => {
    const rows = element.querySelector('.conversation')!.getBoundingClientRect();
    return { overflow: element.scrollHeight - element.clientHeight, rowsShare: rows.height / element.clientHeight };
  });
  expect(overflow, 'pixels of the page pushed below the view').toBeLessThanOrEqual(1);
  expect(rowsShare, "the rows' share of the page, padding included").toBeGreaterThanOrEqual(0.3);
});

test('a damaged, an invalid, a stray and an unknown-kind file each show as what they are, never as an entry', async ({ page }) => {
  await page.goto(`${view.url}/session/${view.shared.ids.degraded}`);
  const banner = page.getByRole('region', { name: 'Degraded recording' });
  await expect(banner).toContainText('1 file never parsed (for example a write cut short): unknown evidence, not nothing.');
  await expect(banner).toContainText(/1 file holds JSON that is not a valid entry: shown raw, unknown evidence./);
  await expect(page.locator('.evidence-damaged')).toContainText(/Unknown evidence: file .*-5\.json \(37 bytes\) never parsed/);
  await expect(page.locator('.evidence-invalid')).toContainText('Not a valid entry');
  await expect(page.locator('.evidence-invalid .raw-json')).toContainText('"side":"sideways"');
  await expect(page.getByRole('article', { name: 'stray file notes.txt' })).toContainText('never read as evidence');
  await expect(page.locator('.unknown-row')).toContainText('Entry of a kind this reader does not know: heartbeat');
  await expect(page.locator('.unknown-row .raw-json')).toContainText('"beat":1');
  // The file's own text: numbers as written, a __proto__ field kept.
  await expect(page.locator('.unknown-row .raw-json')).toContainText(UNKNOWN_FIELDS);
});

test('a session without a start entry says its coverage is unknown', async ({ page }) => {
  await page.goto(`${view.url}/session/${view.shared.ids.noStart}`);
  await expect(page.getByRole('region', { name: 'Degraded recording' })).toContainText(
    'No start entry: coverage unknown. The record cannot say whether this session sent or received more than its folder holds.',
  );
  await expect(page.locator('.session-header')).toContainText('coverage unknown: no start entry');
  // Its entries come after no start entry at all: none says that one comes before coverage does.
  await expect(page.locator('.entry-note')).toHaveText(['No start entry before it: coverage unknown.']);
  // Its row in the list names its one reason once: "coverage unknown", not that and "degraded" beside it.
  const row = page.locator(`.session-row[data-session-id="${view.shared.ids.noStart}"]`);
  await expect(row.locator('.badge-degraded')).toHaveText(['coverage unknown']);
});

test('the top of the app counts the degraded sessions, and the list can show only them', async ({ page }) => {
  await page.goto(view.url);
  const count = page.locator('.topbar').getByRole('button', { name: /degraded/ });
  await expect(count).toHaveText('2 degraded');
  await count.click();
  const sessions = page.getByRole('navigation', { name: 'Projects and sessions' }).locator('.session-row');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ has: page.locator('.badge-degraded') })).toHaveCount(2);
});
