import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { sacTime } from '../server/demo/sacWrite.ts';
import { EXAMPLE_STORE } from '../shared/sac/testing/exampleStore.ts';
import { writtenOn } from '../shared/sac/testing/machine.ts';
import { startSacWriter, type SacWriter } from '../tools/writer/sacWriter.ts';
import { apiFetch, conversationPath, sourceIdOf, startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { SessionWriting, startWriter, type Writer } from './support/record.ts';
import { expect, test, type Page } from './support/test.ts';

// A set-agent-comm store written by a real writer process as sac's CLI writes it (the example
// store, then live entries), with canaries in its secrets, read by the real command beside a record
// that holds one of its seats' sessions.

const API = 'api-service#c4e10000';
const WEB = 'web-app#3f9c1a20';
const WEB_SESSION = '3f9c1a20-1111-2222-3333-444455556666';
const CANARIES = ['CANARY-relay-e2e-61d2', 'CANARY-token-e2e-90ab'];
const QUESTION_TIME = '2026-11-30T17:18:53.482+00:00';

let parent = '';
let sacWriter: SacWriter;
let recordWriter: Writer;
let dashboard: RunningDashboard;
let url = '';
let source = '';

test.beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'rec-e2e-sac-'));
  const store = path.join(parent, 'sac');
  const record = path.join(parent, 'record');
  await mkdir(store);
  await mkdir(record);
  sacWriter = await startSacWriter(store);
  for (const [file, text] of Object.entries(writtenOn(hostname(), EXAMPLE_STORE))) await sacWriter.send({ op: 'raw', path: file, bytes: Buffer.from(text).toString('base64') });
  await sacWriter.send({ op: 'raw', path: 'relays.json', bytes: Buffer.from(JSON.stringify({ relay: 'https://comm.example.com', secret: CANARIES[0] })).toString('base64') });
  await sacWriter.send({ op: 'raw', path: 'http-tokens.json', bytes: Buffer.from(JSON.stringify({ 'web-app': { token: CANARIES[1] } })).toString('base64') });
  // The web-app seat's session, as its plugin recorded it.
  recordWriter = await startWriter(record);
  const session = new SessionWriting(recordWriter, '/home/dev/projects/web-app', WEB_SESSION);
  await session.start();
  await session.sent({ as: 'api-service' }, 'The cart client is on 2.4.0 now.');
  await session.received({ as: 'api-service' }, 'Thanks, the cart looks right.', 'queued');
  dashboard = await startDashboard([record, store]);
  url = dashboard.url;
  for (let i = 0; i < 200 && source === ''; i++) {
    const list = (await (await apiFetch(`${url}/api/sessions`)).json()) as { sources: { kind: string; id: string; indexing: { state: string } }[] };
    const sac = list.sources.find((candidate) => candidate.kind === 'sac');
    if (sac !== undefined && list.sources.every((candidate) => candidate.indexing.state === 'ready')) source = sac.id;
    else await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (source === '') throw new Error('the set-agent-comm store was not read');
});

test.afterAll(async () => {
  await dashboard?.stop();
  await sacWriter?.close();
  await recordWriter?.kill();
  if (parent !== '') await rm(parent, { recursive: true, force: true });
});

const flowOf = (page: Page) => page.getByRole('region', { name: 'Flow' });

test('the top bar leads to the rooms, and a room’s flow lists its entries in time order with writer, type and to or everyone', async ({ page }) => {
  await page.goto(url);
  await page.getByRole('banner').getByRole('link', { name: 'Rooms' }).click();
  await expect(page).toHaveURL(`${url}/source/${source}/rooms`);
  // Every column of the rooms' table is named, as the other tables' are.
  await expect(page.getByRole('columnheader')).toHaveText(['Room', 'Members', 'Entries', 'Last entry', 'Degraded']);
  await page.getByRole('link', { name: '#team' }).click();
  const entries = flowOf(page).getByRole('article');
  await expect(entries).toHaveCount(4);
  expect(await entries.evaluateAll((articles) => articles.map((article) => article.getAttribute('aria-label')))).toEqual([
    `QUESTION by ${API}`,
    `FACT by ${API}`,
    `ANSWER by ${WEB}`,
    `REQUEST by ${API}`,
  ]);
  expect(await entries.locator('.sac-to').allTextContents()).toEqual(['→ web-app', '→ everyone', '→ api-service', `→ ${WEB}`]);
  // Each time in the page's zone, the header's time as written on hover.
  const times = ['2026-11-30T17:18:53.482+00:00', '2026-11-30T17:18:53.590+00:00', '2026-11-30T17:18:53.872+00:00', '2026-11-30T17:18:53.956+00:00'];
  expect(await entries.locator('.sac-time').allTextContents()).toEqual(times.map((time) => `${time.slice(0, 10)} ${time.slice(11, 23)} UTC`));
  expect(await entries.locator('.sac-time').evaluateAll((found) => found.map((time) => time.getAttribute('title')))).toEqual(times);
});

test('a seat shows Sent and Received side by side, each received entry marked as sac’s cursor says (read, unread, or, its session gone, its backlog), labelled as sac’s', async ({ page }) => {
  await page.goto(url);
  await page.getByRole('link', { name: `set-agent-comm seat ${WEB}` }).click();
  // Named as a seat, not as one more room under "Rooms".
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Seat ${WEB}`);
  // One time axis: each entry in its column, sent on the left, received on the right.
  const sent = page.locator('[data-column="sent"]');
  const received = page.locator('[data-column="received"]');
  await expect(sent.getByRole('article')).toHaveCount(1);
  await expect(received.getByRole('article')).toHaveCount(3);
  const [left, right] = [await sent.first().boundingBox(), await received.first().boundingBox()];
  expect(left!.x + left!.width).toBeLessThanOrEqual(right!.x);
  // The example's web-app session has ended: sac's rule is that a closed session is not behind, it is
  // gone, so the entry past its cursor is its backlog, and the heading gives the backlog apart, never as unread.
  expect(await received.locator('.sac-cursor').allTextContents()).toEqual(['sac’s cursor: read', 'sac’s cursor: read', 'past sac’s cursor: backlog, its session is gone']);
  await expect(received.locator('.sac-cursor').first()).toHaveAttribute('title', /not what the session read/);
  await expect(received.locator('.sac-cursor').last()).toHaveAttribute('title', /never as unread/);
  await expect(page.locator('.conversation-columns .side-received')).toContainText('gone: backlog of 1 not counted as unread');
  await expect(page.locator('.conversation-columns .side-received')).not.toContainText('unread by sac’s cursor');
  await expect(page.getByText(/\bread by/)).toHaveCount(0);
});

test('a seat’s session links to the same session in the record', async ({ page }) => {
  await page.goto(`${url}${conversationPath(source, WEB)}`);
  const link = page.getByRole('link', { name: `Session ${WEB_SESSION} in the record` });
  await expect(link).toHaveAttribute('href', conversationPath(sourceIdOf('record', path.join(parent, 'record')), WEB_SESSION));
  await link.click();
  await expect(page.getByText('The cart client is on 2.4.0 now.')).toBeVisible();
});

test('a reply’s re link opens the entry it names, highlighted in its room’s flow', async ({ page }) => {
  await page.goto(`${url}${conversationPath(source, WEB)}`);
  const answer = page.locator('[data-column="sent"]').getByRole('article', { name: `ANSWER by ${WEB}` });
  await expect(answer.locator('.sac-re')).toContainText('re 2026-11-30 17:18:53.482 UTC');
  await expect(answer.locator('.sac-re time')).toHaveAttribute('title', QUESTION_TIME);
  await answer.locator('.sac-re').getByRole('link', { name: API }).click();
  await expect(page).toHaveURL(new RegExp(`/source/${source}/rooms/team/item/`));
  const question = flowOf(page).getByRole('article', { name: `QUESTION by ${API}` });
  await expect(question).toHaveAttribute('aria-current', 'true');
  await expect(question).toBeInViewport();
  await expect(flowOf(page).locator('[aria-current="true"]')).toHaveCount(1);
});

test('every entry of a seat and of a room copies a link to itself, and the link reopens its page at that entry', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const copyOf = async (entry: ReturnType<Page['locator']>) => {
    const item = (await entry.getAttribute('data-item'))!;
    await entry.getByRole('button', { name: `Copy a link to entry ${item}` }).click();
    return { item, copied: await page.evaluate(() => navigator.clipboard.readText()) };
  };
  // In a seat's page: its place there.
  await page.goto(`${url}${conversationPath(source, WEB)}`);
  const answer = await copyOf(page.locator('[data-column="sent"]').getByRole('article', { name: `ANSWER by ${WEB}` }));
  expect(answer.copied).toBe(`${url}${conversationPath(source, WEB, answer.item)}`);
  // In a room's flow: its place in the flow.
  await page.goto(`${url}/source/${source}/rooms/team`);
  const question = await copyOf(flowOf(page).getByRole('article', { name: `QUESTION by ${API}` }));
  expect(question.copied).toBe(`${url}/source/${source}/rooms/team/item/${encodeURIComponent(question.item)}`);
  for (const { item, copied } of [answer, question]) {
    await page.goto(copied);
    await expect(page.locator(`[data-item="${item}"]`)).toHaveAttribute('aria-current', 'true');
    await expect(page.locator(`[data-item="${item}"]`)).toBeInViewport();
  }
});

test('a search by set-agent-comm type finds only sac entries, and a hit opens its entry highlighted in its room’s flow', async ({ page }) => {
  await page.goto(`${url}/search`);
  await page.getByRole('searchbox', { name: 'Text to find' }).fill('cart');
  await page.getByLabel('type', { exact: true }).selectOption('QUESTION');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/type=QUESTION/);
  const hits = page.getByRole('region', { name: 'Search results' }).getByRole('listitem');
  await expect(hits).toHaveCount(1);
  await expect(hits.first()).toContainText('sac');
  await expect(hits.first()).toContainText('Does the cart still POST /v1/orders');
  await hits.first().getByRole('link', { name: new RegExp(`Open entry by ${API} in room team`) }).click();
  await expect(page).toHaveURL(new RegExp(`/source/${source}/rooms/team/item/`));
  await expect(flowOf(page).getByRole('article', { name: `QUESTION by ${API}` })).toHaveAttribute('aria-current', 'true');
});

test('a search by room or writer lists no record entry, and one by outcome no sac entry', async ({ page }) => {
  await page.goto(`${url}/search?q=cart&sac.room=team`);
  const hits = page.getByRole('region', { name: 'Search results' }).getByRole('listitem');
  await expect(hits).toHaveCount(2);
  await expect(page.getByLabel('room', { exact: true })).toHaveValue('team');
  await page.goto(`${url}/search?q=cart&sac.writer=${encodeURIComponent(WEB)}`);
  await expect(hits).toHaveCount(0);
  await expect(page.getByRole('status')).toContainText('0 entries');
  await page.goto(`${url}/search?q=cart&record.outcome=queued`);
  await expect(hits).toHaveCount(1);
  await expect(hits.first()).toContainText('Thanks, the cart looks right.');
  await page.goto(`${url}/search?q=cart&record.refused=1`);
  await expect(page.getByRole('status')).toContainText('0 entries');
});

test('an entry written while a room is open appears in its flow without a reload', async ({ page }) => {
  await page.goto(`${url}/source/${source}/rooms/team`);
  await expect(flowOf(page).getByRole('article')).toHaveCount(4);
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  const text = 'Written live, while the room was open.';
  await sacWriter.send({ op: 'send', room: 'team', seat: WEB, ts: sacTime(), type: 'FACT', text });
  const live = flowOf(page).getByRole('article').last();
  await expect(live).toContainText(text);
  await expect(live).toHaveAttribute('aria-label', `FACT by ${WEB}`);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});

test('the secrets’ canaries are in no page and no response', async ({ page }) => {
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (!(response.headers()['content-type'] ?? '').includes('event-stream')) bodies.push(response.text().catch(() => ''));
  });
  const seen: string[] = [];
  const visit = async (path: string, ready: () => Promise<void>) => {
    await page.goto(`${url}${path}`);
    await ready();
    seen.push(await page.content());
  };
  await visit('/', () => expect(page.getByRole('link', { name: `set-agent-comm seat ${WEB}` })).toBeVisible());
  await visit(`/source/${source}/rooms`, () => expect(page.getByRole('link', { name: '#team' })).toBeVisible());
  for (const room of ['team', 'dm-api-service-c4e10000-web-app-3f9c1a20']) await visit(`/source/${source}/rooms/${room}`, () => expect(page.getByRole('heading', { name: `#${room}` })).toBeVisible());
  for (const seat of [WEB, API, 'web-app#7b02e5d1']) {
    await visit(conversationPath(source, seat), () => expect(page.getByRole('feed', { name: 'Entries in time order' })).toBeVisible());
    await page.getByLabel(/show entries addressed to others/).check();
    seen.push(await page.content());
  }
  for (const q of ['CANARY', 'relay', 'token', 'secret']) await visit(`/search?q=${q}`, () => expect(page.getByRole('status')).toBeVisible());
  const answered = await Promise.all(bodies);
  expect(answered.length).toBeGreaterThan(10);
  for (const canary of CANARIES) {
    for (const text of [...seen, ...answered]) expect(text).not.toContain(canary);
  }
});

test('a seat downloads as NDJSON, JSON and Markdown from the same links as a record session', async ({ page }) => {
  await page.goto(`${url}${conversationPath(source, WEB)}`);
  const group = page.getByRole('group', { name: 'Download this seat' });
  const download = async (label: string) => {
    const [got] = await Promise.all([page.waitForEvent('download'), group.getByRole('link', { name: `Download this seat as ${label}` }).click()]);
    return { name: got.suggestedFilename(), text: (await readFile((await got.path())!)).toString('utf8') };
  };
  const ndjson = await download('NDJSON');
  expect(ndjson.name).toBe('sac-web-app_3f9c1a20.ndjson');
  const lines = ndjson.text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines[0]!['type']).toBe('seat');
  for (const line of lines.slice(1)) {
    const onDisk = await readFile(path.join(parent, 'sac', line['file'] as string));
    expect(Buffer.from(line['fileText'] as string, 'utf8').equals(onDisk.subarray(line['start'] as number, line['end'] as number))).toBe(true);
  }
  const md = await download('Markdown');
  expect(md.name).toBe('sac-web-app_3f9c1a20.md');
  expect(md.text).toContain('sac’s cursor');
  for (const canary of CANARIES) expect(md.text + ndjson.text).not.toContain(canary);
  const json = await download('JSON');
  expect(JSON.parse(json.text)).toMatchObject({ schema: 'rec.sac-seat/1', others: true });
});

test('a room downloads as NDJSON, JSON and Markdown from its page: its whole flow in time order', async ({ page }) => {
  await page.goto(`${url}/source/${source}/rooms/team`);
  const group = page.getByRole('group', { name: 'Download this room' });
  const download = async (label: string) => {
    const [got] = await Promise.all([page.waitForEvent('download'), group.getByRole('link', { name: `Download this room as ${label}` }).click()]);
    return { name: got.suggestedFilename(), text: (await readFile((await got.path())!)).toString('utf8') };
  };
  const ndjson = await download('NDJSON');
  expect(ndjson.name).toBe('sac-room-team.ndjson');
  const lines = ndjson.text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines[0]).toMatchObject({ type: 'room', room: 'team', items: lines.length - 1 });
  // The example's four first (another test may have written one since, later in time).
  expect(lines.slice(1, 5).map((line) => [line['seat'], line['typeWord']])).toEqual([
    [API, 'QUESTION'],
    [API, 'FACT'],
    [WEB, 'ANSWER'],
    [API, 'REQUEST'],
  ]);
  const md = await download('Markdown');
  expect(md.text).toMatch(/^# Room `team`/);
  for (const canary of CANARIES) expect(md.text + ndjson.text).not.toContain(canary);
  const json = await download('JSON');
  expect(JSON.parse(json.text)).toMatchObject({ schema: 'rec.sac-room/1', total: lines.length - 1 });
});
