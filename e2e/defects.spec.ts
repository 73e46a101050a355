import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './support/test.ts';
import { entryFileName } from '../server/demo/entryFile.ts';
import { apiFetch, conversationPath, sourceIdOf, startDashboard, waitForItems } from './support/dashboard.ts';
import { useLiveRecord } from './support/liveRecord.ts';
import { SessionWriting, makeRecordDir, startWriter } from './support/record.ts';

// What a new reader met on a first afternoon with the dashboard, each now a claim about the page.

const live = useLiveRecord(test, 'defects');

const entry = (page: Page, file: string) => page.locator(`article[data-file="${file}"]`);
const sidebarRow = (page: Page, sessionId: string) => page.locator(`.session-row[data-session-id="${sessionId}"]`);

async function apiEvidence(sessionId: string, file: string): Promise<string | undefined> {
  const response = await apiFetch(`${live.url}/api/sessions/${encodeURIComponent(sessionId)}?limit=5000`);
  const body = (await response.json()) as { items: { type: string; file?: string; evidence: string }[] };
  return body.items.find((item) => item.type === 'file' && item.file === file)?.evidence;
}

test('a link to an entry of a session nobody writes to counts none of its entries as new; one written afterwards is "1 new"', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/defects/quiet');
  await session.start();
  const files: string[] = [];
  for (let i = 0; i < 12; i++) files.push(await session.sent({ as: 'api-service' }, `message ${i}`));
  await waitForItems(live.url, session.sessionId, 13);
  await page.goto(`${live.url}/session/${session.sessionId}/entry/${files[2]}`);
  await expect(entry(page, files[2]!)).toBeInViewport();
  await expect(page.getByRole('button', { name: /new ↓/ })).toHaveCount(0);
  await session.sent({ as: 'api-service' }, 'written while the reader looks at an older entry');
  await expect(page.getByRole('button', { name: '1 new ↓' })).toBeVisible();
});

test('a link to an entry that is not in the session says so plainly, in place of the entry', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/defects/missing-entry');
  const start = await session.start();
  await waitForItems(live.url, session.sessionId, 1);
  const absent = '2020-01-01T000000.000Z-99.json';
  await page.goto(`${live.url}/session/${session.sessionId}/entry/${absent}`);
  await expect(page.getByRole('status').filter({ hasText: absent })).toContainText(`Entry ${absent} is not in this session`);
  // The session is still shown below it.
  await expect(entry(page, start)).toBeVisible();
});

test("the raw view shows the file's own text: its line breaks and indentation as they are, with no marker added; a formatted view beside it says it is not the file", async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/defects/pretty');
  await session.start();
  await waitForItems(live.url, session.sessionId, 1);
  const at = new Date();
  const file = entryFileName(at, ++session.seq);
  const fields = { kind: 'message', sessionId: session.sessionId, at: at.toISOString(), cwd: session.cwd, side: 'sent', peer: { as: 'docs' }, text: 'Pretty-printed by its writer.', isQueued: true };
  const pretty = JSON.stringify(fields, null, 2);
  await session.raw(file, pretty);
  await waitForItems(live.url, session.sessionId, 2);
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await entry(page, file).getByRole('button', { name: 'Show the raw JSON of this entry' }).click();
  const raw = entry(page, file).getByRole('region', { name: `Raw JSON of ${file}` });
  await expect(raw).toBeVisible();
  expect(await raw.locator('.verbatim').evaluate((element) => element.textContent)).toBe(pretty);
  await expect(raw.locator('.mk')).toHaveCount(0);

  await entry(page, file).getByRole('button', { name: 'Formatted' }).click();
  const formatted = entry(page, file).getByRole('region', { name: `JSON of ${file}, formatted by the dashboard` });
  await expect(formatted).toContainText('Formatted by the dashboard, not the file as written');
  await expect(formatted).toContainText('"text": "Pretty-printed by its writer."');
});

test('a chain child in another project than its parent is listed under its parent, marked with its own project, and in its own project', async ({ page }) => {
  const parent = new SessionWriting(live.writer, '/e2e/defects/chain-parent');
  const child = new SessionWriting(live.writer, '/e2e/defects/chain-child');
  await parent.start();
  await child.start();
  await child.chain(parent.sessionId, 1, 'Split the migration');
  await waitForItems(live.url, child.sessionId, 2);
  await page.goto(live.url);
  const parentItem = page.locator('li', { has: page.locator(`> a[data-session-id="${parent.sessionId}"]`) });
  const under = parentItem.getByRole('link', { name: `Chain child ${child.sessionId}, in project /e2e/defects/chain-child` });
  await expect(under).toBeVisible();
  await expect(under).toContainText('part 1');
  await expect(under).toContainText('chain-child');
  await expect(page.getByRole('region', { name: 'Project /e2e/defects/chain-child' }).locator(`a[data-session-id="${child.sessionId}"]`)).toBeVisible();
  await under.click();
  await expect(page.locator('.session-header .full-id')).toHaveText(child.sessionId);
});

test('every count agrees with its number: 1 project, 1 session, 1 file changed after it was read', async ({ page }) => {
  const made = await makeRecordDir('defects-one');
  const writer = await startWriter(made.dir);
  const dashboard = await startDashboard(made.dir);
  try {
    const session = new SessionWriting(writer, '/e2e/defects/one');
    await session.start();
    const file = await session.sent({ as: 'api-service' }, 'one');
    await waitForItems(dashboard.url, session.sessionId, 2);
    writeFileSync(path.join(made.dir, session.sessionId, file), JSON.stringify({ kind: 'message', side: 'sent', sessionId: session.sessionId, at: new Date().toISOString(), peer: { as: 'x' }, text: 'two', isQueued: true }));
    await expect.poll(async () => {
      const response = await apiFetch(`${dashboard.url}/api/sessions`);
      return JSON.stringify(await response.json());
    }).toContain('changed-after-read');

    await page.goto(dashboard.url);
    await expect(page.getByRole('main')).toContainText('1 project, 1 session, 1 with degraded recording.');
    await expect(page.locator('.topbar')).toContainText('1 session · 1 degraded');
    await expect(page.locator('.session-table caption')).toHaveText('Sessions whose record is incomplete');
    await expect(page.locator('.session-table')).toContainText('degraded: 1 reason');
    // The reason is a click away in the table, not only a pointer's hover.
    const reasons = page.locator('.session-table .degraded-reasons');
    await expect(reasons.getByText(/changed after it was read/)).toBeHidden();
    await reasons.getByText('degraded: 1 reason').click();
    await expect(reasons.getByRole('listitem')).toHaveText([/^1 file changed after it was read/]);
    await page.getByRole('link', { name: 'one /e2e/defects/one' }).click();
    await expect(page.locator('.session-table caption')).toHaveText('The record: 1 session, latest activity first');
    await page.goto(`${dashboard.url}/session/${session.sessionId}`);
    await expect(page.getByRole('region', { name: 'Degraded recording' })).toContainText('1 file changed after it was read;');
    await expect(page.locator('.session-header')).toContainText('1 run');
    await expect(entry(page, file)).toBeVisible();
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/\b1 (projects|sessions|files|entries|bytes|reasons|runs|fields|characters)\b/);
  } finally {
    await dashboard.stop();
    await writer.kill();
    await made.remove();
  }
});

test.describe('at 800 px wide', () => {
  test.use({ viewport: { width: 800, height: 800 } });

  test('the sidebar starts closed, opens from the top bar, and collapses again', async ({ page }) => {
    await page.goto(live.url);
    const sidebar = page.getByRole('navigation', { name: 'Projects and sessions' });
    const toggle = page.getByRole('button', { name: 'Sessions list' });
    // Below 1,000 px the view gets the width first (docs/usage.md).
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(sidebar).toBeHidden();
    expect((await page.getByRole('main').boundingBox())!.width).toBeGreaterThan(760);
    await toggle.click();
    await expect(sidebar).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.click();
    await expect(sidebar).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('a project\'s table scrolls in its own box: the page never scrolls sideways, and every column can be read in full', async ({ page }) => {
    const session = new SessionWriting(live.writer, '/e2e/defects/narrow-table');
    await session.start();
    await session.sent({ as: 'docs' }, 'not queued', { isQueued: false, reason: 'no such peer' });
    await waitForItems(live.url, session.sessionId, 2);
    await page.goto(`${live.url}/project?cwd=${encodeURIComponent(session.cwd)}`);
    const main = page.getByRole('main');
    await expect(main.locator('.session-table tbody tr')).toHaveCount(1);
    const sideways = await main.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(sideways).toBeLessThanOrEqual(1);
    for (const header of await main.locator('.session-table th').all()) {
      expect(await header.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      await header.scrollIntoViewIfNeeded();
      await expect(header).toBeInViewport({ ratio: 0.95 });
    }
  });

  test('a session\'s entries are wide enough to read, and no button wraps its words', async ({ page }) => {
    const session = new SessionWriting(live.writer, '/e2e/defects/narrow-session');
    await session.start();
    const sent = await session.sent({ as: 'docs' }, 'A text that a reader wants to read without it being squeezed into a narrow column.');
    const received = await session.received({ as: 'docs' }, 'And the answer, with its envelope.');
    await waitForItems(live.url, session.sessionId, 3);
    await page.goto(`${live.url}/session/${session.sessionId}`);
    await expect(entry(page, received)).toBeVisible();
    for (const file of [sent, received]) expect((await entry(page, file).boundingBox())!.width).toBeGreaterThanOrEqual(300);
    const wrapped = await page.locator('main button, main .button').evaluateAll((buttons) =>
      buttons
        .filter((button) => {
          const range = document.createRange();
          range.selectNodeContents(button);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
        })
        .map((button) => button.textContent),
    );
    expect(wrapped).toEqual([]);
  });
});

test('not queued sends and rejected receives are counted in the same words in the sidebar, the session header and the tables', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/defects/words');
  await session.start();
  await session.sent({ as: 'docs' }, 'refused by the host', { isQueued: false, reason: 'recipient refuses inbound messages (crossSessionInbound=refuse)' });
  await session.received({ as: 'docs' }, 'a receive the hook refused', 'rejected');
  await waitForItems(live.url, session.sessionId, 3);
  await page.goto(`${live.url}/session/${session.sessionId}`);
  const row = sidebarRow(page, session.sessionId);
  await expect(row).toContainText('1 not queued');
  await expect(row).toContainText('1 rejected');
  await expect(row).not.toContainText('refused');
  await expect(page.locator('.session-header')).toContainText('1 not queued');
  await expect(page.locator('.session-header')).toContainText('1 rejected');
  await page.goto(`${live.url}/project?cwd=${encodeURIComponent(session.cwd)}`);
  const table = page.locator('.session-table');
  await expect(table.locator('thead th')).toHaveText(['Session', 'First', 'Last', 'Sent', 'Received', 'Not queued', 'Rejected', 'Record']);
  await expect(table.locator('tbody td')).toHaveText([/./, /./, /./, '1', '1', '1', '1', /./]);
});

test('an entry changed after it was read says what the reader kept of it, its facts, and that its text then is not kept', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/defects/changed');
  await session.start();
  const file = await session.sent({ as: 'api-service' }, 'The words first read.');
  await waitForItems(live.url, session.sessionId, 2);
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(entry(page, file).locator('.entry-text')).toHaveText('The words first read.');
  const now = { kind: 'message', side: 'sent', sessionId: session.sessionId, at: new Date().toISOString(), cwd: session.cwd, peer: { as: 'someone-else' }, text: 'Other words, written later.', isQueued: false, reason: 'rewritten' };
  writeFileSync(path.join(live.dir, session.sessionId, file), JSON.stringify(now));
  await expect.poll(() => apiEvidence(session.sessionId, file), { timeout: 10_000 }).toBe('changed');

  const kept = entry(page, file).getByRole('note', { name: 'What the reader kept from its first read' });
  await expect(kept).toContainText('When first read: a sent message to api-service, queued by the host');
  await expect(kept).toContainText('Its text then is not kept');
  await expect(entry(page, file).locator('.entry-text')).toHaveText('Other words, written later.');
  // Counted as first read.
  await expect(page.locator('.session-header')).toContainText('0 not queued');
});

test.describe('in a browser whose locale writes dates month first', () => {
  test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

  test("search's time filters are written as the page writes times, in the page's time zone", async ({ page }) => {
    const session = new SessionWriting(live.writer, '/e2e/defects/times');
    await session.start();
    await session.write({ kind: 'message', side: 'sent', peer: { as: 'docs' }, text: 'defects-time early', isQueued: true, at: '2025-01-01T10:00:00.000Z' });
    await session.write({ kind: 'message', side: 'sent', peer: { as: 'docs' }, text: 'defects-time late', isQueued: true, at: '2025-01-01T12:00:00.000Z' });
    await waitForItems(live.url, session.sessionId, 3);
    await page.goto(`${live.url}/search?q=defects-time`);
    await expect(page.getByRole('group', { name: 'Time zone for all times' }).getByRole('button', { name: 'UTC' })).toHaveAttribute('aria-pressed', 'true');
    const from = page.getByRole('textbox', { name: 'from (UTC)' });
    await from.fill('2025-01-01 11:00:00');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/from=2025-01-01T11%3A00%3A00\.000Z/);
    const results = page.getByRole('region', { name: 'Search results' });
    await expect(results).toContainText('defects-time late');
    await expect(results).not.toContainText('defects-time early');
    await expect(results.locator('time').first()).toHaveText('2025-01-01 12:00:00.000 UTC');
    await expect(from).toHaveValue('2025-01-01 11:00:00');

    await page.getByRole('group', { name: 'Time zone for all times' }).getByRole('button', { name: 'Local' }).click();
    await expect(page.getByRole('textbox', { name: 'from (local time)' })).toHaveValue('2025-01-01 06:00:00');
    await expect(results.locator('time').first()).toHaveText(/^2025-01-01 07:00:00\.000 /);

    await page.getByRole('textbox', { name: 'from (local time)' }).fill('01/01/2025 6:00 AM');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('01/01/2025 6:00 AM is not a time: write it as the page does');

    // One written by hand in the address is kept in its field as written, and said in the page's words, not as zod's.
    await page.goto(`${live.url}/search?q=defects-time&from=yesterday`);
    await expect(page.getByRole('textbox', { name: /^from/ })).toHaveValue('yesterday');
    await expect(page.getByRole('alert')).toContainText('yesterday is not a time: write it as the page does');
    await expect(page.getByText(/Invalid ISO datetime/)).toHaveCount(0);
  });
});

test('every item with a file has a copy link action that copies the address of its entry', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const session = new SessionWriting(live.writer, '/e2e/defects/copy-link');
  const start = await session.start();
  const sent = await session.sent({ as: 'docs' }, 'link me');
  const invalid = await session.write({ kind: 'message', side: 'sideways', text: 'not an entry' });
  await session.raw('notes.txt', 'a stray: not an entry');
  await waitForItems(live.url, session.sessionId, 4);
  await page.goto(`${live.url}/session/${session.sessionId}`);
  for (const file of [start, sent, invalid, 'notes.txt']) {
    await page.locator(`[data-file="${file}"]`).getByRole('button', { name: `Copy a link to entry ${file}` }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`${live.url}${conversationPath(sourceIdOf('record', live.dir), session.sessionId, file)}`);
  }
  await page.goto(`${live.url}/session/${session.sessionId}/entry/${sent}`);
  await expect(page.locator('.conversation-row.selected article')).toHaveAttribute('data-file', sent);
});

/** Three sessions of a project, written one after the other: the sidebar lists them newest first, three, two, one. */
async function threeSessions(cwd: string): Promise<[SessionWriting, SessionWriting, SessionWriting]> {
  const sessions = [0, 1, 2].map(() => new SessionWriting(live.writer, cwd)) as [SessionWriting, SessionWriting, SessionWriting];
  for (const session of sessions) {
    await session.start();
    await session.sent({ as: 'docs' }, 'a step');
  }
  await waitForItems(live.url, sessions[2].sessionId, 2);
  return sessions;
}

test('] then [ comes back to the conversation it left, though a write re-sorted the list between the two', async ({ page }) => {
  const [one, two, three] = await threeSessions('/e2e/defects/steps');
  const source = sourceIdOf('record', live.dir);
  await page.goto(`${live.url}${conversationPath(source, two.sessionId)}`);
  await expect(page.locator('.session-header')).toBeVisible();
  await page.mouse.move(900, 600);
  // Newest first: three, two, one.
  await expect.poll(async () => (await sidebarRow(page, three.sessionId).boundingBox())!.y < (await sidebarRow(page, two.sessionId).boundingBox())!.y).toBe(true);
  await page.keyboard.press(']');
  await expect(page).toHaveURL(`${live.url}${conversationPath(source, one.sessionId)}`);
  // A write moves one to the top of the list: one, three, two.
  await one.sent({ as: 'docs' }, 'moved to the top');
  await expect.poll(async () => (await sidebarRow(page, one.sessionId).boundingBox())!.y < (await sidebarRow(page, three.sessionId).boundingBox())!.y).toBe(true);
  await page.keyboard.press('[');
  await expect(page).toHaveURL(`${live.url}${conversationPath(source, two.sessionId)}`);
});

/** Three sessions of a project, the middle one open, its two rows shown, and the pointer over the view (the list re-sorts freely). */
async function openTheMiddleOfThree(page: Page, cwd: string): Promise<{ source: string; one: SessionWriting; two: SessionWriting }> {
  const [one, two, three] = await threeSessions(cwd);
  const source = sourceIdOf('record', live.dir);
  await page.goto(`${live.url}${conversationPath(source, two.sessionId)}`);
  await expect(page.locator('.conversation-row')).toHaveCount(2);
  await page.mouse.move(900, 600);
  await expect.poll(async () => (await sidebarRow(page, three.sessionId).boundingBox())!.y < (await sidebarRow(page, two.sessionId).boundingBox())!.y).toBe(true);
  return { source, one, two };
}

test('] on a conversation opened at one of its items steps to the next conversation in the list, and the view it opens takes the focus', async ({ page }) => {
  const { source, one, two } = await openTheMiddleOfThree(page, '/e2e/defects/steps-from-an-item');
  // j selects an item: the address names it.
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`${conversationPath(source, two.sessionId)}/item/`));
  await page.keyboard.press(']');
  await expect(page).toHaveURL(`${live.url}${conversationPath(source, one.sessionId)}`);
  await expect(page.locator('main:focus')).toHaveCount(1);
  await page.keyboard.press('[');
  await expect(page).toHaveURL(`${live.url}${conversationPath(source, two.sessionId)}`);
  // Past the end of the list (narrowed to this project: one is its last), ] leaves the
  // conversation as it is, at its item.
  await page.goto(`${live.url}${conversationPath(source, one.sessionId)}`);
  await expect(page.locator('.conversation-row')).toHaveCount(2);
  await page.getByPlaceholder('Filter: id, directory, chain brief').fill('steps-from-an-item');
  await page.keyboard.press('Escape');
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`${conversationPath(source, one.sessionId)}/item/`));
  const atItem = page.url();
  await page.keyboard.press(']');
  await page.waitForTimeout(300);
  expect(page.url()).toBe(atItem);
  // A key that opens a view leaves the focus there, as a pick in the sidebar does: Tab goes on in it.
  await page.keyboard.press('g');
  await expect(page).toHaveURL(`${live.url}/map`);
  await expect(page.locator('main:focus')).toHaveCount(1);
});

test('] pressed the moment j writes the item selected into the address, before the page shows it, still gives the view it opens the focus', async ({ page }) => {
  const { source, one } = await openTheMiddleOfThree(page, '/e2e/defects/steps-on-the-way');
  // The reader's `]` comes between the item's address being written and the page showing it:
  // the page shown on the way is the item's, and the focus waits past it for the next conversation.
  await page.evaluate(() => {
    const replace = history.replaceState.bind(history);
    history.replaceState = (state, unused, url) => {
      replace(state, unused, url);
      if (String(url).includes('/item/')) setTimeout(() => window.dispatchEvent(new KeyboardEvent('keydown', { key: ']' })), 0);
    };
  });
  await page.keyboard.press('j');
  await expect(page).toHaveURL(`${live.url}${conversationPath(source, one.sessionId)}`);
  await expect(page.locator('main:focus')).toHaveCount(1);
});

test('the sidebar keeps a row where it is while the pointer is over the list, says how many rows moved, and re-sorts when the pointer leaves', async ({ page }) => {
  const older = new SessionWriting(live.writer, '/e2e/defects/hover');
  const newer = new SessionWriting(live.writer, '/e2e/defects/hover');
  await older.start();
  await newer.start();
  await waitForItems(live.url, newer.sessionId, 1);
  await page.goto(live.url);
  const olderRow = sidebarRow(page, older.sessionId);
  const newerRow = sidebarRow(page, newer.sessionId);
  await expect(olderRow).toBeVisible();
  expect((await olderRow.boundingBox())!.y).toBeGreaterThan((await newerRow.boundingBox())!.y);
  await olderRow.hover();
  const before = (await olderRow.boundingBox())!.y;

  await older.sent({ as: 'docs' }, 'a write that makes it the latest');
  await expect(olderRow).toContainText('1 sent');
  expect((await olderRow.boundingBox())!.y).toBe(before);
  await expect(page.getByRole('button', { name: /^1 row moved: re-sort$/ })).toBeVisible();

  await page.mouse.move(700, 400);
  await expect.poll(async () => (await olderRow.boundingBox())!.y < (await newerRow.boundingBox())!.y).toBe(true);
  await expect(page.getByRole('button', { name: /moved: re-sort/ })).toHaveCount(0);
});
