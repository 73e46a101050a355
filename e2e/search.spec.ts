import { expect, test } from './support/test.ts';
import { useSharedRecord } from './support/liveRecord.ts';

// Find across all sessions; every result links to its entry in its session.

const view = useSharedRecord(test);

test('a text search finds the entries of every session that hold it, and a result opens the entry in its session', async ({ page }) => {
  await page.goto(`${view.url}/search`);
  await page.getByRole('searchbox', { name: 'Text to find' }).fill('got it queued');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search\?q=got\+it\+queued$/);
  const hits = page.locator('.search-hit');
  await expect(hits).toHaveCount(2);
  await expect(hits.locator('mark').first()).toHaveText('got it queued');
  // Results are entries: each is its own, nothing pairs them.
  await expect(page.getByRole('status')).toContainText('nothing here pairs a sent entry with a received one');
  // Its session is a link to the session, as a spex hit's is.
  await expect(hits.filter({ hasText: 'received' }).locator(`a[href$="/conversation/${view.shared.ids.alpha}"]`)).toHaveAttribute('title', view.shared.ids.alpha);

  await hits.filter({ hasText: 'received' }).getByRole('link', { name: /Open entry/ }).click();
  await expect(page).toHaveURL(new RegExp(`/source/record-[0-9a-f]{8}/conversation/${view.shared.ids.alpha}/item/`));
  await expect(page.locator('.conversation-row.selected')).toContainText('Thanks, got it queued on my side.');
});

test('a search that finds nothing says how much it read, what it could not read, and no note on how to read results it does not have', async ({ page }) => {
  await page.goto(`${view.url}/search?q=${encodeURIComponent('no entry holds this phrase')}`);
  await expect(page.getByRole('status')).toHaveText(/^0 entries \([\d,]+ texts read\)\. Searched again as entries are written\.$/);
  await expect(page.locator('.search-hit')).toHaveCount(0);
  // The degraded session's file cut short and its file that is no valid entry hold no text to search.
  await expect(page.locator('.search-not-read')).toHaveText(
    /^In the record \(record-[0-9a-f]{8}\): 1 damaged file and 1 file that is not a valid entry were not searched, and may hold matches\.$/,
  );
  // A project they are not in keeps them out.
  await page.goto(`${view.url}/search?q=${encodeURIComponent('no entry holds this phrase')}&project=${encodeURIComponent('/home/dev/projects/alpha')}`);
  await expect(page.getByRole('status')).toContainText('0 entries');
  await expect(page.locator('.search-not-read')).toHaveCount(0);
});

test('a link to a search leaves the keys to its results: j and k select a hit, Enter opens it; Escape in the box leaves it, what was typed kept', async ({ page }) => {
  await page.goto(`${view.url}/search?q=got+it+queued`);
  const hits = page.locator('.search-hit');
  await expect(hits).toHaveCount(2);
  const box = page.getByRole('searchbox', { name: 'Text to find' });
  await expect(box).not.toBeFocused();
  await page.keyboard.press('j');
  await expect(hits.nth(0)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('j');
  await expect(hits.nth(1)).toHaveAttribute('aria-current', 'true');
  await expect(hits.nth(0)).not.toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('k');
  await expect(hits.nth(0)).toHaveAttribute('aria-current', 'true');
  await expect(box).toHaveValue('got it queued');
  const opens = await hits.nth(0).getByRole('link', { name: /Open entry/ }).getAttribute('href');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${opens!.replace(/[.?]/g, '\\$&')}$`));
  // `/` on results gives the box the focus, its words kept and selected: typed over, a new search.
  await page.goBack();
  await expect(hits).toHaveCount(2);
  await page.keyboard.press('/');
  await expect(page).toHaveURL(/\/search\?q=got\+it\+queued$/);
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('got it queued');
  expect(await box.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd])).toEqual([0, 'got it queued'.length]);
  await page.keyboard.type('queued');
  await expect(box).toHaveValue('queued');

  // An empty search gives the box the focus; Escape leaves it, and the page's keys work again.
  await page.goto(`${view.url}/search`);
  await expect(box).toBeFocused();
  await box.fill('queued');
  await page.keyboard.press('Escape');
  await expect(box).not.toBeFocused();
  await expect(box).toHaveValue('queued');
  await page.keyboard.press('l');
  await expect(page).toHaveURL(/\/live$/);
});

test('filters: a regex, refused sends only, a side and an outcome', async ({ page }) => {
  await page.goto(`${view.url}/search?q=${encodeURIComponent('Sec(ond)? line')}&regex=1`);
  await expect(page.locator('.search-hit')).toHaveCount(2);

  await page.goto(`${view.url}/search?record.refused=1`);
  await expect(page.locator('.search-hit')).toHaveCount(1);
  await expect(page.locator('.search-hit')).toContainText('not queued');
  await expect(page.locator('.search-hit')).toContainText('Please update the docs page.');

  await page.goto(`${view.url}/search?side=received&record.outcome=queued`);
  await expect(page.locator('.search-hit')).toHaveCount(1);
  await expect(page.locator('.search-hit .outcome')).toHaveText('queued: neither read nor acted on');
});

test('a withheld text is never matched by its words', async ({ page }) => {
  await page.goto(`${view.url}/search?q=confidential`);
  await expect(page.getByRole('status')).toContainText('0 entries');
});

test('a text typed and not asked for yet is not asked for again: the page says Enter searches for it', async ({ page }) => {
  await page.goto(`${view.url}/search`);
  await expect(page.getByText('Give a text or a filter.')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Text to find' }).fill('got it queued');
  await expect(page.getByText('Press Enter, or Search, to search for it.')).toBeVisible();
  await expect(page.getByText('Give a text or a filter.')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.locator('.search-hit')).toHaveCount(2);
});

test('a time that is not one is refused with what to write, and the page never asks for the filter it was just given', async ({ page }) => {
  await page.goto(`${view.url}/search`);
  await page.getByRole('textbox', { name: /^from/ }).fill('yesterday');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('alert')).toHaveText(/^yesterday is not a time: write it as the page does, .* Not searched\.$/);
  await expect(page.getByText('Give a text or a filter.')).toHaveCount(0);
  await expect(page).toHaveURL(`${view.url}/search`);

  // After a search: its results stay, said to be that search's, not the refused one's.
  await page.goto(`${view.url}/search?q=got+it+queued`);
  await expect(page.locator('.search-hit')).toHaveCount(2);
  await page.getByRole('textbox', { name: /^to/ }).fill('2026-13-45');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('alert')).toContainText('Not searched: the results below are those of the search before.');
  await expect(page.locator('.search-hit')).toHaveCount(2);
});

test('a time in the address that is not one is refused in the page’s words, as if typed, and nothing is searched', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/search')) asked.push(request.url());
  });
  await page.goto(`${view.url}/search?q=got+it+queued&from=yesterday`);
  await expect(page.getByRole('alert')).toHaveText(/^yesterday is not a time: write it as the page does, .* Not searched\.$/);
  await expect(page.getByRole('textbox', { name: /^from/ })).toHaveValue('yesterday');
  await expect(page.locator('.search-hit')).toHaveCount(0);
  await expect(page.getByText('Search failed')).toHaveCount(0);
  expect(asked).toEqual([]);

  // One the page reads as a time, but not in the server's words, is searched as its field shows it.
  await page.goto(`${view.url}/search?q=got+it+queued&from=2000-01-01`);
  await expect(page.getByRole('textbox', { name: /^from/ })).toHaveValue('2000-01-01 00:00:00');
  await expect(page.locator('.search-hit')).toHaveCount(2);
  await expect(page.getByText('Search failed')).toHaveCount(0);
  expect(asked.at(-1)).toContain('from=2000-01-01T00%3A00%3A00.000Z');
});

test('a search the server refuses (a limit it does not give) is said not to have been made, in its words, not to have failed', async ({ page }) => {
  await page.goto(`${view.url}/search?q=got+it+queued&limit=999999`);
  await expect(page.locator('.notice.error')).toHaveText('Not searched: limit: expected a decimal number from 1 to 1000.');
  await expect(page.getByText('Search failed')).toHaveCount(0);
});

test('a from after its to is refused in the page’s words, typed or in the address, never searched and shown as nothing found', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/search')) asked.push(request.url());
  });
  await page.goto(`${view.url}/search?q=got+it+queued`);
  await expect(page.locator('.search-hit')).toHaveCount(2);
  const searched = asked.length;
  await page.getByRole('textbox', { name: /^from/ }).fill('2026-11-20 10:00');
  await page.getByRole('textbox', { name: /^to/ }).fill('2026-11-20 09:00');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('alert')).toHaveText('from (2026-11-20 10:00) is after to (2026-11-20 09:00): no time is in that window. Not searched: the results below are those of the search before.');
  await expect(page.locator('.search-hit')).toHaveCount(2);
  expect(asked.length).toBe(searched);

  await page.goto(`${view.url}/search?q=got+it+queued&from=2026-11-20T10:00:00Z&to=2026-11-20T09:00:00Z`);
  await expect(page.getByRole('alert')).toHaveText('from (2026-11-20 10:00:00) is after to (2026-11-20 09:00:00): no time is in that window. Not searched.');
  await expect(page.locator('.search-hit')).toHaveCount(0);
  await expect(page.getByText(/0 entries/)).toHaveCount(0);
  expect(asked.length).toBe(searched);
});

test('a project in the address that no store names stays chosen in its field, as the search applies it', async ({ page }) => {
  await page.goto(`${view.url}/search?q=got+it+queued&project=${encodeURIComponent('/work/elsewhere')}`);
  await expect(page.getByRole('status')).toContainText('0 entries');
  await expect(page.getByRole('combobox', { name: 'project' })).toHaveValue('/work/elsewhere');
  // Any project again: the search finds what the project kept out.
  await page.getByRole('combobox', { name: 'project' }).selectOption('');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.locator('.search-hit')).toHaveCount(2);
});

test('the results’ downloads say what they hold: the hits as the search answered them, not the files byte for byte', async ({ page }) => {
  await page.goto(`${view.url}/search?q=got+it+queued`);
  await expect(page.locator('.search-hit')).toHaveCount(2);
  const downloads = page.getByRole('group', { name: 'Download these results' });
  await expect(downloads.getByRole('link', { name: /as NDJSON$/ })).toHaveAttribute('title', 'Each hit as the search answered it: its store, session and place, and the text around its match');
  await expect(downloads.getByRole('link', { name: /as Markdown$/ })).toHaveAttribute('title', /^The query, then each hit/);
  for (const link of await downloads.getByRole('link').all()) await expect(link).not.toHaveAttribute('title', /byte for byte|in its place/);
});
