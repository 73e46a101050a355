import { SESSION_A, SESSION_B } from '../shared/session/testing/oneSessionStores.ts';
import { sacTime } from '../server/demo/sacWrite.ts';
import { writeOneSessionStores } from '../server/test/oneSession.ts';
import type { ThreeStores } from '../server/test/threeStores.ts';
import { apiFetch, conversationPath, sourceIdOf, startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { expect, test } from './support/test.ts';

// One Claude Code session across the stores, in the browser: the record, a spex home and a
// set-agent-comm store, each written by its own writer process, hold the same two sessions whose
// ids share their first 8 characters.

let stores: ThreeStores;
let dashboard: RunningDashboard;

test.beforeAll(async () => {
  stores = await writeOneSessionStores('rec-e2e-one-session');
  dashboard = await startDashboard([stores.record, stores.spex, stores.sac]);
  for (let i = 0; i < 200; i++) {
    const list = (await (await apiFetch(`${dashboard.url}/api/joined-sessions`)).json()) as { projects: { sessions: { conversations: unknown[] }[] }[] };
    if (list.projects.flatMap((project) => project.sessions).filter((session) => session.conversations.length === 3).length === 2) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the three stores were not read');
});

test.afterAll(async () => {
  await dashboard?.stop();
  await stores?.remove();
});

test('two sessions whose ids share a prefix are two rows, each with a badge and counts for each of its stores', async ({ page }) => {
  await page.goto(dashboard.url);
  const rows = page.locator('table.joined-sessions tbody tr');
  await expect(rows).toHaveCount(2);
  const a = page.locator(`tr[data-session="${SESSION_A}"]`);
  await expect(a.locator('.store-badge')).toHaveText(['the record: 1 sent, 1 received', 'spex: 1 sent, 2 received', 'set-agent-comm checkout#9c0ffee0: 1 sent, 1 received']);
  await expect(page.locator(`tr[data-session="${SESSION_B}"] .store-badge`).last()).toContainText('checkout#9c0ffee0-111');
});

test('every row of the sidebar says which store it is from with the same badge, the record’s as the others’', async ({ page }) => {
  await page.goto(dashboard.url);
  const badgeOf = (label: string) => page.getByRole('link', { name: label, exact: true }).locator('.badge-source');
  await expect(badgeOf(`Session ${SESSION_A}`)).toHaveText('record');
  await expect(badgeOf(`Session ${SESSION_A}`)).toBeVisible();
  await expect(badgeOf(`spex session ${SESSION_A}`)).toHaveText('spex');
  await expect(badgeOf('set-agent-comm seat checkout#9c0ffee0')).toHaveText('sac');
  await expect(badgeOf('set-agent-comm seat checkout#9c0ffee0')).toHaveAttribute('title', `a set-agent-comm seat (${sourceIdOf('sac', stores.sac)})`);
});

test('the sidebar lists a session held by three stores as one row, its conversations under a head that opens its page across the stores; a session sharing its prefix is another row', async ({ page }) => {
  await page.goto(dashboard.url);
  const sidebar = page.getByRole('navigation', { name: 'Projects and sessions' });
  const rowOf = (session: string) => sidebar.locator('.sidebar-row', { has: page.getByRole('link', { name: `Session ${session} across 3 stores`, exact: true }) });
  const a = rowOf(SESSION_A);
  await expect(a).toHaveCount(1);
  // In store order, as the session's page lists them; none of the other session's.
  await expect(a.locator('a.session-row')).toHaveCount(3);
  expect(await a.locator('a.session-row').evaluateAll((links) => links.map((link) => link.getAttribute('aria-label')))).toEqual([`Session ${SESSION_A}`, `spex session ${SESSION_A}`, 'set-agent-comm seat checkout#9c0ffee0']);
  await expect(a.locator('.session-head')).toContainText('9c0ffee0…000a');
  await expect(a.locator('.session-head')).toContainText('one session in 3 stores');
  const b = rowOf(SESSION_B);
  await expect(b).toHaveCount(1);
  expect(await b.locator('a.session-row').evaluateAll((links) => links.map((link) => link.getAttribute('aria-label')))).toEqual([`Session ${SESSION_B}`, `spex session ${SESSION_B}`, 'set-agent-comm seat checkout#9c0ffee0-111']);

  await a.locator('.session-head').click();
  await expect(page).toHaveURL(`${dashboard.url}/sessions/${SESSION_A}`);
  await expect(a.locator('.session-head')).toHaveAttribute('aria-current', 'page');
  await expect(sidebar.locator('[aria-current="page"]')).toHaveCount(1);
  // A conversation opened from the row is the row's one selected.
  await a.getByRole('link', { name: `spex session ${SESSION_A}`, exact: true }).click();
  await expect(a.getByRole('link', { name: `spex session ${SESSION_A}`, exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(sidebar.locator('[aria-current="page"]')).toHaveCount(1);
});

test('two sessions whose ids share their first 8 characters are written apart wherever an id is cut short: the sidebar, a search hit, a peer resolved', async ({ page }) => {
  const [a, b] = [`9c0ffee0…000a`, `9c0ffee0…000b`];
  await page.goto(dashboard.url);
  const sidebar = page.getByRole('navigation', { name: 'Projects and sessions' });
  await expect(sidebar.locator('code.sid', { hasText: a }).first()).toBeVisible();
  await expect(sidebar.locator('code.sid', { hasText: b }).first()).toBeVisible();
  await expect(sidebar.locator('code.sid', { hasText: /^9c0ffee0$/ })).toHaveCount(0);

  await page.goto(`${dashboard.url}/search?q=payments%2Fclient.ts`);
  const hits = page.getByRole('region', { name: 'Search results' });
  await expect(hits.locator('code', { hasText: a }).first()).toBeVisible();
  await expect(hits.locator('code', { hasText: b }).first()).toBeVisible();
  await expect(hits.locator('code', { hasText: /^9c0ffee0$/ })).toHaveCount(0);

  // A's send, whose writer resolved its peer to B: the link says B, not a prefix both share.
  await page.goto(`${dashboard.url}${conversationPath(sourceIdOf('record', stores.record), SESSION_A)}`);
  await expect(page.locator('.peer-session').first()).toHaveText(b);
});

test('a full id no store names says so, with nothing to download', async ({ page }) => {
  await page.goto(`${dashboard.url}/sessions/ffffffff-0000-4000-8000-000000000000`);
  await expect(page.getByText('No store read names this full session id.')).toBeVisible();
  await expect(page.getByRole('link', { name: /NDJSON/ })).toHaveCount(0);
});

test("a session's page shows every store's items labelled with their store, none of the other session's, and a new sac entry without a reload", async ({ page }) => {
  await page.goto(dashboard.url);
  await page.getByRole('link', { name: `Across the stores: ${SESSION_A}` }).click();
  await expect(page).toHaveURL(`${dashboard.url}/sessions/${SESSION_A}`);
  const rows = page.locator('.joined-row');
  await expect(rows.first()).toBeVisible();
  expect(new Set(await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-store'))))).toEqual(new Set(['record', 'spex', 'sac']));
  // The record's received entry still says it pairs with no sent one; spex's sent line says whose log it is in.
  await expect(page.getByText('Which sent entry this corresponds to: not shown by the record.')).toBeVisible();
  await expect(page.getByText('Two comments on the retry loop, see the review.')).toHaveCount(0);

  await stores.sacWriter.send({ op: 'send', room: 'checkout', seat: 'checkout#9c0ffee0', ts: sacTime(), type: 'FACT', text: 'A live fact for the session page.' });
  const live = page.locator('.joined-row[data-store="sac"]', { hasText: 'A live fact for the session page.' });
  await expect(live).toBeVisible();
  await expect(live.locator('.store-badge')).toHaveText('set-agent-comm checkout#9c0ffee0');
  // Each store's item is drawn as its own page draws it, with no page of that store opened first.
  await page.goto(`${dashboard.url}/sessions/${SESSION_A}`);
  await expect(live.locator('article.sac-entry')).toHaveCSS('border-top-style', 'solid');
  await expect(live.locator('article.sac-entry')).toHaveCSS('border-top-width', '1px');
  await expect(page.locator('.joined-row[data-store="spex"] .spex-place').first()).toHaveCSS('flex-wrap', 'wrap');
  // A text is in the page's ink, as on its store's page: the side's colour is its column's mark, not the words'.
  const ink = await page.locator('main').evaluate((main) => getComputedStyle(main).color);
  await expect(live.locator('.verbatim').first()).toHaveCSS('color', ink);
});

test("a session page's filters are in its address, one store, one side, and Back undoes them one by one", async ({ page }) => {
  await page.goto(`${dashboard.url}/sessions/${SESSION_A}`);
  await expect(page.locator('.joined-row').first()).toBeVisible();
  const storeFilter = page.getByRole('group', { name: 'Store', exact: true });
  await expect(storeFilter).toContainText('none chosen: every store is shown');
  await storeFilter.getByRole('checkbox').first().check();
  await expect(page).toHaveURL(/\?store=record-[0-9a-f]{8}$/);
  await expect(storeFilter).not.toContainText('none chosen');
  await expect(page.locator('.joined-row:not([data-store="record"])')).toHaveCount(0);
  await page.getByLabel('Side').selectOption('received');
  await expect(page).toHaveURL(/side=received/);
  await expect(page.locator('.joined-row:not([data-side="received"])')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('.joined-row[data-side="received"]')).toHaveCount(1);
  // How many the filters let through is said, of all the page fetched, as a conversation's page says it.
  const fetched = ((await (await apiFetch(`${dashboard.url}/api/joined-sessions/${SESSION_A}`)).json()) as { items: unknown[] }).items.length;
  await expect(page.locator('.filter-words')).toHaveText(`Showing 1 of the ${fetched} items fetched: those the filters let through.`);
  // A peer typed is one step more, whatever keys it took; Back undoes the steps one by one.
  await page.getByLabel('Peer').pressSequentially('a person');
  await expect(page).toHaveURL(/peer=a\+person$/);
  await page.goBack();
  await expect(page).toHaveURL(/\?store=record-[0-9a-f]{8}&side=received$/);
  await page.goBack();
  await expect(page).toHaveURL(/\?store=record-[0-9a-f]{8}$/);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/sessions/${SESSION_A}$`));
});

test("a session page's peer filter finds what a person wrote by the words the item says, “a person”, a peer by its name, and a spex session by its title", async ({ page }) => {
  await page.goto(`${dashboard.url}/sessions/${SESSION_A}?peer=a%20person`);
  const rows = page.locator('.joined-row');
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-store', 'spex');
  await expect(rows).toContainText('a person');
  await page.goto(`${dashboard.url}/sessions/${SESSION_A}?peer=${SESSION_B}`);
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasText: 'a person' })).toHaveCount(0);
  // A spex session is also found by its title, as its session.json gives it and its rows show it.
  await page.goto(`${dashboard.url}/sessions/${SESSION_A}?peer=PAYMENTS-review`);
  await expect(rows.first()).toBeVisible();
  await expect(rows.first()).toContainText('payments-review');
  expect(new Set(await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-store'))))).toEqual(new Set(['spex']));
});

test("a store's page given a filter it does not take says so, naming it, and says nothing of the filters it takes", async ({ page }) => {
  const record = sourceIdOf('record', stores.record);
  const spex = sourceIdOf('spex', stores.spex);
  const sac = sourceIdOf('sac', stores.sac);
  const notice = page.locator('.params-not-applied');
  await page.goto(`${dashboard.url}${conversationPath(spex, SESSION_A)}?side=received`);
  await expect(notice).toContainText('Not applied on this page: side=received. It shows every item');
  await page.goto(`${dashboard.url}${conversationPath(sac, 'checkout#9c0ffee0')}?side=sent&others=1`);
  await expect(notice).toHaveText("Not applied on this page: side=sent (this page's address takes only others).");
  await page.goto(`${dashboard.url}${conversationPath(record, SESSION_A)}?others=1`);
  await expect(notice).toHaveText("Not applied on this page: others=1 (this page's address takes only side, peer, peerUnknown, refused).");
  await page.goto(`${dashboard.url}${conversationPath(record, SESSION_A)}?side=both`);
  await expect(notice).toHaveText('Not applied on this page: side=both (not a value it takes).');
  await page.goto(`${dashboard.url}${conversationPath(record, SESSION_A)}?side=received`);
  await expect(page.locator('.filter-words')).toBeVisible();
  await expect(notice).toHaveCount(0);
});

test("each store's own page links to the session's page and to its other stores' views, as the server joined them, and to none of the other session's", async ({ page }) => {
  const record = sourceIdOf('record', stores.record);
  const spex = sourceIdOf('spex', stores.spex);
  const sac = sourceIdOf('sac', stores.sac);
  const pages = [
    { path: conversationPath(record, SESSION_A), others: [['spex', conversationPath(spex, SESSION_A)], ['set-agent-comm, seat checkout#9c0ffee0', conversationPath(sac, 'checkout#9c0ffee0')]] },
    { path: conversationPath(spex, SESSION_A), others: [['the record', conversationPath(record, SESSION_A)], ['set-agent-comm, seat checkout#9c0ffee0', conversationPath(sac, 'checkout#9c0ffee0')]] },
    { path: conversationPath(sac, 'checkout#9c0ffee0'), others: [['the record', conversationPath(record, SESSION_A)], ['spex', conversationPath(spex, SESSION_A)]] },
  ];
  for (const one of pages) {
    await page.goto(`${dashboard.url}${one.path}`);
    const header = page.locator('.session-header');
    await expect(header.getByRole('link', { name: `Session ${SESSION_A} across the stores` })).toHaveAttribute('href', `/sessions/${SESSION_A}`);
    for (const [where, href] of one.others) await expect(header.getByRole('link', { name: `Session ${SESSION_A} in ${where}` })).toHaveAttribute('href', href!);
    await expect(header.locator('.session-across a')).toHaveCount(one.others.length + 1);
    await expect(header.locator(`a[href*="${SESSION_B}"], a[href$="9c0ffee0-111"]`)).toHaveCount(0);
  }
  await page.locator('.session-header').getByRole('link', { name: `Session ${SESSION_A} across the stores` }).click();
  await expect(page).toHaveURL(`${dashboard.url}/sessions/${SESSION_A}`);
  // There, each store's view is named once: its store, what it calls the session, and a seat's own name.
  await expect(page.getByRole('list', { name: 'Its stores' }).getByRole('link')).toHaveText(['the record session', 'spex session', 'set-agent-comm seat checkout#9c0ffee0']);
  // Beside each, what its own page leads with: the record's refusals, spex's status now, sac's cursor.
  await expect(page.getByRole('list', { name: 'Its stores' }).locator('.store-lead')).toHaveText(['0 not queued · 0 rejected', 'now: working', 'gone: backlog of 1 not counted as unread']);
});

test("a live row and a search hit link to the session's page by the full id their store states", async ({ page }) => {
  await page.goto(`${dashboard.url}/live`);
  await expect(page.getByRole('status', { name: 'Connection' })).toContainText('live');
  await stores.sacWriter.send({ op: 'send', room: 'checkout', seat: 'checkout#9c0ffee0-111', ts: sacTime(), type: 'FACT', text: 'A live fact of the second session.' });
  const row = page.getByRole('feed', { name: 'Live items' }).getByRole('article').filter({ hasText: 'A live fact of the second session.' });
  await expect(row.getByRole('link', { name: `Session ${SESSION_B} across the stores` })).toHaveAttribute('href', `/sessions/${SESSION_B}`);

  await page.goto(`${dashboard.url}/search?q=payments%2Fclient.ts`);
  const hits = page.getByRole('region', { name: 'Search results' }).getByRole('listitem');
  await expect(hits).toHaveCount(4);
  // The record's send of A and receive of B; spex's line in B's log, and the same line from A's side.
  expect((await hits.getByRole('link', { name: /across the stores$/ }).evaluateAll((links) => links.map((link) => link.getAttribute('href')))).sort()).toEqual(
    [`/sessions/${SESSION_A}`, `/sessions/${SESSION_A}`, `/sessions/${SESSION_B}`, `/sessions/${SESSION_B}`],
  );
});

test('every search hit says which store it is from with the same badge, the record’s as the others’', async ({ page }) => {
  await page.goto(`${dashboard.url}/search?q=${encodeURIComponent('retry loop|refund endpoint')}&regex=1`);
  const hits = page.getByRole('region', { name: 'Search results' }).getByRole('listitem');
  await expect(hits.first()).toBeVisible();
  const badges = await hits.evaluateAll((items) => items.map((item) => item.querySelector('.search-hit-head .badge-source')?.textContent ?? '(none)'));
  expect(new Set(badges)).toEqual(new Set(['record', 'spex', 'sac']));
  await expect(hits.locator('.badge-source', { hasText: 'record' }).first()).toHaveAttribute('title', `the record (${sourceIdOf('record', stores.record)})`);
});

test('a search is narrowed to one store by the form, kept in the address, and every hit is of that store', async ({ page }) => {
  await page.goto(`${dashboard.url}/search?q=${encodeURIComponent('retry loop|refund endpoint')}&regex=1`);
  const hits = page.getByRole('region', { name: 'Search results' }).getByRole('listitem');
  await expect(hits.first()).toBeVisible();
  const spex = sourceIdOf('spex', stores.spex);
  await page.getByRole('combobox', { name: 'store' }).selectOption(spex);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]source=${spex}(&|$)`));
  await expect(hits.first()).toBeVisible();
  const badges = await hits.evaluateAll((items) => items.map((item) => item.querySelector('.badge-source')?.textContent ?? '(none)'));
  expect(new Set(badges)).toEqual(new Set(['spex']));
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'store' })).toHaveValue(spex);
});

test('a search given a filter it does not read says so, and so does one whose kind’s filter and store cannot both match', async ({ page }) => {
  const notes = page.getByRole('status').filter({ hasText: /Not applied on this page|own filter/ });
  // A name it does not read, and a value it does not take.
  await page.goto(`${dashboard.url}/search?q=retry&spex.fromPerson=1&side=both`);
  await expect(notes).toHaveCount(1);
  await expect(notes).toContainText("Not applied on this page: side=both (not a value it takes); spex.fromPerson=1 (this page's address takes only q, regex");
  await expect(notes).toContainText('spex.person');
  // An address with no text and only a filter it does not read is told so, not only asked for a text.
  await page.goto(`${dashboard.url}/search?outcome=rejected`);
  await expect(notes).toContainText("Not applied on this page: outcome=rejected (this page's address takes only q, regex");
  await expect(notes).toContainText('record.outcome');
  await expect(page.getByText('Give a text or a filter.')).toBeVisible();
  await page.goto(`${dashboard.url}/search?q=retry&spex.fromPerson=1&side=both`);
  // What it does not apply, it does not ask: the search runs on the rest, with no refusal.
  await expect(page.getByRole('region', { name: 'Search results' })).toBeVisible();
  await expect(page.getByText(/^Search failed/)).toHaveCount(0);
  // A store not read here is said so, in the server's words, naming those that are.
  await page.goto(`${dashboard.url}/search?q=retry&source=nope`);
  await expect(page.getByText(/^Not searched: no such source here: this dashboard reads /)).toBeVisible();
  // spex's own filter, with the record chosen as the store: the server says it kept the record out, and why.
  const record = sourceIdOf('record', stores.record);
  await page.goto(`${dashboard.url}/search?q=retry&source=${record}&spex.person=1`);
  // Named as the address names it, and as the form does.
  await expect(page.locator('.search-kept-out')).toHaveText(`Not searched in the record (${record}): spex.person is spex’s own filter: it selects only spex’s entries (the form’s “from a person only”).`);
  await expect(notes).toHaveCount(0);
  // What it reads and takes, it says nothing of.
  await page.goto(`${dashboard.url}/search?q=retry&source=${record}&side=sent`);
  await expect(page.getByRole('region', { name: 'Search results' })).toBeVisible();
  await expect(notes).toHaveCount(0);
});

test('a search by side or peer says the set-agent-comm store was not searched, and why, where its entries would be expected', async ({ page }) => {
  const sac = sourceIdOf('sac', stores.sac);
  const keptOut = page.locator('.search-kept-out');
  await page.goto(`${dashboard.url}/search?q=retry&side=received`);
  await expect(page.getByRole('region', { name: 'Search results' })).toBeVisible();
  await expect(keptOut).toHaveText(`Not searched in set-agent-comm (${sac}): a search reads each entry once, as its room's file holds it, not from one seat's side: a seat's page shows what it wrote and what was addressed to it, but a search by side or peer reads none of its entries (with no side and no peer, it reads them all).`);
  await page.goto(`${dashboard.url}/search?q=retry&source=${sac}&peer=web-app`);
  await expect(keptOut).toHaveCount(1);
  // Without either, it is searched and says nothing.
  await page.goto(`${dashboard.url}/search?q=retry&source=${sac}`);
  await expect(page.getByRole('region', { name: 'Search results' })).toBeVisible();
  await expect(keptOut).toHaveCount(0);
});

test('a search cut at its limit says more matched and shows up to 1,000 on asking', async ({ page }) => {
  await page.goto(`${dashboard.url}/search?q=${encodeURIComponent('retry loop|refund endpoint')}&regex=1&limit=2`);
  const hits = page.getByRole('region', { name: 'Search results' }).getByRole('listitem');
  await expect(hits).toHaveCount(2);
  await expect(page.getByRole('status').filter({ hasText: '2 entries shown, the newest; more matched' })).toBeVisible();
  await page.getByRole('button', { name: 'Show up to 1,000' }).click();
  await expect(page).toHaveURL(/[?&]limit=1000(&|$)/);
  await expect(hits.nth(2)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show up to 1,000' })).toHaveCount(0);
});

test('a search hit in the middle of a long text marks, beside its snippet, that the text goes on before and after it, and a copy of the snippet holds only the text', async ({ page }) => {
  const text = `${'Before the match, '.repeat(12)}a needle-in-the-middle ${'after the match, '.repeat(12)}end.`;
  await stores.sacWriter.send({ op: 'send', room: 'checkout', seat: 'checkout#9c0ffee0', ts: sacTime(), type: 'FACT', text });
  await page.goto(`${dashboard.url}/search?q=needle-in-the-middle`);
  const snippet = page.getByRole('region', { name: 'Search results' }).getByRole('listitem').locator('.snippet');
  await expect(snippet).toHaveCount(1);
  const marks = snippet.getByRole('img');
  await expect(marks).toHaveCount(2);
  await expect(marks.first()).toHaveAccessibleName('the text goes on before this');
  await expect(marks.last()).toHaveAccessibleName('the text goes on after this');
  const copied = await snippet.evaluate((element) => element.textContent ?? '');
  expect(text.includes(copied), 'the snippet is the text, cut, with nothing added').toBe(true);
  expect(copied.length).toBeLessThan(text.length);
});

test("a session's page opens at its newest item with only the rows on screen drawn, follows a new one, keeps a reader's place and selection as rows come above, and counts as new only what comes after", async ({ page }) => {
  const seat = 'checkout#9c0ffee0-111';
  for (let i = 1; i <= 60; i++) await stores.sacWriter.send({ op: 'send', room: 'checkout', seat, ts: sacTime(), type: 'FACT', text: `Burst fact ${i} of the second session.` });
  await page.goto(`${dashboard.url}/sessions/${SESSION_B}`);
  const row = (text: string) => page.locator('.joined-row', { hasText: text });
  await expect(row('Burst fact 60 of')).toBeInViewport();
  await expect(row('Burst fact 1 of')).toHaveCount(0);

  await stores.sacWriter.send({ op: 'send', room: 'checkout', seat, ts: sacTime(), type: 'FACT', text: 'Burst fact 61 of the second session.' });
  await expect(row('Burst fact 61 of')).toBeInViewport();

  // Away from the end, the row at the top of the view stays where it is when a row comes before
  // it: an entry dated earlier than every other, as a store may write one late.
  await page.keyboard.press('Home');
  const feed = page.getByRole('feed', { name: 'Sent and received, every store, in time order' });
  await feed.evaluate((el) => el.scrollBy(0, 600));
  const topRow = async () =>
    feed.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const row = [...el.querySelectorAll('.joined-row')].find((one) => one.getBoundingClientRect().bottom > box.top + 1)!;
      return { text: row.textContent, top: Math.round(row.getBoundingClientRect().top) };
    });
  const before = await topRow();
  const height = () => feed.evaluate((el) => (el.firstElementChild as HTMLElement).style.height);
  const heightBefore = await height();
  await stores.sacWriter.send({ op: 'send', room: 'checkout', seat, ts: sacTime(new Date(Date.UTC(2020, 0, 1))), type: 'FACT', text: 'A fact dated before all the others.' });
  await expect.poll(height).not.toBe(heightBefore);
  expect(await topRow()).toEqual(before);
  // A row before the last one the reader had is not news; one after it is.
  await expect(page.getByRole('button', { name: /new ↓$/ })).toHaveCount(0);
  await stores.sacWriter.send({ op: 'send', room: 'checkout', seat, ts: sacTime(), type: 'FACT', text: 'Burst fact 63 of the second session.' });
  await expect(page.getByRole('button', { name: '1 new ↓' })).toBeVisible();
  expect(await topRow()).toEqual(before);
  await page.keyboard.press('Home');
  await expect(row('A fact dated before all the others.')).toBeInViewport();
  // The selection is its item's, not its place's: a row that comes before it leaves it on its item.
  await row('A fact dated before all the others.').click();
  const selected = page.locator('.conversation-row.selected');
  await expect(selected).toContainText('A fact dated before all the others.');
  const heightThen = await height();
  await stores.sacWriter.send({ op: 'send', room: 'checkout', seat, ts: sacTime(new Date(Date.UTC(2019, 0, 1))), type: 'FACT', text: 'A fact dated earlier still.' });
  await expect.poll(height).not.toBe(heightThen);
  await expect(selected).toContainText('A fact dated before all the others.');
});

test("a session's page asks for each store's newest 300 items, says which stores hold more, above the list and in place, and shows up to 1,000 of each on asking, kept in the address", async ({ page }) => {
  const seat = 'checkout#9c0ffee0-111';
  for (let i = 1; i <= 320; i++) await stores.sacWriter.send({ op: 'send', room: 'checkout', seat, ts: sacTime(), type: 'FACT', text: `More fact ${i} of the second session.` });
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === `/api/joined-sessions/${SESSION_B}`) asked.push(url.search);
  });
  await page.goto(`${dashboard.url}/sessions/${SESSION_B}`);
  await expect(page.locator('.joined-row', { hasText: 'More fact 320 of' })).toBeInViewport();
  expect(asked[0]).toBe('?limit=300');
  const cut = page.getByText(/^set-agent-comm: the newest 300 items of [0-9,]+ are shown; its own view has them all\.$/);
  await expect(cut).toBeVisible();
  // In place too: just above the oldest of the seat's items shown, a row says that the time before
  // it is not empty of the seat's items, only not shown; the other stores' older items stay above it.
  const marker = page.getByRole('note').filter({ hasText: new RegExp(`^set-agent-comm seat ${seat}: its [0-9,]+ older items? (is|are) not shown here, before this point; the 300 newest items are\\.`) });
  await page.keyboard.press('Home');
  const markerRow = page.locator('.conversation-row').filter({ has: marker });
  // One row a key, each step waited for: keys pressed faster than the page selects went past it.
  const selectedRow = page.locator('.conversation-row.selected');
  await expect(selectedRow).toHaveAttribute('data-index', '0');
  for (let i = 1; i < 60 && (await selectedRow.filter({ has: marker }).count()) === 0; i++) {
    await page.keyboard.press('j');
    await expect(selectedRow).toHaveAttribute('data-index', String(i));
  }
  await expect(marker).toBeVisible();
  // Selected, it is no item: the address keeps the item before it.
  await expect(markerRow).toHaveClass(/selected/);
  await expect(page).not.toHaveURL(/cut/);
  const at = Number(await markerRow.getAttribute('data-index'));
  expect(at).toBeGreaterThan(0);
  await expect(page.locator(`.conversation-row[data-index="${at + 1}"] .joined-row`)).toHaveAttribute('data-store', 'sac');
  await expect(markerRow.getByRole('button', { name: 'Show up to 1,000 of each' })).toBeVisible();
  // Narrowed to the record, the page shows nothing of the seat: nor its cut, above or in place.
  await page.goto(`${dashboard.url}/sessions/${SESSION_B}?store=${sourceIdOf('record', stores.record)}`);
  await expect(page.locator('.joined-row').first()).toBeVisible();
  await expect(cut).toHaveCount(0);
  await expect(marker).toHaveCount(0);
  await page.goBack();
  await expect(cut).toBeVisible();
  await page.locator('.session-header').getByRole('button', { name: 'Show up to 1,000 of each' }).click();
  await expect(page).toHaveURL(`${dashboard.url}/sessions/${SESSION_B}?limit=1000`);
  await expect(marker).toHaveCount(0);
  await expect(cut).toHaveCount(0);
  expect(asked.at(-1)).toBe('?limit=1000');
  // Once every item is shown, the page says nothing more, and offers nothing more.
  await expect(page.getByRole('button', { name: /^Show up to/ })).toHaveCount(0);
  // A limit it does not take, a store that holds none of the session, a name it does not read: each is said, not applied.
  await page.goto(`${dashboard.url}/sessions/${SESSION_B}?limit=7&store=nope&foo=1`);
  await expect(page.getByRole('status').filter({ hasText: 'Not applied on this page' })).toContainText("Not applied on this page: limit=7, store=nope (not values it takes); foo=1 (this page's address takes only");
  await expect(page.getByRole('group', { name: 'Store', exact: true })).toContainText('none chosen: every store is shown');
  await expect(page.locator('.joined-row').first()).toBeVisible();
});

test("a session's page puts the item selected with the keys in its address, its address opens the page at that item selected, Enter opens it in its store's page, and an item it does not show is said", async ({ page }) => {
  // More rows than one screen holds: opened at an early item, the page does not follow the newest.
  const seat = 'checkout#9c0ffee0';
  for (let i = 1; i <= 40; i++) await stores.sacWriter.send({ op: 'send', room: 'checkout', seat, ts: sacTime(), type: 'FACT', text: `Item fact ${i} of the first session.` });
  await page.goto(`${dashboard.url}/sessions/${SESSION_A}`);
  const newest = page.locator('.joined-row', { hasText: 'Item fact 40 of' });
  await expect(newest).toBeInViewport();
  const selected = page.locator('.conversation-row.selected');
  await page.keyboard.press('Home');
  await expect(page).toHaveURL(new RegExp(`/sessions/${SESSION_A}/item/[^/?]+$`));
  const first = page.url();
  await page.keyboard.press('j');
  await expect(page).not.toHaveURL(first);
  await expect(page).toHaveURL(new RegExp(`/sessions/${SESSION_A}/item/[^/?]+$`));
  const address = page.url();
  const text = (await selected.textContent())!;
  const side = (await selected.locator('.joined-row').getAttribute('data-side')) === 'sent' ? 'sent' : 'received';

  // Opened afresh at its address: that item, selected and in view; the newest is not.
  await page.goto(address);
  await expect(selected).toHaveText(text);
  await expect(selected).toBeInViewport();
  await expect(newest).not.toBeInViewport();
  // The same item, its key written with its slashes as they are.
  await page.goto(address.replace(/%2F/g, '/'));
  await expect(selected).toHaveText(text);
  // Enter opens the item selected in its store's own page, at it, selected there.
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/source\/[a-z]+-[0-9a-f]{8}\/conversation\/[^/]+\/item\/[^/?]+$/);
  await expect(page.locator('.conversation-row.selected')).toBeInViewport();

  await page.goto(`${dashboard.url}/sessions/${SESSION_A}/item/nope`);
  await expect(page.getByRole('status').filter({ hasText: 'Item nope is not among the items shown here' })).toContainText('each store’s newest 300');
  await expect(selected).toHaveCount(0);
  await page.goto(`${address}?side=${side === 'sent' ? 'received' : 'sent'}`);
  await expect(page.getByRole('status').filter({ hasText: 'is this session’s, but the filters leave it out' })).toBeVisible();
});

test("on a session's page across the stores, r shows the selected record entry's raw JSON and hides it again, as the record session's page does", async ({ page }) => {
  await page.goto(`${dashboard.url}/sessions/${SESSION_A}?store=${sourceIdOf('record', stores.record)}`);
  await expect(page.locator('.joined-row').first()).toBeVisible();
  const selected = page.locator('.conversation-row.selected');
  await page.keyboard.press('Home');
  await expect(selected.locator('.joined-row[data-store="record"]')).toHaveCount(1);
  await expect(page.locator('.raw-panel')).toHaveCount(0);
  await page.keyboard.press('r');
  await expect(selected.locator('.raw-panel')).toBeVisible();
  await expect(selected.locator('.raw-panel')).toContainText('"sessionId"');
  // Kept while another row is selected, as a record session's page keeps it; r on it again hides it.
  await page.keyboard.press('j');
  await expect(page.locator('.raw-panel')).toHaveCount(1);
  await page.keyboard.press('k');
  await page.keyboard.press('r');
  await expect(page.locator('.raw-panel')).toHaveCount(0);
});

test("an address with a session's id cut short names no session, and offers each session whose full id begins with it", async ({ page }) => {
  await page.goto(`${dashboard.url}/sessions/9c0ffee0`);
  await expect(page.getByText('No store read names this full session id.')).toBeVisible();
  await expect(page.getByText('The 2 sessions whose id begins with it:')).toBeVisible();
  await page.getByRole('link', { name: SESSION_B, exact: true }).click();
  await expect(page).toHaveURL(`${dashboard.url}/sessions/${SESSION_B}`);
  await expect(page.locator('.joined-row').first()).toBeVisible();
});

test("a session's page leaves out the set-agent-comm entries addressed to other seats, as the seat's own page does, and its filter shows them, in the address", async ({ page }) => {
  // Written by the second session's seat in the room both seats are in: one for the first session's seat, one for a seat that is neither.
  await stores.sacWriter.send({ op: 'send', room: 'checkout', seat: 'checkout#9c0ffee0-111', ts: sacTime(), type: 'FACT', text: 'For the first session only.', to: ['checkout#9c0ffee0'] });
  await stores.sacWriter.send({ op: 'send', room: 'checkout', seat: 'checkout#9c0ffee0-111', ts: sacTime(), type: 'FACT', text: 'For a seat that is neither.', to: ['checkout#elsewhere'] });
  await page.goto(`${dashboard.url}/sessions/${SESSION_A}`);
  const row = (text: string) => page.locator('.joined-row', { hasText: text });
  await expect(row('For the first session only.')).toBeVisible();
  await expect(row('For a seat that is neither.')).toHaveCount(0);
  const others = page.getByRole('checkbox', { name: /addressed to other seats$/ });
  await expect(page.locator('label', { has: others })).toHaveText(/^\d+ entr(y|ies) addressed to other seats$/);
  // With no filter set, the page says what it leaves out, and how many.
  const leftOut = Number(/^(\d+)/.exec((await page.locator('label', { has: others }).textContent())!)![1]);
  await expect(page.locator('.filter-words')).toHaveText(new RegExp(`^Showing \\d+ of the \\d+ items fetched: ${leftOut} addressed to other seats left out unless asked for\\.$`));
  await others.check();
  await expect(page).toHaveURL(/[?&]others=1/);
  await expect(row('For a seat that is neither.')).toBeVisible();
  await expect(page.locator('.filter-words')).toHaveCount(0);
  await page.goBack();
  await expect(row('For a seat that is neither.')).toHaveCount(0);
});

test("a session's page keeps following its newest item as new ones taller than the view come and the oldest shown leave for them", async ({ page }) => {
  const seat = 'checkout#9c0ffee0';
  const tall = (label: string) => `${label}\n${Array.from({ length: 30 }, (_, line) => `line ${line + 1} of a long report`).join('\n')}`;
  // More than the page shows of the seat: each new entry puts the oldest shown out.
  for (let i = 1; i <= 305; i++) await stores.sacWriter.send({ op: 'send', room: 'checkout', seat, ts: sacTime(), type: 'FACT', text: tall(`Tall report ${i}.`) });
  await page.goto(`${dashboard.url}/sessions/${SESSION_A}`);
  const row = (text: string) => page.locator('.joined-row', { hasText: text });
  await expect(row('Tall report 305.')).toBeInViewport();
  const feed = page.getByRole('feed', { name: 'Sent and received, every store, in time order' });
  expect(await feed.evaluate((el) => el.clientHeight)).toBeLessThan(await row('Tall report 305.').evaluate((el) => el.getBoundingClientRect().height));
  for (let i = 306; i <= 310; i++) {
    await stores.sacWriter.send({ op: 'send', room: 'checkout', seat, ts: sacTime(), type: 'FACT', text: tall(`Tall report ${i}.`) });
    await expect(row(`Tall report ${i}.`)).toBeInViewport();
    await expect(page.getByRole('button', { name: /new ↓$/ })).toHaveCount(0);
  }
});

// Last: it leaves a damaged line in B's spex log.
test("a session's page says, beside its spex store, that what it sent may be more when another log holds a line not read, as it is written, and links to its spex page", async ({ page }) => {
  await page.goto(`${dashboard.url}/sessions/${SESSION_A}`);
  const views = page.getByRole('list', { name: 'Its stores' });
  await expect(views.locator('li')).toHaveCount(3);
  await expect(views.locator('.may-lack')).toHaveCount(0);
  await stores.spexWriter.send({ op: 'bytes', project: '-home-dev-projects-checkout', sessionId: SESSION_B, base64: Buffer.from('{"ts":"2026-11-30T10:00:06.000Z","kind":"sent","te\n').toString('base64') });
  const lacking = views.locator('li', { has: page.locator('.kind-spex') }).locator('.may-lack');
  await expect(lacking).toHaveText('What it sent may be more: 1 line of 1 other log not read');
  await expect(lacking).toHaveAttribute('title', /so it may be a message this session sent\.$/);
  await lacking.click();
  await expect(page).toHaveURL(new RegExp(`/source/spex-[0-9a-f]{8}/conversation/${SESSION_A}$`));
  await expect(page.locator('.spex-sent-unknown')).toContainText('What it sent may be more: 1 line of 1 other log not read');
});
