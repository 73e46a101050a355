import { apiFetch, startDashboard, waitForItems, type RunningDashboard } from './support/dashboard.ts';
import { useLiveRecord } from './support/liveRecord.ts';
import { SessionWriting } from './support/record.ts';
import { expect, openFolded, test, type Locator, type Page } from './support/test.ts';

// Reading a busy session: narrowing it to a side or a peer (kept in the address), messages per
// peer, relative times, the activity strip that opens the session at a moment, the compact
// density; and the overview of every conversation of every store.

const live = useLiveRecord(test, 'busy');

const entry = (page: Page, file: string) => page.locator(`article[data-file="${file}"]`);
const ALICE = 'uds:/tmp/cc-socks/alice.sock';
const BOB = 'api-service';
const CORRELATION = 'Which sent entry this corresponds to: not shown by the record.';

/** Writes an entry dated `at` (its name and its `at` field), as the plugin would have then. */
async function writeAt(session: SessionWriting, at: Date, entry: Record<string, unknown>): Promise<string> {
  const seq = ++session.seq;
  const iso = at.toISOString();
  const ack = await live.writer.send({ op: 'write', sessionId: session.sessionId, seq, at: iso, entry: { sessionId: session.sessionId, at: iso, cwd: session.cwd, ...entry } });
  return ack.file!.split('/').at(-1)!;
}

const sent = (peer: string | null, text: string) => ({ kind: 'message', side: 'sent', ...(peer !== null ? { peer: { as: peer } } : {}), text, isQueued: true });
const received = (peer: string | null, text: string) => ({ kind: 'message', side: 'received', ...(peer !== null ? { peer: { as: peer } } : {}), text, outcome: 'consumed' });

/** A session talking to two peers, one without a peer, and one named "unknown". */
async function writePeers(cwd: string) {
  const session = new SessionWriting(live.writer, cwd);
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
  await writeAt(session, at(20), { kind: 'start', host: 'claude-code', version: '2.1.314', inbound: 'accept' });
  const files = {
    toAlice: await writeAt(session, at(19), sent(ALICE, 'to alice, first')),
    fromBob: await writeAt(session, at(18), received(BOB, 'from bob')),
    fromAlice: await writeAt(session, at(17), received(ALICE, 'from alice')),
    fromNobody: await writeAt(session, at(16), received(null, 'from a peer the host did not name')),
    toNamedUnknown: await writeAt(session, at(15), sent('unknown', 'to a peer named unknown')),
    toAliceAgain: await writeAt(session, at(5), sent(ALICE, 'to alice, again\nwith a second line')),
  };
  await waitForItems(live.url, session.sessionId, 7);
  return { session, files };
}

/** Opens a record session's activity and peers, folded in a window shorter than 900 px. */
async function openActivity(page: Page): Promise<void> {
  await openFolded(page.locator('details.activity-fold'));
  await expect(page.getByRole('table', { name: /Messages per peer/ })).toBeVisible();
}

test('a session filtered by side and by peer keeps the filter in the address, through a reload and back; its columns count its messages as a spex session’s and a seat’s do, until a filter narrows it', async ({ page }) => {
  const { session, files } = await writePeers('/e2e/busy/filters');
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(entry(page, files.toAlice)).toBeVisible();
  const columns = page.locator('.conversation-columns');
  await expect(columns.locator('.side-sent')).toHaveText('Sent by this session (3)');
  await expect(columns.locator('.side-received')).toHaveText('Received by this session (3)');

  await page.getByRole('group', { name: 'Side' }).getByRole('button', { name: 'Received' }).click();
  await expect(page).toHaveURL(/[?&]side=received/);
  // Narrowed, the filter's line counts what it leaves (below): the columns count nothing.
  await expect(columns.locator('.side-received')).toHaveText('Received by this session');
  await expect(entry(page, files.fromBob)).toBeVisible();
  await expect(entry(page, files.toAlice)).toHaveCount(0);
  // The count adds up with the peer table's: the messages, then what no filter leaves out.
  await expect(page.getByRole('status').filter({ hasText: 'Showing received messages: 3 messages, and 1 item shown whatever the filter (gaps, start entries, files that hold no message), 4 items in all.' })).toBeVisible();

  // The peers are folded in a laptop's window (below): opened once, they stay open in this tab.
  await openActivity(page);
  await page.getByRole('button', { name: `Only peer ${ALICE}` }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]peer=${encodeURIComponent(ALICE)}`));
  await expect(entry(page, files.fromAlice)).toBeVisible();
  await expect(entry(page, files.fromBob)).toHaveCount(0);
  await expect(entry(page, files.toAliceAgain)).toHaveCount(0);

  await page.reload();
  await expect(entry(page, files.fromAlice)).toBeVisible();
  await expect(entry(page, files.fromBob)).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Side' }).getByRole('button', { name: 'Received' })).toHaveAttribute('aria-pressed', 'true');

  // A link to an entry keeps the filter it was followed in.
  await page.getByRole('link', { name: `Link to entry ${files.fromAlice}` }).click();
  await expect(page).toHaveURL(new RegExp(`/item/.*[?&]side=received`));
  await expect(entry(page, files.fromAlice)).toBeVisible();

  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(/[?&]side=received$/);
  await expect(entry(page, files.fromBob)).toBeVisible();

  await page.getByRole('button', { name: 'Only peer unknown (none given)' }).click();
  await expect(entry(page, files.fromNobody)).toBeVisible();
  await expect(entry(page, files.fromBob)).toHaveCount(0);
  await page.getByRole('group', { name: 'Side' }).getByRole('button', { name: 'Both sides' }).click();
  await expect(entry(page, files.fromNobody)).toBeVisible();
  await expect(entry(page, files.toNamedUnknown)).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filter' }).click();
  await expect(page).toHaveURL(new RegExp(`/conversation/${session.sessionId}$`));
  await expect(entry(page, files.toNamedUnknown)).toBeVisible();
});

test('what was refused is one click away: the header’s "not queued" and "rejected" each open the session narrowed to them, and "Refused only" narrows either side to them or lets them go', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/busy/refused');
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
  await writeAt(session, at(20), { kind: 'start', host: 'claude-code', version: '2.1.314', inbound: 'accept' });
  const files = {
    queued: await writeAt(session, at(19), sent(ALICE, 'queued for alice')),
    notQueued: await writeAt(session, at(18), { ...sent(ALICE, 'alice was not listening'), isQueued: false }),
    consumed: await writeAt(session, at(17), received(BOB, 'from bob, read')),
    rejected: await writeAt(session, at(16), { ...received(BOB, 'from bob, turned away'), outcome: 'rejected' }),
  };
  await waitForItems(live.url, session.sessionId, 5);
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(entry(page, files.queued)).toBeVisible();
  const header = page.locator('.session-header');
  await expect(header.getByRole('link', { name: '1 not queued' })).toHaveAttribute('title', 'Show only the sent messages the host did not queue');

  await header.getByRole('link', { name: '1 not queued' }).click();
  await expect(page).toHaveURL(/[?&]side=sent&refused=1$/);
  await expect(entry(page, files.notQueued)).toBeVisible();
  for (const file of [files.queued, files.consumed, files.rejected]) await expect(entry(page, file)).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /^Showing sent messages the host did not queue: 1 message,/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refused only' })).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('group', { name: 'Side' }).getByRole('button', { name: 'Both sides' }).click();
  await expect(page).toHaveURL(/[?&]refused=1$/);
  await expect(entry(page, files.rejected)).toBeVisible();
  await expect(entry(page, files.notQueued)).toBeVisible();
  await expect(entry(page, files.consumed)).toHaveCount(0);

  await page.getByRole('button', { name: 'Refused only' }).click();
  await expect(page).toHaveURL(new RegExp(`/conversation/${session.sessionId}$`));
  await expect(entry(page, files.consumed)).toBeVisible();

  await header.getByRole('link', { name: '1 rejected' }).click();
  await expect(page).toHaveURL(/[?&]side=received&refused=1$/);
  await expect(entry(page, files.rejected)).toBeVisible();
  await expect(entry(page, files.notQueued)).toHaveCount(0);

  // The session's page across the stores says it beside the record's badge, with the same links.
  await page.goto(`${live.url}/sessions/${session.sessionId}`);
  const lead = page.getByRole('list', { name: 'Its stores' }).locator('.store-lead');
  await expect(lead).toHaveText('1 not queued · 1 rejected');
  await lead.getByRole('link', { name: '1 not queued' }).click();
  await expect(page).toHaveURL(new RegExp(`/conversation/${session.sessionId}\\?side=sent&refused=1$`));
  await expect(entry(page, files.notQueued)).toBeVisible();
  await expect(entry(page, files.queued)).toHaveCount(0);

  // The overview's table of sessions says it in the record's badge, as the sidebar's row does.
  await page.goto(`${live.url}/`);
  await expect(page.locator(`tr[data-session="${session.sessionId}"] .store-badge`)).toHaveText('the record: 2 sent, 2 received · 1 not queued · 1 rejected');
});

test('in a laptop’s window a session’s activity and peers are folded under a summary that counts them; opened, they stay open on the next session’s page and through a reload; a taller window has them open', async ({ page }) => {
  const { session } = await writePeers('/e2e/busy/folded');
  const other = await writePeers('/e2e/busy/folded-other');
  await page.goto(`${live.url}/session/${session.sessionId}`);
  const summary = page.locator('.activity-fold > summary');
  await expect(summary).toHaveText('Activity and peers (7 items by the minute, 4 peers)');
  const table = page.getByRole('table', { name: /Messages per peer/ });
  await expect(table).toBeHidden();
  // The rows have the height the strip and the peers would have taken.
  await summary.click();
  await expect(table).toBeVisible();
  await page.goto(`${live.url}/session/${other.session.sessionId}`);
  await expect(table).toBeVisible();
  await page.reload();
  await expect(table).toBeVisible();
  await summary.click();
  await expect(table).toBeHidden();
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(summary).toBeVisible();
  await expect(table).toBeHidden();

  const tall = await page.context().newPage();
  await tall.setViewportSize({ width: 1280, height: 1000 });
  await tall.goto(`${live.url}/session/${session.sessionId}`);
  await expect(tall.getByRole('table', { name: /Messages per peer/ })).toBeVisible();
  await tall.close();
});

test('messages per peer name each peer as the host gave it, and "unknown" for none, apart from a peer named "unknown"', async ({ page }) => {
  const { session } = await writePeers('/e2e/busy/peers');
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await openActivity(page);
  const table = page.getByRole('table', { name: /Messages per peer/ });
  await expect(table).toContainText('4 peers');
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toHaveText(new RegExp(`^${ALICE.replace(/[.]/g, '\\.')}\\s*21`));
  await expect(rows.nth(1)).toHaveText(/^api-service\s*01/);
  await expect(rows.nth(2).locator('.peer-unknown')).toHaveText('unknown');
  await expect(rows.nth(2)).toHaveText(/^unknown\s*01/);
  await expect(rows.nth(3).locator('.peer-as')).toHaveText('unknown');
  await expect(rows.nth(3)).toHaveText(/^unknown\s*10/);
});

test('a session with more peers than are shown at first has each of those shown whole, and "Show all" lists the rest under a header kept in view, the side kept in view above them, casting the box’s shade once it is scrolled', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/busy/many-peers');
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
  await writeAt(session, at(30), { kind: 'start', host: 'claude-code', version: '2.1.314', inbound: 'accept' });
  for (let peer = 0; peer < 11; peer++) await writeAt(session, at(29 - peer), sent(`peer-${String(peer).padStart(2, '0')}`, `to peer ${peer}`));
  await waitForItems(live.url, session.sessionId, 12);
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await openActivity(page);
  const table = page.getByRole('table', { name: /Messages per peer/ });
  await expect(table).toContainText('11 peers');
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toContainText('peer-00');
  const shown = await rows.count();
  expect(shown).toBeLessThan(11);
  // Each row shown lies whole inside what shows the table, and the page's own scrolling shows it:
  // none is cut by the edge of a box of its own.
  const boxes = [page.locator('.peer-counts'), page.locator('.session-activity')];
  for (let row = 0; row < shown; row++) {
    const edges = (await rows.nth(row).boundingBox())!;
    for (const box of boxes) {
      const around = (await box.boundingBox())!;
      expect(edges.y, `row ${row}'s top`).toBeGreaterThanOrEqual(around.y - 0.5);
      expect(edges.y + edges.height, `row ${row}'s bottom`).toBeLessThanOrEqual(around.y + around.height + 0.5);
    }
  }
  await page.getByRole('button', { name: 'Show all 11 peers' }).click();
  await expect(rows).toHaveCount(11);
  // The last is reached by scrolling the list, whose header stays at its top, above the rows.
  const header = table.getByRole('columnheader', { name: 'Peer' });
  await rows.nth(10).scrollIntoViewIfNeeded();
  await expect(rows.nth(10)).toBeInViewport();
  await expect(rows.nth(10)).toContainText('peer-10');
  expect(await page.locator('.peer-counts').evaluate((list) => list.scrollTop)).toBeGreaterThan(0);
  const list = (await page.locator('.peer-counts').boundingBox())!;
  const headerEdges = (await header.boundingBox())!;
  expect(headerEdges.y).toBeCloseTo(list.y, 0);
  await expect(header).toBeInViewport();
  // In a shorter window the box scrolls: what narrows the rows, the side, stays in view at its top.
  await page.setViewportSize({ width: 1280, height: 620 });
  const activity = page.locator('.session-activity');
  await expect.poll(() => activity.evaluate((box) => box.scrollHeight - box.clientHeight)).toBeGreaterThan(20);
  const filters = page.locator('.session-activity > .busy-filters');
  const shadeOf = () => filters.evaluate((bar) => getComputedStyle(bar).boxShadow);
  // At the box's top nothing is above: the bar casts no shade. Scrolled, it casts the one its opaque bar covers.
  expect(await shadeOf()).toMatch(/^(none|rgba\(0, 0, 0, 0\).*)$/);
  await activity.evaluate((box) => box.scrollTo(0, box.scrollHeight));
  await expect(page.getByRole('group', { name: 'Side' })).toBeInViewport({ ratio: 1 });
  await expect.poll(shadeOf).not.toMatch(/^(none|rgba\(0, 0, 0, 0\).*)$/);
});

test.describe('in a browser whose local zone is not UTC', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });
  test('relative times read "N minutes ago", with the exact time in the page\'s zone on hover', async ({ page }) => {
  const { session, files } = await writePeers('/e2e/busy/relative');
  await page.goto(`${live.url}/session/${session.sessionId}`);
  const time = entry(page, files.toAliceAgain).locator('.entry-time time');
  await expect(time).toHaveText(/ UTC$/);

  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'relative times' }).check();
  await expect(time).toHaveText('5 minutes ago');
  await expect(time).toHaveAttribute('title', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC · /);
  await page.getByRole('button', { name: 'Local' }).click();
  await expect(time).toHaveText('5 minutes ago');
  await expect(time).not.toHaveAttribute('title', / UTC · /);
  // Remembered, as the other settings are.
  await page.reload();
  await expect(entry(page, files.toAliceAgain).locator('.entry-time time')).toHaveText('5 minutes ago');
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'relative times' }).uncheck();
  await page.getByRole('button', { name: 'UTC' }).click();
  });
});

test('a relative time written after the page last looked at its clock reads "now", never "in N seconds"', async ({ page }) => {
  const { session, files } = await writePeers('/e2e/busy/relative-now');
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(entry(page, files.toAliceAgain)).toBeVisible();
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'relative times' }).check();
  await page.getByText('Settings', { exact: true }).click();
  // The page's clock ticks every 15 s: an entry that lands between two ticks is later than it.
  await page.waitForTimeout(3_000);
  const file = await writeAt(session, new Date(), sent(ALICE, 'to alice, just now'));
  await expect(entry(page, file).locator('.entry-time time')).toHaveText(/^(now|\d+ seconds? ago)$/);
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'relative times' }).uncheck();
});

test('a bar of the activity strip opens the session at that moment', async ({ page }) => {
  test.setTimeout(60_000);
  const session = new SessionWriting(live.writer, '/e2e/busy/strip');
  // At the start of a minute, so that each busy minute's writes fall in one minute.
  const hourAgo = Math.floor((Date.now() - 60 * 60_000) / 60_000) * 60_000;
  await writeAt(session, new Date(hourAgo), { kind: 'start', host: 'claude-code', version: '2.1.314', inbound: 'accept' });
  // Three busy minutes, half an hour apart: the view opens at the newest, far from the others.
  const firstOf: string[] = [];
  for (const minute of [0, 30, 59]) {
    for (let i = 0; i < 120; i++) {
      const file = await writeAt(session, new Date(hourAgo + minute * 60_000 + 1_000 + i * 100), sent(BOB, `minute ${minute}, message ${i}`));
      if (i === 0) firstOf.push(file);
    }
  }
  await waitForItems(live.url, session.sessionId, 361);
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(page.getByText('minute 59, message 119', { exact: true })).toBeInViewport();
  await expect(entry(page, firstOf[1]!)).toHaveCount(0);
  await openActivity(page);

  const strip = page.getByRole('group', { name: 'Items per minute' });
  await expect(page.locator('.activity figcaption')).toContainText('361 items by the minute');
  const bars = strip.getByRole('button');
  await expect(bars).toHaveCount(3);
  await expect(bars.nth(1)).toHaveAccessibleName(/^120 items from /);
  await bars.nth(1).click();
  await expect(entry(page, firstOf[1]!)).toBeInViewport();
  await expect(page.locator('.conversation-row.selected article')).toHaveAttribute('data-file', firstOf[1]!);
  // The reader has moved away from the newest entry: the view does not follow it back.
  await session.sent({ as: BOB }, 'written after the jump');
  await expect(page.getByRole('button', { name: /1 new/ })).toBeVisible();
  await expect(entry(page, firstOf[1]!)).toBeInViewport();

  await bars.nth(0).click();
  await expect(entry(page, firstOf[0]!)).toBeInViewport();
});

test('the compact density shows each entry on one line until it is opened, and every received one still says correlation is not shown', async ({ page }) => {
  const { session, files } = await writePeers('/e2e/busy/compact');
  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(entry(page, files.fromBob).locator('.correlation')).toHaveText(CORRELATION);
  const fullHeight = (await entry(page, files.toAliceAgain).boundingBox())!.height;

  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'compact entries' }).check();
  for (const file of [files.fromBob, files.fromAlice, files.fromNobody]) {
    await expect(entry(page, file).locator('.correlation')).toHaveText('which sent entry: not shown');
    await expect(entry(page, file).locator('.correlation')).toHaveAttribute('title', new RegExp(`^${CORRELATION.replace(/[.]/g, '\\.')}`));
  }
  for (const file of [files.toAlice, files.toNamedUnknown, files.toAliceAgain]) await expect(entry(page, file).locator('.correlation')).toHaveCount(0);
  const compact = entry(page, files.toAliceAgain);
  await expect(compact).toContainText('to alice, again');
  await expect(compact).toContainText('+1 line');
  await expect(compact).not.toContainText('with a second line');
  // One line: no taller than a line of the page's text and its padding.
  expect((await compact.boundingBox())!.height).toBeLessThan(Math.min(40, fullHeight / 1.5));
  await page.screenshot({ path: '/tmp/busy-compact.png' });
  await expect(entry(page, files.fromBob)).toContainText('consumed');
  await expect(entry(page, files.fromBob)).toContainText(BOB);

  await page.getByRole('button', { name: `Open entry ${files.fromBob}` }).click();
  await expect(entry(page, files.fromBob).locator('.correlation')).toHaveText(CORRELATION);
  await expect(entry(page, files.fromBob).locator('.entry-text')).toHaveText('from bob');
  await page.getByRole('button', { name: `Show entry ${files.fromBob} on one line` }).click();
  await expect(entry(page, files.fromBob).locator('.correlation')).toHaveText('which sent entry: not shown');
  // The menu closed on the click in the page, as menus do.
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'compact entries' }).uncheck();
});

/**
 * Two sessions written one after the other, in `cwds`, and the overview opened on them; the older's
 * row hovered in `table` while a write makes it the latest: the row stays where it stood, "1 row
 * moved: re-sort" is offered, and pressed, moves it. `told`: the row shows the write.
 */
async function expectHeldUnderPointer(
  page: Page,
  cwds: readonly [string, string],
  table: (page: Page, cwds: readonly [string, string]) => Locator,
  rowIn: (table: Locator, session: SessionWriting) => Locator,
  told: (row: Locator) => Promise<void>,
) {
  const older = new SessionWriting(live.writer, cwds[0]);
  const newer = new SessionWriting(live.writer, cwds[1]);
  await older.start();
  await older.sent({ as: 'x' }, 'first');
  await newer.start();
  await newer.sent({ as: 'x' }, 'second');
  await waitForItems(live.url, newer.sessionId, 2);
  await page.goto(live.url);
  const rowOf = (session: SessionWriting) => rowIn(table(page, cwds), session);
  /** Where each stands: the newer above the older, or not. */
  const newerFirst = async () => (await rowOf(newer).evaluate((row) => (row as HTMLTableRowElement).sectionRowIndex)) < (await rowOf(older).evaluate((row) => (row as HTMLTableRowElement).sectionRowIndex));
  await expect.poll(newerFirst).toBe(true);

  await rowOf(older).hover();
  await older.sent({ as: 'x' }, 'third, the latest now');
  await told(rowOf(older));
  const resort = page.getByRole('button', { name: /^1 row moved: re-sort$/ });
  await expect(resort).toBeVisible();
  expect(await newerFirst(), 'the row under the pointer has not moved').toBe(true);
  await resort.click();
  await expect.poll(newerFirst).toBe(false);
  await expect(resort).toHaveCount(0);
  return { newer, newerFirst };
}

test('the overview’s table holds its order while the pointer is over it: a write that makes another conversation the latest moves no row until the reader asks for a re-sort or lets go', async ({ page }) => {
  const { newer, newerFirst } = await expectHeldUnderPointer(
    page,
    ['/e2e/busy/held-older', '/e2e/busy/held-newer'],
    (page) => page.getByRole('table', { name: /^All \d+ conversations, latest activity first$/ }),
    (table, session) => table.locator('tbody tr').filter({ hasText: session.sessionId.slice(0, 8) }),
    (row) => expect(row.locator('td').nth(4)).toHaveText('2'),
  );
  // Let go, the table follows the writes again.
  await page.mouse.move(1, 1);
  await newer.sent({ as: 'x' }, 'fourth');
  await expect.poll(newerFirst).toBe(true);
});

test('a project’s table of sessions across the stores holds its order as the conversations’ table does: under the pointer, a write moves no row until a re-sort', async ({ page }) => {
  await expectHeldUnderPointer(
    page,
    ['/e2e/busy/held-joined', '/e2e/busy/held-joined'],
    (page, cwds) => page.getByRole('table', { name: `2 sessions in ${cwds[0]}, each with the stores that hold it (joined on its full id), latest first` }),
    (table, session) => table.locator(`tr[data-session="${session.sessionId}"]`),
    (row) => expect(row.locator('.store-badge')).toContainText('2 sent'),
  );
});

test.describe('the overview', () => {
  let demo: RunningDashboard;
  test.beforeAll(async () => {
    demo = await startDashboard(null);
  });
  test.afterAll(async () => {
    await demo?.stop();
  });

  test('the sidebar keeps the open session’s row in its view, where it stood, while the demo’s writes re-sort it, until the reader scrolls the list, which then keeps its order', async ({ page }) => {
    await expect
      .poll(async () => ((await (await apiFetch(`${demo.url}/api/sessions`)).json()) as { projects: { sessions: unknown[] }[] }).projects.flatMap((project) => project.sessions).length)
      .toBeGreaterThan(12);
    const list = (await (await apiFetch(`${demo.url}/api/sessions`)).json()) as { projects: { sessions: { source: { id: string }; id: string }[] }[] };
    // The last rows of the list, out of its view when a page opens: each opened by its address.
    const paths = list.projects.flatMap((project) => project.sessions).slice(-6).map((one) => `/source/${one.source.id}/conversation/${encodeURIComponent(one.id)}`);
    const current = page.locator('#sidebar [aria-current="page"]');
    const inView = () =>
      current.evaluateAll((rows) => {
        // Not drawn yet: not in view.
        const box = document.querySelector('.sidebar-list')?.getBoundingClientRect();
        return box !== undefined && rows.some((row) => row.getBoundingClientRect().top >= box.top - 1 && row.getBoundingClientRect().bottom <= box.bottom + 1);
      });
    // Read at each frame from the page's start: once drawn in view, the row stays in view in
    // every frame. (One read a moment later found it out of view once in a few pages: the row was
    // drawn out of view for a frame as rows were measured.) And where it stands in the view: it
    // moves there only when the list cannot move under it (at its top or its foot) or as it is
    // measured; brought to the nearer edge each time, it swapped between the list's top and foot
    // as writes moved it.
    const framesOutOfView = () =>
      page.evaluate(
        () =>
          new Promise<string[]>((resolve) => {
            const out: string[] = [];
            const start = performance.now();
            let drawnAt: number | null = null;
            let stood: { offset: number; height: number } | null = null;
            const frame = () => {
              const list = document.querySelector('.sidebar-list');
              const box = list?.getBoundingClientRect();
              const rows = [...document.querySelectorAll('#sidebar [aria-current="page"]')].map((row) => row.getBoundingClientRect());
              const shown = box !== undefined && rows.some((row) => row.top >= box.top - 1 && row.bottom <= box.bottom + 1);
              if (shown) drawnAt ??= performance.now();
              const at = `${Math.round(performance.now() - start)} ms`;
              if (drawnAt !== null && !shown) out.push(`${at}: ${rows.map((row) => `${row.top}..${row.bottom}`).join(', ') || 'no row'} in ${box?.top}..${box?.bottom}`);
              if (shown && list != null && box !== undefined) {
                const now = { offset: rows[0]!.top - box.top, height: rows[0]!.height };
                const atAnEnd = list.scrollTop < 1 || list.scrollTop > list.scrollHeight - list.clientHeight - 1;
                if (stood !== null && Math.abs(now.offset - stood.offset) > 1 && Math.abs(now.height - stood.height) < 1 && !atAnEnd) {
                  out.push(`${at}: moved in the view from ${stood.offset} to ${now.offset} px, the list at ${list.scrollTop} of ${list.scrollHeight - list.clientHeight}`);
                }
                stood = now;
              }
              // Two seconds from when it is first drawn in view (ten at the most to be drawn).
              if (drawnAt === null ? performance.now() - start < 10_000 : performance.now() - drawnAt < 2_000) requestAnimationFrame(frame);
              else resolve(drawnAt !== null ? out : ['never drawn in view']);
            };
            requestAnimationFrame(frame);
          }),
      );
    for (const path of paths) {
      await page.goto(`${demo.url}${path}`);
      // The demo writes a few times a second, each write moving its session to the top.
      expect(await framesOutOfView(), `${path}, each frame`).toEqual([]);
    }
    // Once the reader scrolls the list, it stays where they put it, as live writes re-sort it.
    const sidebarList = page.locator('.sidebar-list');
    await sidebarList.hover();
    await page.mouse.wheel(0, -50_000);
    await expect.poll(() => sidebarList.evaluate((box) => box.scrollTop)).toBe(0);
    await page.mouse.move(1_000, 400);
    // And its order with it: the rows it was scrolled to stay under the reader, as under the pointer.
    // In the order they are drawn, top to bottom (rows are placed, not laid out in the page's order), each once.
    const rowsShown = () =>
      sidebarList
        .locator('a[href^="/source/"]')
        .evaluateAll((links) => [...new Set(links.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top).map((link) => link.getAttribute('href')))].join(' '));
    const shown = await rowsShown();
    await page.waitForTimeout(1_500);
    expect(await sidebarList.evaluate((box) => box.scrollTop)).toBe(0);
    // A session new since goes after its project's others: those shown before keep their order.
    const before = shown.split(' ');
    const after = (await rowsShown()).split(' ');
    expect(after.filter((href) => before.includes(href))).toEqual(before.filter((href) => after.includes(href)));
    expect(after[0]).toBe(before[0]);
    const resort = page.getByRole('button', { name: /moved: re-sort$/ });
    await expect(resort).toBeVisible();
    // Over the list's foot: scrolled to its end, the last row is drawn above it, not under it.
    // (Scrolled there at each look: a session new since makes the list longer.)
    await expect
      .poll(async () => {
        await sidebarList.evaluate((box) => box.scrollTo(0, box.scrollHeight));
        const pill = (await resort.boundingBox())!;
        const { lastBottom, listFoot } = await sidebarList.evaluate((box) => ({
          lastBottom: Math.max(...[...box.querySelectorAll('.sidebar-row')].map((row) => row.getBoundingClientRect().bottom)),
          listFoot: box.querySelector('.sidebar-inner')!.getBoundingClientRect().bottom,
        }));
        // The last row drawn yet (the rows drawn follow the scroll a frame later), or asked again.
        if (Math.abs(lastBottom - listFoot) > 1) return Number.POSITIVE_INFINITY;
        return lastBottom - pill.y;
      })
      .toBeLessThanOrEqual(0);
    // Opened again (another session picked from the list's top, then Back), it is followed again.
    const here = page.url();
    // Not the open one: a write may have just brought it to the top.
    await page.locator('#sidebar a[href^="/source/"]:not([aria-current])').first().click();
    await expect(page).not.toHaveURL(here);
    await page.goBack();
    await expect(page).toHaveURL(here);
    // At once, not after a write to it happens to bring it up the list.
    await expect.poll(inView, { timeout: 2_000 }).toBe(true);
  });

  test('in a list shorter than the open session’s row, the row is kept with its foot at the view’s foot as the demo’s writes move it, never swapping to its top', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 175 });
    const list = (await (await apiFetch(`${demo.url}/api/sessions`)).json()) as { projects: { sessions: { source: { id: string }; id: string }[] }[] };
    const last = list.projects.flatMap((project) => project.sessions).at(-1)!;
    await page.goto(`${demo.url}/source/${last.source.id}/conversation/${encodeURIComponent(last.id)}`);
    // Read at each frame for three seconds, from a second in (its first measurement done).
    const misplaced = await page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const out: string[] = [];
          const start = performance.now();
          const frame = () => {
            const box = document.querySelector('.sidebar-list')?.getBoundingClientRect();
            // The open session's own row: a row of the list may hold its conversations in other stores too.
            const row = document.querySelector('#sidebar [aria-current="page"]')?.getBoundingClientRect();
            const at = performance.now() - start;
            if (at > 1_000 && box !== undefined && row !== undefined) {
              if (row.height <= box.height) out.push(`${Math.round(at)} ms: the row (${row.height} px) fits the list (${box.height} px): nothing to claim`);
              else if (Math.abs(row.bottom - box.bottom) > 2) out.push(`${Math.round(at)} ms: its foot at ${Math.round(row.bottom - box.top)} px, the view's at ${Math.round(box.height)}`);
            }
            if (at < 4_000) requestAnimationFrame(frame);
            else resolve([...new Set(out)]);
          };
          requestAnimationFrame(frame);
        }),
    );
    expect(misplaced).toEqual([]);
  });

  test('] and [ step through the sidebar in the order it shows while it holds that order against the demo’s writes, a session’s head among its rows', async ({ page }) => {
    test.setTimeout(120_000);
    await expect
      .poll(async () => ((await (await apiFetch(`${demo.url}/api/sessions`)).json()) as { projects: { sessions: unknown[] }[] }).projects.flatMap((project) => project.sessions).length)
      .toBeGreaterThan(12);
    await page.goto(demo.url);
    await expect(page.locator('.sidebar-list a.session-head').first()).toBeVisible();
    const sidebarList = page.locator('.sidebar-list');
    // The pages the sidebar lists, as drawn, top to bottom.
    const shownOrder = () =>
      sidebarList.locator('a.session-row, a.session-head').evaluateAll((links) => links.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top).map((link) => link.getAttribute('href')!));
    // Held under the pointer until its order is another than a fresh sort's.
    await sidebarList.hover();
    await expect(page.getByRole('button', { name: /moved: re-sort$/ })).toBeVisible({ timeout: 30_000 });
    const order = await shownOrder();
    expect(order.some((href) => href.startsWith('/sessions/'))).toBe(true);
    await page.keyboard.press(']');
    await expect(page).toHaveURL(`${demo.url}${order[0]}`);
    for (let step = 1; step < Math.min(order.length, 8); step++) {
      const now = await shownOrder();
      const at = now.indexOf(new URL(page.url()).pathname);
      await page.keyboard.press(']');
      await expect(page).toHaveURL(`${demo.url}${now[at + 1]}`);
    }
    const now = await shownOrder();
    const at = now.indexOf(new URL(page.url()).pathname);
    await page.keyboard.press('[');
    await expect(page).toHaveURL(`${demo.url}${now[at - 1]}`);
  });

  test('Tab into the sidebar’s list takes it over as a scroll does: the link focused stays in view as the demo’s writes re-sort the list', async ({ page }) => {
    await expect
      .poll(async () => ((await (await apiFetch(`${demo.url}/api/sessions`)).json()) as { projects: { sessions: unknown[] }[] }).projects.flatMap((project) => project.sessions).length)
      .toBeGreaterThan(12);
    const list = (await (await apiFetch(`${demo.url}/api/sessions`)).json()) as { projects: { sessions: { source: { id: string }; id: string }[] }[] };
    const last = list.projects.flatMap((project) => project.sessions).at(-1)!;
    // Opened by its address, its row at the list's foot: the list follows it.
    await page.goto(`${demo.url}/source/${last.source.id}/conversation/${encodeURIComponent(last.id)}`);
    const sidebarList = page.locator('.sidebar-list');
    await expect.poll(() => sidebarList.evaluate((box) => box.scrollTop)).toBeGreaterThan(0);
    await page.getByRole('checkbox', { name: 'degraded only' }).focus();
    await page.keyboard.press('Tab');
    // The list's first link, which the browser brings into view.
    const focusedInView = () =>
      page.evaluate(() => {
        const focused = document.activeElement;
        const box = document.querySelector('.sidebar-list')!.getBoundingClientRect();
        if (focused === null || !document.querySelector('.sidebar-list')!.contains(focused)) return 'focus not in the list';
        const row = focused.getBoundingClientRect();
        return row.top >= box.top - 1 && row.bottom <= box.bottom + 1 ? 'in view' : `out of view: ${row.top}..${row.bottom} in ${box.top}..${box.bottom}`;
      });
    await expect.poll(focusedInView).toBe('in view');
    // The demo writes a few times a second: the list is not taken back to the open session's row.
    await page.waitForTimeout(2_000);
    expect(await focusedInView()).toBe('in view');
  });

  test('lists every conversation of every store, each saying its store and opening its view, sortable in the address', async ({ page }) => {
    // The demo writes its backlog over a moment: wait for one conversation of each kind.
    await expect
      .poll(async () => {
        const list = (await (await apiFetch(`${demo.url}/api/sessions`)).json()) as { projects: { sessions: { source: { kind: string } }[] }[] };
        return new Set(list.projects.flatMap((project) => project.sessions.map((session) => session.source.kind))).size;
      })
      .toBe(3);
    await page.goto(demo.url);
    const table = page.getByRole('table', { name: /^All \d+ conversations, latest activity first$/ });
    await expect(table).toBeVisible();
    for (const kind of ['record', 'spex', 'sac']) await expect(table.locator('tbody tr').filter({ has: page.locator('.badge-source', { hasText: new RegExp(`^${kind}$`) }) }).first()).toBeVisible();
    // Not only the degraded ones.
    await expect(table.locator('tbody td:last-child').filter({ hasText: /^no$/ }).first()).toBeVisible();
    await expect(table.locator('tbody td:last-child').filter({ hasText: /^degraded: / }).first()).toBeVisible();

    await table.getByRole('button', { name: 'Sent' }).click();
    await expect(page).toHaveURL(/\?sort=sent$/);
    const sorted = page.getByRole('table', { name: /most sent first$/ });
    await expect(sorted).toBeVisible();
    // The table's order holds while the pointer is over it or the focus in it (the sort's button
    // keeps it): the reader lets go, and it follows the writes again.
    await page.mouse.move(1, 1);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // The demo keeps writing, and a write can move a row: once, a read caught a row whose count had
    // just grown still in its old place. The order is read again until it holds, within the poll's time.
    const sentCounts = async () => (await sorted.locator('tbody tr td:nth-child(5)').allTextContents()).map((text) => Number(text.replace(/,/g, '')));
    expect((await sentCounts()).length).toBeGreaterThan(3);
    await expect
      .poll(async () => {
        const counts = await sentCounts();
        return counts.every((count, i) => i === 0 || counts[i - 1]! >= count) ? 'most sent first' : counts.join(', ');
      })
      .toBe('most sent first');

    await sorted.getByRole('button', { name: 'Degraded' }).click();
    await expect(page).toHaveURL(/\?sort=degraded$/);
    const byDegraded = page.getByRole('table', { name: /degraded first$/ });
    await expect(byDegraded.locator('tbody tr').first()).toContainText('degraded:');
    await page.reload();
    await expect(page.getByRole('table', { name: /degraded first$/ })).toBeVisible();

    for (const [kind, path] of [
      ['spex', /^\/source\/spex-[0-9a-f]{8}\/conversation\//],
      ['sac', /^\/source\/sac-[0-9a-f]{8}\/conversation\//],
      ['record', /^\/source\/record-[0-9a-f]{8}\/conversation\//],
    ] as const) {
      const row = page.locator('.conversation-table tbody tr').filter({ has: page.locator('.badge-source', { hasText: new RegExp(`^${kind}$`) }) }).first();
      const href = await row.locator('td:nth-child(2) a').getAttribute('href');
      expect(href).toMatch(path);
    }
    const recordRow = page.locator('.conversation-table tbody tr').filter({ has: page.locator('.badge-source', { hasText: /^record$/ }) }).first();
    await recordRow.locator('td:nth-child(2) a').click();
    await expect(page.locator('.session-header')).toBeVisible();
  });
});
