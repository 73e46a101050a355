import type { Page } from '@playwright/test';
import { waitForItems } from './support/dashboard.ts';
import { useLiveRecord } from './support/liveRecord.ts';
import { SessionWriting } from './support/record.ts';
import { expect, test } from './support/test.ts';

// The map's drawing, fitted to a laptop's pane, over a record shaped as a machine's often is: a
// few projects of a few sessions, and one session that wrote to a dozen sockets it could not
// resolve, each a peer known only by its long address. The names are read at the size they are
// drawn, not at a zoom a reader must find.

const live = useLiveRecord(test, 'map-layout');
const SOCKETS = Array.from({ length: 12 }, (_, i) => `uds:/tmp/cc-socks/${3001 + i}.sock`);
/**
 * The sessions' ids, the same in every run: a node's row in its box follows the force, which
 * follows the ids, and some orders of random ids made a box wider for a newcomer, or a new layout
 * a quarter larger (docs/usage.md: the map), which move other nodes by the map's own rule.
 */
const idOf = (index: number) => `${'a1b2c3d4e5f60718'.slice(index * 2, index * 2 + 2)}5e0000-0000-4000-8000-${String(index).padStart(12, '0')}`;

/** The map in a laptop's pane: its group, its names, and each node's place in the drawing by its name. */
async function openMap(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${live.url}/map`);
  const map = page.getByRole('group', { name: 'Map of who talks to whom' });
  const places = (): Promise<Record<string, string>> =>
    map.locator('.map-node').evaluateAll((nodes) => Object.fromEntries(nodes.map((node) => [node.querySelector('.map-label')!.textContent, `${node.querySelector('circle')!.getAttribute('cx')},${node.querySelector('circle')!.getAttribute('cy')}`])));
  return { map, labels: map.locator('.map-label'), places };
}

test.beforeAll(async () => {
  const projects = { 'api-service': 3, docs: 2, 'web-app': 2 };
  const sessions: SessionWriting[] = [];
  for (const [name, count] of Object.entries(projects)) {
    for (let i = 0; i < count; i++) sessions.push(new SessionWriting(live.writer, `/home/dev/projects/${name}`, idOf(sessions.length)));
  }
  for (const session of sessions) await session.start();
  // Each session wrote to the next: edges between projects.
  for (const [at, session] of sessions.entries()) {
    const next = sessions[(at + 1) % sessions.length]!;
    await session.sent({ as: 'uds:/tmp/cc-socks/4242.sock', sessionId: next.sessionId }, `hello from ${at}`);
  }
  for (const socket of SOCKETS) await sessions[0]!.sent({ as: socket }, `to ${socket}`);
  await waitForItems(live.url, sessions[0]!.sessionId, 2 + SOCKETS.length);
});

test('fitted to a laptop’s pane, the map of a dozen long-addressed peers and three projects draws every name at 9 px or more, none over another', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${live.url}/map`);
  const labels = page.getByRole('group', { name: 'Map of who talks to whom' }).locator('.map-label');
  await expect(labels).toHaveCount(7 + SOCKETS.length);
  const drawn = await labels.evaluateAll((texts) =>
    texts.map((text) => {
      const box = text.getBoundingClientRect();
      const scale = (text as SVGTextElement).getScreenCTM()!.a;
      return { text: text.textContent, px: parseFloat(getComputedStyle(text).fontSize) * scale, left: box.left, right: box.right, top: box.top, bottom: box.bottom };
    }),
  );
  for (const label of drawn) expect(label.px, `${label.text} drawn at ${label.px.toFixed(1)} px`).toBeGreaterThanOrEqual(9);
  for (const [at, one] of drawn.entries()) {
    for (const other of drawn.slice(at + 1)) {
      const apart = one.right <= other.left || other.right <= one.left || one.bottom <= other.top || other.bottom <= one.top;
      expect(apart, `${one.text} and ${other.text} overlap`).toBe(true);
    }
  }
  // Fitted: every name is in the pane.
  const pane = (await page.locator('.map-svg').boundingBox())!;
  for (const label of drawn) {
    expect(label.left >= pane.x && label.right <= pane.x + pane.width && label.top >= pane.y && label.bottom <= pane.y + pane.height, `${label.text} in the pane`).toBe(true);
  }
});

test('opening an arrow’s messages beside the drawing, and closing them, leaves every node where it was', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  await page.goto(`${live.url}/map`);
  const map = page.getByRole('group', { name: 'Map of who talks to whom' });
  await expect(map.locator('.map-label')).toHaveCount(7 + SOCKETS.length);
  const places = () => map.locator('.map-node circle').evaluateAll((dots) => dots.map((dot) => `${dot.getAttribute('cx')},${dot.getAttribute('cy')}`).join(' '));
  const before = await places();
  await map.locator('.map-edge[tabindex="0"]').focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Messages of the edge' });
  await expect(panel).toBeVisible();
  // Beside the drawing: the drawing's pane is narrower while they are open.
  expect((await panel.boundingBox())!.x).toBeGreaterThan((await map.boundingBox())!.x);
  await page.waitForTimeout(300);
  expect(await places()).toBe(before);
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await page.waitForTimeout(300);
  expect(await places()).toBe(before);
});

test('a session that begins to talk while the map is open is drawn beside the others, every other node left where it was', async ({ page }) => {
  const { labels, places } = await openMap(page);
  await expect(labels).toHaveCount(7 + SOCKETS.length);
  const before = await places();
  // A new session in a project drawn already, writing to a socket not drawn yet.
  const newcomer = new SessionWriting(live.writer, '/home/dev/projects/docs', idOf(7));
  await newcomer.start();
  await newcomer.sent({ as: 'uds:/tmp/cc-socks/5150.sock' }, 'hello, map');
  await expect(labels).toHaveCount(7 + SOCKETS.length + 2);
  const after = await places();
  for (const [name, place] of Object.entries(before)) expect(after[name], name).toBe(place);
});

test('a pane that goes back to a shape it had draws every node where it was in that shape, with a session that began to talk meanwhile beside them', async ({ page }) => {
  const { labels, places } = await openMap(page);
  await expect(labels).not.toHaveCount(0);
  const drawn = await labels.count();
  const before = await places();
  const placesOfThose = async () => Object.fromEntries(Object.entries(await places()).filter(([name]) => name in before));
  // A narrower pane is another shape: the drawing is laid out for it.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect.poll(placesOfThose).not.toEqual(before);
  // A session begins to talk while the pane has that shape.
  const newcomer = new SessionWriting(live.writer, '/home/dev/projects/web-app', 'f95e0000-0000-4000-8000-000000000009');
  await newcomer.start();
  await newcomer.sent({ as: 'uds:/tmp/cc-socks/6160.sock' }, 'hello, narrow map');
  await expect(labels).toHaveCount(drawn + 2);
  // The pane as it was: the places it had, the newcomer and its peer drawn too.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(placesOfThose).toEqual(before);
  await expect(labels).toHaveCount(drawn + 2);
});

test('a session drawn in one project whose entries then name another moves to that project’s box, every other node left where it was', async ({ page }) => {
  const { map, labels, places } = await openMap(page);
  await expect(labels).not.toHaveCount(0);
  const drawn = await labels.count();
  // A session with no start entry belongs to the directory its latest entry names.
  const id = 'fa5e0000-0000-4000-8000-00000000000a';
  const label = 'fa5e0000…00000a';
  const inWebApp = new SessionWriting(live.writer, '/home/dev/projects/web-app', id);
  await inWebApp.sent({ as: 'uds:/tmp/cc-socks/4242.sock', sessionId: idOf(0) }, 'written in web-app');
  await expect(labels).toHaveCount(drawn + 1);
  const before = await places();
  const inDocs = new SessionWriting(live.writer, '/home/dev/projects/docs', id);
  inDocs.seq = inWebApp.seq;
  await inDocs.sent({ as: 'uds:/tmp/cc-socks/4242.sock', sessionId: idOf(0) }, 'written in docs');
  await expect.poll(async () => (await places())[label]).not.toBe(before[label]);
  const after = await places();
  for (const [name, place] of Object.entries(before)) if (name !== label) expect(after[name], name).toBe(place);
  // It stands in the docs box now: the box whose title is docs holds its dot.
  const boxOf = await map.evaluate((svg, name) => {
    const rects = [...svg.querySelectorAll('.map-project rect')];
    const titles = [...svg.querySelectorAll('.map-project-names text')].map((text) => text.textContent);
    const dot = [...svg.querySelectorAll('.map-node')].find((node) => node.querySelector('.map-label')!.textContent === name)!.querySelector('circle')!;
    const [x, y] = [Number(dot.getAttribute('cx')), Number(dot.getAttribute('cy'))];
    const at = rects.findIndex((rect) => {
      const [left, top, width, height] = ['x', 'y', 'width', 'height'].map((key) => Number(rect.getAttribute(key)));
      return x >= left! && x <= left! + width! && y >= top! && y <= top! + height!;
    });
    return titles[at];
  }, label);
  expect(boxOf).toBe('docs');
});
