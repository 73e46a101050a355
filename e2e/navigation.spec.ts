import { expect, test } from './support/test.ts';
import { conversationPath, sourceIdOf } from './support/dashboard.ts';
import { useSharedRecord } from './support/liveRecord.ts';

// Every view has its own URL: deep links load directly, and the back button goes back.

const view = useSharedRecord(test);
/** Today's address of a session of the shared record, or of one of its entries. */
const pathOf = (sessionId: string, file?: string) => conversationPath(sourceIdOf('record', view.shared.dir), sessionId, file);

test('a session URL loads directly', async ({ page }) => {
  const { alpha } = view.shared.ids;
  await page.goto(`${view.url}/session/${alpha}`);
  await expect(page.locator('.session-header .full-id')).toHaveText(alpha);
  await expect(page.locator(`.session-row[data-session-id="${alpha}"]`)).toHaveAttribute('aria-current', 'page');
  // One kind of store read: no row needs a badge naming it.
  await expect(page.locator(`.session-row[data-session-id="${alpha}"] .badge-source`)).toBeHidden();
});

test('a session\'s old address, and an entry\'s, are replaced by today\'s in the history: back goes where the reader was before', async ({ page }) => {
  const { alpha } = view.shared.ids;
  const file = view.shared.files.alphaSent;
  await page.goto(`${view.url}/search`);
  await page.goto(`${view.url}/session/${alpha}/entry/${file}?side=sent`);
  await expect(page).toHaveURL(`${view.url}${pathOf(alpha, file)}?side=sent`);
  await expect(page.locator('.conversation-row.selected article')).toHaveAttribute('data-file', file);
  await page.goto(`${view.url}/session/${alpha}`);
  await expect(page).toHaveURL(`${view.url}${pathOf(alpha)}`);
  await page.goBack();
  await expect(page).toHaveURL(`${view.url}${pathOf(alpha, file)}?side=sent`);
  await page.goBack();
  await expect(page).toHaveURL(`${view.url}/search`);
});

test("an address opens on its view at once, with no placeholder shown while the view's code loads", async ({ page }) => {
  const { alpha } = view.shared.ids;
  // The first view put in the page, whatever comes after it.
  await page.addInitScript(() => {
    const seen = new MutationObserver(() => {
      const main = document.querySelector('main');
      if (main === null) return;
      (window as unknown as { firstView: string }).firstView = main.getAttribute('aria-label') ?? main.getAttribute('aria-labelledby') ?? main.textContent ?? '';
      seen.disconnect();
    });
    seen.observe(document, { childList: true, subtree: true });
  });
  const views = [
    [pathOf(alpha), `Session ${alpha}`],
    [`/sessions/${alpha}`, 'Session across the stores'],
    ['/search', 'Search'],
    ['/live', 'Live'],
    ['/map', 'map-title'],
  ] as const;
  // Each view's code fetched once first: the first render waits up to a second for it, and on a
  // machine busy with the rest of the suite a first fetch once took longer (a CI run saw
  // "loading…"). A render that did not wait would show the placeholder with the code at hand too.
  for (const [path] of views) {
    await page.goto(`${view.url}${path}`);
    await expect(page.locator('main')).not.toHaveText('loading…');
  }
  for (const [path, label] of views) {
    await page.goto(`${view.url}${path}`);
    await expect.poll(() => page.evaluate(() => (window as unknown as { firstView?: string }).firstView), { message: path }).toBe(label);
  }
});

test('a session opening at its newest entry shows its rows from one answer, the page that holds its last entry; its activity is asked for after it', async ({ page }) => {
  const { alpha } = view.shared.ids;
  const asked: string[] = [];
  /** What happened to the session's page and to its activity, in order. */
  const order: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith(`/${alpha}`) && url.pathname.startsWith('/api/')) asked.push(url.search);
    if (url.pathname.endsWith(`/${alpha}/activity`)) order.push('activity asked');
  });
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith(`/${alpha}`) && url.pathname.startsWith('/api/')) order.push('page answered');
  });
  await page.goto(`${view.url}${pathOf(alpha)}`);
  await expect(page.locator('.conversation-row article[data-file]').first()).toBeVisible();
  expect(asked).toHaveLength(1);
  expect(new URLSearchParams(asked[0]).get('last')).toBe('1');
  await expect(page.getByRole('region', { name: 'Reading this session' })).toContainText('peer');
  expect(order.slice(0, 2)).toEqual(['page answered', 'activity asked']);
});

test('the list of every session is read as lines, a project a line, and lists the sessions', async ({ page }) => {
  const { alpha } = view.shared.ids;
  const asked = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/sessions' && new URL(request.url()).search === '');
  await page.goto(view.url);
  expect((await asked).headers()['accept']).toBe('application/x-ndjson');
  await expect(page.locator(`.session-row[data-session-id="${alpha}"]`)).toBeVisible();
});

test('an entry URL loads directly, with that entry selected and in view', async ({ page }) => {
  const { beta } = view.shared.ids;
  const file = view.shared.files.betaReceived;
  await page.goto(`${view.url}/session/${beta}/entry/${file}`);
  const target = page.locator(`article[data-file="${file}"]`);
  await expect(target).toBeInViewport();
  await expect(page.locator('.conversation-row.selected')).toContainText(file.replace(/^.*-(\d+)\.json$/, '#$1'));
  await expect(page.locator('.conversation-row.selected article')).toHaveAttribute('data-file', file);
  // Its time and the button beside it read as two phrases, copied or read aloud.
  await expect(page.locator('.conversation-row.selected')).toContainText(/UTC Copy link/);
});

test('the back button walks back through entry, session and home; forward walks again', async ({ page }) => {
  const { alpha } = view.shared.ids;
  const file = view.shared.files.alphaSent;
  await page.goto(view.url);
  await expect(page.getByRole('heading', { name: 'The record' })).toBeVisible();
  await page.locator(`.session-row[data-session-id="${alpha}"]`).click();
  await expect(page).toHaveURL(`${view.url}${pathOf(alpha)}`);
  await page.getByRole('link', { name: `Link to entry ${file}` }).click();
  await expect(page).toHaveURL(`${view.url}${pathOf(alpha, file)}`);
  await page.goBack();
  await expect(page).toHaveURL(`${view.url}${pathOf(alpha)}`);
  await expect(page.locator('.session-header .full-id')).toHaveText(alpha);
  await page.goBack();
  await expect(page).toHaveURL(`${view.url}/`);
  await expect(page.getByRole('heading', { name: 'The record' })).toBeVisible();
  await page.goForward();
  await expect(page.locator('.session-header .full-id')).toHaveText(alpha);
});

test("a session one store holds says on its page across the stores that no other store read here holds it, as its store's own page does", async ({ page }) => {
  const { alpha } = view.shared.ids;
  await page.goto(`${view.url}/sessions/${alpha}`);
  await expect(page.getByRole('list', { name: 'Its stores' })).toContainText('no other store read here holds this session');
  await page.goto(`${view.url}${pathOf(alpha)}`);
  await expect(page.locator('.session-across')).toContainText('no other store read here holds this session');
});

test('an address no page has says so, and leads to the overview', async ({ page }) => {
  await page.goto(`${view.url}/source/nope/conversation/x`);
  await expect(page.locator('main.view .notice')).toHaveText('Nothing at /source/nope/conversation/x: no page of this dashboard has that address. The overview lists every session of every store read here.');
  await page.locator('main.view .notice').getByRole('link', { name: 'The overview' }).click();
  await expect(page).toHaveURL(`${view.url}/`);
});

test('a project has its own URL listing its sessions', async ({ page }) => {
  await page.goto(view.url);
  await page.getByRole('link', { name: 'alpha /home/dev/projects/alpha' }).click();
  await expect(page).toHaveURL(/\/project\?cwd=%2Fhome%2Fdev%2Fprojects%2Falpha$/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Project /home/dev/projects/alpha' })).toBeVisible();
  await expect(page.locator('.session-table tbody tr')).toHaveCount(3);
});

test('a chain child sits under its parent in the sidebar', async ({ page }) => {
  const { alpha, chainChild } = view.shared.ids;
  await page.goto(view.url);
  const parentItem = page.locator('li', { has: page.locator(`> a[data-session-id="${alpha}"]`) });
  await expect(parentItem.locator(`ul a[data-session-id="${chainChild}"]`)).toBeVisible();
  await page.locator(`a[data-session-id="${chainChild}"]`).click();
  await expect(page.locator('.session-chain')).toContainText('Part 1 of a chain under');
  await expect(page.locator('.chain-brief')).toContainText('Fix the flaky cart test');
});

test('keys: j/k move between entries, Home and End select the first and the newest, r shows raw JSON, ] moves to the next session, / opens search, ? lists keys', async ({ page }) => {
  const { alpha } = view.shared.ids;
  await page.goto(`${view.url}/session/${alpha}`);
  await expect(page.locator('.conversation-row')).toHaveCount(4);
  await page.keyboard.press('Home');
  await expect(page.locator('.conversation-row.selected')).toHaveAttribute('data-index', '0');
  // The selection goes with End and Home: a key that acts on it acts on what is in view.
  await page.keyboard.press('End');
  await expect(page.locator('.conversation-row.selected')).toHaveAttribute('data-index', '3');
  await page.keyboard.press('Home');
  await expect(page.locator('.conversation-row.selected')).toHaveAttribute('data-index', '0');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await expect(page.locator('.conversation-row.selected')).toHaveAttribute('data-index', '1');
  await expect(page).toHaveURL(`${view.url}${pathOf(alpha, view.shared.files.alphaSent)}`);
  await page.keyboard.press('r');
  await expect(page.locator('.conversation-row.selected .raw-json')).toContainText('"isQueued":true');
  await page.keyboard.press('r');
  await expect(page.locator('.conversation-row.selected .raw-json')).toHaveCount(0);

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('next entry');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  const before = page.url();
  await page.keyboard.press(']');
  await expect(page).not.toHaveURL(before);
  await expect(page).toHaveURL(/\/source\/record-[0-9a-f]{8}\/conversation\/[^/]+$/);

  await page.keyboard.press('/');
  await expect(page).toHaveURL(`${view.url}/search`);
  await expect(page.getByRole('searchbox', { name: 'Text to find' })).toBeFocused();
});

test('the time zone switch holds for the whole UI and is remembered', async ({ page }) => {
  await page.goto(`${view.url}/session/${view.shared.ids.alpha}`);
  const zone = page.getByRole('group', { name: 'Time zone for all times' });
  await expect(zone.getByRole('button', { name: 'UTC' })).toHaveAttribute('aria-pressed', 'true');
  await zone.getByRole('button', { name: 'Local' }).click();
  await page.reload();
  await expect(zone.getByRole('button', { name: 'Local' })).toHaveAttribute('aria-pressed', 'true');
});
