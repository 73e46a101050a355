import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SAC_ROOM, SEAT_A, SEAT_B, SESSION_A, SESSION_B, writeTwoSessions, type TwoSessions } from '../tools/writer/twoSessions.ts';
import { apiFetch, sourceIdOf, startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { expect, test } from './support/test.ts';

// The map of who talks to whom, in Chromium, over a record, a spex home and a set-agent-comm
// store each written by its own writer, holding two sessions whose ids share their first 8
// characters: two nodes named by their full ids, an edge between them named with its counts,
// updated live as a message lands.

let parent = '';
let stores: TwoSessions;
let dashboard: RunningDashboard;
let url = '';

test.beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'rec-e2e-map-'));
  stores = await writeTwoSessions(parent);
  dashboard = await startDashboard([stores.record, stores.spex, stores.sac]);
  url = dashboard.url;
  for (let i = 0; i < 400; i++) {
    const list = (await (await apiFetch(`${url}/api/sessions`)).json()) as { sources: { indexing: { state: string } }[] };
    if (list.sources.length === 3 && list.sources.every((source) => source.indexing.state === 'ready')) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the three stores were not read');
});

test.afterAll(async () => {
  await dashboard?.stop();
  await stores?.close();
  if (parent !== '') await rm(parent, { recursive: true, force: true });
});

const mapOf = (page: import('./support/test.ts').Page) => page.getByRole('group', { name: 'Map of who talks to whom' });

test('the map names both sessions by their full ids, with an edge between them named with its counts by store and side', async ({ page }) => {
  await page.goto(url);
  await page.getByRole('banner').getByRole('link', { name: /^Map/ }).click();
  await expect(page).toHaveURL(`${url}/map`);
  const map = mapOf(page);
  await expect(map.getByRole('link', { name: new RegExp(`^session ${SESSION_A} \\(${SEAT_A}\\)`) })).toBeVisible();
  await expect(map.getByRole('link', { name: new RegExp(`^session ${SESSION_B} \\(${SEAT_B}\\)`) })).toBeVisible();
  await expect(map.getByRole('button', { name: `${SESSION_A} → ${SESSION_B}`, exact: false })).toHaveAccessibleName(
    `${SESSION_A} → ${SESSION_B}: 2 messages, 1 not queued (the record, the sender's side); 1 message (the record, the receiver's side); 1 message (spex, the receiver's side); 1 message (set-agent-comm, the sender's side)`,
  );
  await expect(map.getByRole('button', { name: `${SESSION_B} → ${SESSION_A}:` })).toHaveAccessibleName(`${SESSION_B} → ${SESSION_A}: 1 message, 1 to everyone in the room (set-agent-comm, the sender's side)`);
  await expect(map.getByRole('button', { name: `a person → ${SESSION_A}:` })).toBeVisible();
});

test('a node’s name is drawn over the edges that cross it, ringed in the color of the box it sits in, so it stays legible', async ({ page }) => {
  await page.goto(`${url}/map`);
  const label = mapOf(page).locator('.map-label').first();
  await expect(label).toBeVisible();
  const drawn = await label.evaluate((text) => {
    const style = getComputedStyle(text);
    const box = text.closest('svg')!.querySelector('.map-project rect')!;
    // Later in the document is drawn over: the names come after the edges.
    const edge = text.closest('svg')!.querySelector('.map-edge')!;
    return { paintOrder: style.paintOrder, stroke: style.stroke, strokeWidth: parseFloat(style.strokeWidth), boxFill: getComputedStyle(box).fill, afterEdges: (edge.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 };
  });
  expect(drawn.paintOrder.startsWith('stroke')).toBe(true);
  expect(drawn.stroke).toBe(drawn.boxFill);
  expect(drawn.strokeWidth).toBeGreaterThanOrEqual(2);
  expect(drawn.afterEdges).toBe(true);
});

test('a project’s name is drawn over the edges too, and an arrow’s head is as large on a busy edge as on a quiet one', async ({ page }) => {
  await page.goto(`${url}/map`);
  const name = mapOf(page).locator('.map-project-names text').first();
  await expect(name).toBeVisible();
  const drawn = await name.evaluate((text) => {
    const svg = text.closest('svg')!;
    const edge = svg.querySelector('.map-edge')!;
    const head = svg.querySelector('marker#map-arrow')!;
    return { afterEdges: (edge.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0, paintOrder: getComputedStyle(text).paintOrder, headUnits: head.getAttribute('markerUnits') };
  });
  expect(drawn.afterEdges).toBe(true);
  expect(drawn.paintOrder.startsWith('stroke')).toBe(true);
  // Sized in the map's units: a head sized by the stroke grew with every message of its edge.
  expect(drawn.headUnits).toBe('userSpaceOnUse');
});

test('an edge lists its messages, each with its text’s first line as written, each linking into its store’s page; a node opens its session', async ({ page }) => {
  await page.goto(`${url}/map`);
  const map = mapOf(page);
  // An edge is a curve, and its box's middle is off it: it is chosen as a keyboard chooses it.
  await map.getByRole('button', { name: `${SESSION_A} → ${SESSION_B}:` }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/map\\?from=session%3A${SESSION_A}&to=session%3A${SESSION_B}$`));
  const panel = page.getByRole('complementary', { name: 'Messages of the edge' });
  await expect(panel.getByRole('listitem')).toHaveCount(5);
  // The stores' counts are each its own: the list is not a sum of them.
  await expect(panel.locator('p.muted').first()).toHaveText('Every one listed, newest first, each as one store states it: the counts above are each store’s own, never added together.');
  await expect(panel.getByRole('listitem').filter({ hasText: 'not queued' })).toHaveCount(1);
  // Each message's words, under where it is: the first line of each store's text, newest first.
  await expect(panel.locator('.map-message-line')).toHaveText(['Is the refund endpoint frozen?', 'Please review the retry loop.', 'And the refunds?', 'Can you review payments/client.ts?', 'Can you review payments/client.ts?']);
  await panel.getByRole('link', { name: /set-agent-comm, as its sender wrote it/ }).click();
  await expect(page).toHaveURL(new RegExp(`/source/${sourceIdOf('sac', stores.sac)}/conversation/${encodeURIComponent(SEAT_A)}/item/`));
  await page.goBack();
  // A person clicks a node's name (the middle of its link may lie between the dot and the name).
  await mapOf(page).getByRole('link', { name: new RegExp(`^session ${SESSION_B}`) }).locator('.map-label').click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${SESSION_B}$`));
});

test('the store filter and the time window are in the address and narrow the map', async ({ page }) => {
  await page.goto(`${url}/map`);
  await page.getByRole('group', { name: 'Stores on the map' }).getByRole('checkbox', { name: /^the record/ }).uncheck();
  await expect(page).toHaveURL(new RegExp(`stores=${sourceIdOf('spex', stores.spex)}%2C${sourceIdOf('sac', stores.sac)}|stores=${sourceIdOf('sac', stores.sac)}%2C${sourceIdOf('spex', stores.spex)}`));
  await expect(mapOf(page).getByRole('button', { name: `${SESSION_A} → ${SESSION_B}:` })).toHaveAccessibleName(
    `${SESSION_A} → ${SESSION_B}: 1 message (spex, the receiver's side); 1 message (set-agent-comm, the sender's side)`,
  );
  await page.goto(`${url}/map?until=2026-11-30T09:01:30.000Z`);
  await expect(mapOf(page).getByRole('button', { name: `${SESSION_A} → ${SESSION_B}:` })).toHaveAccessibleName(
    `${SESSION_A} → ${SESSION_B}: 1 message (the record, the sender's side); 1 message (the record, the receiver's side)`,
  );
  await expect(mapOf(page).getByRole('button', { name: `${SESSION_B} → ${SESSION_A}:` })).toHaveCount(0);
  // The window select says the window is the address's, never "all time" beside it.
  const window = page.getByRole('combobox', { name: 'Time window' });
  await expect(window.locator('option:checked')).toHaveText('the address’s');
  await expect(page.locator('.map-head')).toContainText('from the start to 2026-11-30T09:01:30.000Z');
  // A window word it does not take is named, and the map is over all time.
  // A window word with an end of the address's: both are asked for, and the end is said.
  await page.goto(`${url}/map?last=1h&until=2026-11-30T09:01:30.000Z`);
  await expect(window.locator('option:checked')).toHaveText('the last hour');
  await expect(page.locator('.map-head')).toContainText('until 2026-11-30T09:01:30.000Z');
  await page.goto(`${url}/map?last=fortnight`);
  await expect(window.locator('option:checked')).toHaveText('“fortnight” is no window: all time');
  // A time the server cannot read is the address's: said so, not as a failure to fetch.
  await page.goto(`${url}/map?since=yesterday`);
  await expect(page.locator('.map-view > .notice.warn')).toContainText('The map was not drawn: its address asks for what it does not take: since:');
  await page.goto(`${url}/map`);
  await expect(window.locator('option:checked')).toHaveText('all time');
});

test('a message that lands updates its edge live, and the edge pulses in its own color, not the color of an arrow opened or focused', async ({ page }) => {
  // Reduced motion: the pulse is a still style while it lasts, read as it is.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${url}/map`);
  const edge = mapOf(page).getByRole('button', { name: `${SESSION_B} → ${SESSION_A}:` });
  await expect(edge).toHaveAccessibleName(`${SESSION_B} → ${SESSION_A}: 1 message, 1 to everyone in the room (set-agent-comm, the sender's side)`);
  await stores.sacWriter.send({ op: 'send', room: SAC_ROOM, seat: SEAT_B, ts: '2026-11-30T09:08:00.000+00:00', type: 'ANSWER', text: 'Yes, frozen.', to: [SEAT_A] });
  await expect(edge).toHaveAccessibleName(`${SESSION_B} → ${SESSION_A}: 2 messages, 1 to everyone in the room (set-agent-comm, the sender's side)`);
  await expect(edge).toHaveClass(/pulse/);
  const stroke = (locator: import('@playwright/test').Locator) => locator.evaluate((line) => getComputedStyle(line).stroke);
  const plain = await stroke(page.getByRole('list', { name: 'What the drawing shows' }).locator('.map-edge:not(.refused, .broadcast, .pulse) .map-edge-line'));
  expect(await stroke(edge.locator('.map-edge-line'))).toBe(plain);
  // Thicker while it pulses than the width it is drawn at.
  const width = await edge.locator('.map-edge-line').evaluate((line) => ({ drawn: parseFloat(getComputedStyle(line).strokeWidth), own: Number(line.getAttribute('stroke-width')) }));
  expect(width.drawn).toBeGreaterThan(width.own);
  await edge.click();
  await expect(edge).toHaveAttribute('aria-pressed', 'true');
  expect(await stroke(edge.locator('.map-edge-line'))).not.toBe(plain);
});

test('the drawing says what its lines and dots mean, each sample drawn as the drawing draws it: red, dashed, each kind of dot, and a peer as written in quotes', async ({ page }) => {
  await page.goto(`${url}/map`);
  const legend = page.getByRole('list', { name: 'What the drawing shows' });
  await expect(legend.getByRole('listitem')).toHaveText([
    'from a sender to a receiver, thicker for more messages',
    'some not queued or rejected',
    'only to everyone in a room',
    'thicker for a moment as a message lands',
    'a session',
    'a person',
    '“a peer” known only as its store wrote it',
  ]);
  // Such a peer's label is in quotes, as the legend says: a name as written, not a project's or a session's.
  await expect(mapOf(page).getByRole('img', { name: /^uds:\/tmp\/cc-socks\/9999\.sock, as the record writes it/ }).locator('.map-label')).toHaveText(/^“.*”$/);
  // And so is it in the name of an arrow to or from it, and in the heading of its messages.
  await mapOf(page).getByRole('button', { name: /“uds:\/tmp\/cc-socks\/9999\.sock”/ }).first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2 }).filter({ hasText: '→' })).toContainText('“uds:/tmp/cc-socks/9999.sock”');
  // Each sample is drawn as the drawing draws it: red and dashed as a refused and a broadcast arrow are.
  const refusedSample = legend.locator('.map-edge.refused .map-edge-line');
  const refusedArrow = mapOf(page).locator('.map-edge.refused .map-edge-line').first();
  expect(await refusedSample.evaluate((line) => getComputedStyle(line).stroke)).toBe(await refusedArrow.evaluate((line) => getComputedStyle(line).stroke));
  await expect(legend.locator('.map-edge.broadcast .map-edge-line')).toHaveCSS('stroke-dasharray', '5px, 4px');
  const fill = (locator: import('@playwright/test').Locator) => locator.first().evaluate((dot) => getComputedStyle(dot).fill);
  for (const type of ['session', 'person']) expect(await fill(legend.locator(`.map-dot-${type}`))).toBe(await fill(mapOf(page).locator(`.map-dot-${type}`)));
  expect(await fill(legend.locator('.map-dot-as-written'))).not.toBe(await fill(legend.locator('.map-dot-session')));
});

test('the find box lights the nodes its words find, a seat’s name finding its session, dims the rest, and Enter shows them', async ({ page }) => {
  await page.goto(`${url}/map`);
  const map = mapOf(page);
  await expect(map.getByRole('link', { name: new RegExp(`^session ${SESSION_B}`) })).toBeVisible();
  const nodes = await map.locator('.map-node').count();
  const find = page.getByRole('searchbox', { name: 'Find nodes on the map' });
  await find.fill(SEAT_B);
  await expect(page.locator('#map-found')).toHaveText('1 node found · Enter shows it');
  await expect(map.locator('.map-node.found')).toHaveCount(1);
  await expect(map.locator('.map-node.found')).toHaveAttribute('aria-label', new RegExp(`^session ${SESSION_B}`));
  await expect(map.locator('.map-node.dimmed')).toHaveCount(nodes - 1);
  // An arrow with neither end found fades too; one to or from it does not.
  await expect(map.getByRole('button', { name: `a person → ${SESSION_A}:` })).toHaveClass(/dimmed/);
  await expect(map.getByRole('button', { name: `${SESSION_A} → ${SESSION_B}:` })).not.toHaveClass(/dimmed/);
  const fitted = await map.getAttribute('viewBox');
  await find.press('Enter');
  await expect(map).not.toHaveAttribute('viewBox', fitted!);
  const pane = (await map.boundingBox())!;
  const dot = (await map.locator('.map-node.found circle').boundingBox())!;
  expect(dot.x >= pane.x && dot.x + dot.width <= pane.x + pane.width && dot.y >= pane.y && dot.y + dot.height <= pane.y + pane.height).toBe(true);
  await find.fill('no such peer');
  await expect(page.locator('#map-found')).toHaveText('none found');
  await find.fill('');
  await expect(map.locator('.map-node.dimmed, .map-node.found')).toHaveCount(0);
});

test('the arrows are one stop of the Tab order, moved through with the arrow keys, the focused one haloed along its line, so a Tab from them reaches the nodes', async ({ page }) => {
  await page.goto(`${url}/map`);
  const map = mapOf(page);
  const arrows = map.getByRole('button');
  await expect(arrows.first()).toBeVisible();
  expect(await arrows.count()).toBeGreaterThan(2);
  await arrows.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(arrows.nth(1)).toBeFocused();
  // The focused arrow is drawn along its line, as a halo apart from the color of an arrow opened,
  // never as the browser's rectangle around the box it spans.
  const focusedLook = await arrows.nth(1).evaluate((edge) => ({ outline: getComputedStyle(edge).outlineStyle, halo: getComputedStyle(edge.querySelector('.map-edge-hit')!).stroke }));
  expect(focusedLook.outline).toBe('none');
  expect(focusedLook.halo).not.toBe('rgba(0, 0, 0, 0)');
  await page.keyboard.press('Tab');
  await expect(map.getByRole('link').first()).toBeFocused();
  // Back into the arrows, at the one last focused.
  await page.keyboard.press('Shift+Tab');
  await expect(arrows.nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('complementary', { name: 'Messages of the edge' })).toBeVisible();
});

test('the map as a list gives every edge with its ends written whole and each store’s count on a line, kept in the address, and opens its messages under it beside the sidebar', async ({ page }) => {
  await page.goto(`${url}/map`);
  await page.getByRole('group', { name: 'Shown as' }).getByRole('button', { name: 'List' }).click();
  await expect(page).toHaveURL(`${url}/map?view=list`);
  const table = page.getByRole('table', { name: /^Every edge, the latest first/ });
  const row = table.getByRole('row').filter({ has: page.getByRole('cell').first().filter({ hasText: SESSION_A }) }).filter({ has: page.getByRole('cell').nth(1).filter({ hasText: SESSION_B }) });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(0)).toHaveText(`${SESSION_A} (${SEAT_A})`);
  // The seat is on a line of its own under the full id, whole.
  const [id, seat] = [(await row.getByRole('cell').nth(0).locator('code').boundingBox())!, (await row.getByRole('cell').nth(0).getByText(`(${SEAT_A})`).boundingBox())!];
  expect(seat.y).toBeGreaterThanOrEqual(id.y + id.height - 1);
  const lineHeight = await row.getByRole('cell').nth(0).getByText(`(${SEAT_A})`).evaluate((span) => parseFloat(getComputedStyle(span).fontSize) * 1.6);
  expect(seat.height).toBeLessThan(lineHeight);
  await expect(row.getByRole('cell').nth(2).getByRole('listitem')).toHaveText([
    "2 messages, 1 not queued (the record, the sender's side)",
    "1 message (the record, the receiver's side)",
    "1 message (spex, the receiver's side)",
    "1 message (set-agent-comm, the sender's side)",
  ]);
  // A peer known only as its store wrote it is whole and in quotes, as on the drawing.
  await expect(table.getByRole('cell').filter({ hasText: 'cc-socks/9999.sock' }).first()).toHaveText('“uds:/tmp/cc-socks/9999.sock”');
  // Every edge the map has, and the head.
  const edges = ((await (await apiFetch(`${url}/api/map`)).json()) as { edges: unknown[] }).edges.length;
  await expect(table.getByRole('row')).toHaveCount(1 + edges);
  await row.getByRole('button', { name: /^Messages of / }).click();
  await expect(page).toHaveURL(new RegExp(`/map\\?view=list&from=session%3A${SESSION_A}&to=session%3A${SESSION_B}$`));
  const panel = page.getByRole('complementary', { name: 'Messages of the edge' });
  await expect(panel.getByRole('listitem')).toHaveCount(5);
  // At 1,280 px beside the sidebar, the messages go under the list, which keeps the room its ends need.
  await expect(page.locator('.sidebar')).toBeVisible();
  const [list, aside, from] = [(await table.boundingBox())!, (await panel.boundingBox())!, (await row.getByRole('cell').first().boundingBox())!];
  expect(aside.y, 'the messages are under the list').toBeGreaterThanOrEqual(list.y + list.height - 1);
  expect(from.width, 'an edge’s From is not squeezed').toBeGreaterThan(150);
  // Opened under the list, it is brought into view.
  await expect(panel.getByRole('heading')).toBeInViewport();
  await row.getByRole('link', { name: SESSION_B }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${SESSION_B}$`));
});

test('the map as a list in a window 1,000 px wide beside the sidebar squeezes no column: each cell of a row is a line of the view’s width, under its column’s name', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(`${url}/map?view=list`);
  await expect(page.locator('.sidebar')).toBeVisible();
  const table = page.getByRole('table', { name: /^Every edge/ });
  const row = table.locator('tr[data-edge]').first();
  await expect(row).toBeVisible();
  const view = (await page.locator('main.view').boundingBox())!;
  expect((await table.boundingBox())!.width).toBeLessThanOrEqual(view.width);
  const cells = await row.locator('td[data-label]').evaluateAll((all) => all.map((cell) => [cell.getAttribute('data-label'), Math.round(cell.getBoundingClientRect().width)] as const));
  expect(cells.filter(([, width]) => width < 400)).toEqual([]);
});

test('an edge’s messages opened under a list longer than the view are brought into view once they come, from their heading to their first message', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 460 });
  await page.goto(`${url}/map?view=list`);
  const row = page.getByRole('table', { name: /^Every edge/ }).locator('tr[data-edge]').first();
  await row.getByRole('button', { name: /^Messages of / }).click();
  const panel = page.getByRole('complementary', { name: 'Messages of the edge' });
  await expect(panel.getByRole('listitem').first()).toBeInViewport({ ratio: 1 });
  await expect(panel.getByRole('heading')).toBeInViewport({ ratio: 1 });
});

test('with an arrow opened, + zooms on it, kept where it is on screen, and the line under the drawing names it', async ({ page }) => {
  await page.goto(`${url}/map?from=session%3A${SESSION_A}&to=session%3A${SESSION_B}`);
  const map = mapOf(page);
  const edge = map.locator('.map-edge.selected');
  await expect(edge).toHaveCount(1);
  const middle = async () => {
    const box = (await edge.locator('.map-edge-line').boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  const before = await middle();
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(page.locator('.map-pointed')).toHaveText(new RegExp(`^${SESSION_A} → ${SESSION_B}: `));
  const [drawing, after] = [(await map.boundingBox())!, await middle()];
  expect(Math.abs(after.x - before.x)).toBeLessThan(drawing.width * 0.1);
  expect(Math.abs(after.y - before.y)).toBeLessThan(drawing.height * 0.1);
});

test('an edge opened is a step Back undoes, Escape closes it, and on a phone its messages and the list read under the map, not beside it', async ({ page }) => {
  await page.goto(`${url}/map`);
  await mapOf(page).getByRole('button', { name: `${SESSION_A} → ${SESSION_B}:` }).focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Messages of the edge' });
  await expect(panel).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(`${url}/map`);
  await expect(panel).toHaveCount(0);
  await page.goForward();
  await expect(panel).toBeVisible();
  // With the list of keys open over it, Escape closes the list alone: the page's keys wait behind a dialog.
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await page.keyboard.press('?');
  await expect(help).toBeVisible();
  // The list names the map's own keys.
  await expect(help).toContainText('on the map: the focused arrow’s messages');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(page).toHaveURL(`${url}/map`);
  // Escape undid the edge's step: Back leaves the map rather than opening the edge again.
  await page.goBack();
  await expect(page).not.toHaveURL(/[?&]from=/);
  await expect(panel).toHaveCount(0);
  // An edge opened by its address is no step of the map's: Escape closes it in place, even after
  // Back came to it from a step that was (the map's link, an edge opened, and Back twice).
  await page.goto(`${url}/map?from=session%3A${SESSION_A}&to=session%3A${SESSION_B}`);
  await expect(panel).toBeVisible();
  await page.getByRole('link', { name: 'Map: who talks to whom (g)' }).click();
  await expect(page).toHaveURL(`${url}/map`);
  await mapOf(page).getByRole('button', { name: `${SESSION_A} → ${SESSION_B}:` }).focus();
  await page.keyboard.press('Enter');
  await expect(panel).toBeVisible();
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(/[?&]from=/);
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(page).toHaveURL(`${url}/map`);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${url}/map?view=list`);
  const row = page.getByRole('table', { name: /^Every edge/ }).locator('tr[data-edge]').first();
  await row.getByRole('button', { name: /^Messages of / }).click();
  await expect(panel).toBeVisible();
  // Both boxes read in one frame: the messages are scrolled into view as they come, and two reads
  // apart could straddle a step of that scroll.
  const [list, aside] = await page.evaluate(() =>
    ['.map-list', '.map-edge-panel'].map((selector) => {
      const box = document.querySelector(selector)!.getBoundingClientRect();
      return { y: box.y, height: box.height, width: box.width };
    }),
  );
  expect(aside!.y, 'the messages are under the list').toBeGreaterThanOrEqual(list!.y + list!.height - 1);
  expect(aside!.width).toBeGreaterThan(300);
  // Each cell of a row has the screen's width, under its column's name.
  const cells = await row.locator('td[data-label]').evaluateAll((all) => all.map((cell) => [cell.getAttribute('data-label'), Math.round(cell.getBoundingClientRect().width)] as const));
  expect(cells.filter(([, width]) => width < 300)).toEqual([]);
});

test('the list keeps its order under the pointer while a message lands, and takes the latest first again when the pointer leaves', async ({ page }) => {
  await page.goto(`${url}/map?view=list`);
  const rows = page.getByRole('table', { name: /^Every edge/ }).locator('tr[data-edge]');
  await expect(rows.first()).toBeVisible();
  const first = await rows.first().getAttribute('data-edge');
  // A message lands on one of the two sessions' edges that is not the first row.
  const bToA = `session:${SESSION_B}\nsession:${SESSION_A}`;
  const [edge, seat, to] = first === bToA ? [`session:${SESSION_A}\nsession:${SESSION_B}`, SEAT_A, SEAT_B] : [bToA, SEAT_B, SEAT_A];
  await rows.first().hover();
  await stores.sacWriter.send({ op: 'send', room: SAC_ROOM, seat, ts: '2027-01-01T00:00:00.000+00:00', type: 'FACT', text: 'The latest of all.', to: [to] });
  // A newline in a CSS string is written `\a `.
  const moved = page.locator(`tr[data-edge="${edge.replace('\n', '\\a ')}"]`);
  await expect(moved.locator('td[data-label="Latest"]')).toContainText('2027-01-01');
  await expect(rows.first()).toHaveAttribute('data-edge', first!);
  await page.mouse.move(0, 0);
  await expect(rows.first()).toHaveAttribute('data-edge', edge);
});

test('the arrow pointed at or focused is named on a line under the drawing, never over the names of its lowest nodes', async ({ page }) => {
  await page.goto(`${url}/map`);
  const arrow = mapOf(page).getByRole('button', { name: `${SESSION_A} → ${SESSION_B}:` });
  await arrow.focus();
  const line = page.locator('.map-pointed');
  // What its name says, the counts by store and side.
  await expect(line).toHaveText((await arrow.getAttribute('aria-label'))!);
  const [drawing, named] = [(await mapOf(page).boundingBox())!, (await line.boundingBox())!];
  expect(named.y).toBeGreaterThanOrEqual(drawing.y + drawing.height - 0.5);
});
