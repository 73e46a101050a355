import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSpexWriter, type SpexWriter } from '../tools/writer/spexWriter.ts';
import { apiFetch, conversationPath, sourceIdOf, startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { SessionWriting, startWriter, type Writer } from './support/record.ts';
import { expect, openFolded, test, type Page } from './support/test.ts';

// A spex home written by spex's own way of writing (tools/writer/spexWriter.ts, a real writer
// process), beside a record that holds one of its sessions, read by the real command: a spex
// session's Sent | Received, its declarations in place, its lines as they are appended, and
// spex's private delivery data nowhere on the page or on the wire.

const PROJECT = '-home-dev-shop';
const A = 'aaaaaaaa-1111-4000-8000-00000000000a';
const B = 'bbbbbbbb-2222-4000-8000-00000000000b';
const C = 'cccccccc-3333-4000-8000-00000000000c';

const PERSON_TEXT = 'please add a retry to the checkout call';
const ISSUES_TEXT = 'from the issue tracker: #418 is yours';
const PEER_TEXT = 'can you take the lint fix?';
const HINT = `\n\n— from session "currency" (${B}). To reply: spex session send ${B} "<your reply>"`;
const SENT_TEXT = 'sure, after the currency tests';
const ASKING_NOTE = 'Should the retry back off exponentially,\nor is a fixed 500 ms enough?';
const REVIEW_NOTE = 'Retry added with exponential backoff (cap 5 s).\nTests: 41 passed.';
const LONG_TAIL = 'THE-LAST-WORDS-OF-A-LONG-TEXT';
const LONG_TEXT = `${'a long text, clipped on the page and whole on demand. '.repeat(1_400)}${LONG_TAIL}`;

const SETTLED_CANARY = 'CANARY-E2E-SETTLED-3d81f0';
const RECEIPT_CANARY = 'CANARY-E2E-RECEIPT-a7c442';
const CANARIES = [SETTLED_CANARY, RECEIPT_CANARY, 'dispatchReceipt', 'dispatch-settled'];

const base = Date.now() - 60 * 60_000;
const at = (minute: number) => new Date(base + minute * 60_000).toISOString();
const where = (sessionId: string) => ({ project: PROJECT, sessionId });

function sessionJson(sessionId: string, title: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    session_id: sessionId,
    worktree_path: '/home/dev/shop',
    branch: `node/${title}`,
    title,
    name: '',
    parent: '',
    status: 'active',
    proposal: '',
    note: '',
    createdAt: base,
    harness: 'claude',
    stopped: false,
    archived: false,
    ...fields,
  };
}

const sent = (minute: number, text: string, from: string | null, extra: Record<string, unknown> = {}) => ({ ts: at(minute), kind: 'sent', mid: crypto.randomUUID(), text, from, ...extra });
const status = (minute: number, value: string, proposal: string | null, note: string | null) => ({ ts: at(minute), kind: 'status', status: value, proposal, note });

let parent = '';
let home = '';
let recordDir = '';
let spexWriter: SpexWriter;
let recordWriter: Writer;
let dashboard: RunningDashboard;
let url = '';
let source = '';

test.beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'rec-e2e-spex-'));
  home = path.join(parent, 'spex-home');
  recordDir = path.join(parent, 'record');
  await mkdir(home);
  await mkdir(recordDir);
  spexWriter = await startSpexWriter(home);
  const write = (sessionId: string, event: Record<string, unknown>) => spexWriter.send({ op: 'event', ...where(sessionId), event, bound: 2048 });
  await spexWriter.send({ op: 'session', ...where(A), value: sessionJson(A, 'checkout', { status: 'awaiting', proposal: 'merge', note: 'Ready for review: retry with backoff.' }) });
  await spexWriter.send({ op: 'session', ...where(B), value: sessionJson(B, 'currency') });
  await spexWriter.send({ op: 'session', ...where(C), value: sessionJson(C, 'docs') });
  // A's own log: declarations, a person, a peer with spex's reply hint and its private receipt,
  // spex's private settlement of it, a name that is neither, and a line that does not parse.
  await write(A, status(1, 'active', null, null));
  await write(A, sent(2, PERSON_TEXT, null, { replyVia: 'note' }));
  await write(A, sent(3, ISSUES_TEXT, 'issues'));
  await write(A, sent(4, `${PEER_TEXT}${HINT}`, B, { dispatchReceipt: { digest: RECEIPT_CANARY, bytes: RECEIPT_CANARY } }));
  await write(A, { ts: at(4), kind: 'dispatch-settled', mid: 'settled-1', receipt: SETTLED_CANARY });
  await write(A, status(6, 'asking', null, ASKING_NOTE));
  await spexWriter.send({ op: 'bytes', ...where(A), base64: Buffer.from('{"ts":"2026-11-30T10:00:00.000Z","kind":"sent","text":"cut\n').toString('base64'), bound: 2048 });
  await write(A, status(9, 'awaiting', 'merge', REVIEW_NOTE));
  // B's log holds what A sent it: A's Sent column, from B's log.
  await write(B, sent(5, SENT_TEXT, A));
  await write(C, sent(7, LONG_TEXT, null));

  // The same Claude Code session in the record: A's view links to it.
  recordWriter = await startWriter(recordDir);
  const recordSession = new SessionWriting(recordWriter, '/home/dev/shop', A);
  await recordSession.start();

  // The home holds projects/*/sessions/ by now: the command recognises it by what it holds.
  dashboard = await startDashboard([recordDir, home]);
  url = dashboard.url;
  const list = (await (await apiFetch(`${url}/api/sessions`)).json()) as { sources: { kind: string; id: string }[] };
  source = list.sources.find((candidate) => candidate.kind === 'spex')!.id;
  await waitForSpexItems(A, 8);
});

test.afterAll(async () => {
  await dashboard?.stop();
  await spexWriter?.kill();
  await recordWriter?.kill();
  if (parent !== '') await rm(parent, { recursive: true, force: true });
});

const sessionUrl = (sessionId: string) => `${url}/source/${source}/conversation/${sessionId}`;
const column = (page: Page, name: 'sent' | 'received' | 'both') => page.locator(`[data-column="${name}"]`);
const itemsInOrder = (page: Page) =>
  page.locator('.conversation-row').evaluateAll((rows) =>
    rows
      .sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')))
      .map((row) => row.querySelector('[data-item]'))
      .filter((item) => item !== null)
      .map((item) => `${item.closest('[data-column]')!.getAttribute('data-column')}: ${item.getAttribute('aria-label')}`),
  );

test("a spex session shows what it received from a person and from a peer, and what it sent from the receiver's log, side by side", async ({ page }) => {
  await page.goto(sessionUrl(A));
  await expect(page.locator('.conversation-columns > *')).toHaveText([/^Sent/, /^Received/]);

  const person = column(page, 'received').locator('article', { hasText: PERSON_TEXT });
  await expect(person).toHaveAttribute('aria-label', 'Received from a person');
  await expect(person).toContainText('from a person');
  await expect(person).toContainText('reply via note');
  await expect(person.locator('.entry-text')).toHaveText(PERSON_TEXT);
  // Its time and its place in its log read as two phrases, copied or read aloud.
  await expect(person.locator('.spex-place')).toContainText(/UTC line \d+ of its log/);

  const peer = column(page, 'received').locator('article', { hasText: PEER_TEXT });
  await expect(peer).toHaveAttribute('aria-label', `Received from session ${B} · currency · node/currency`);
  await expect(peer.getByRole('link', { name: B, exact: true })).toHaveAttribute('href', `/source/${source}/conversation/${B}`);
  // The text is whole, hint included, and the hint is marked as spex's.
  await expect(peer.locator('.entry-text')).toHaveText(`${PEER_TEXT}${HINT}`);
  await expect(peer.locator('.spex-hint')).toHaveText(HINT);
  await expect(peer).toContainText("spex's reply hint");

  const issues = column(page, 'received').locator('article', { hasText: ISSUES_TEXT });
  await expect(issues).toHaveAttribute('aria-label', 'Received from “issues”, as spex wrote it');
  // A sender's name is as written, said so: never read as a person's words.
  await expect(issues.locator('.peer-as')).toHaveText('issues (as written)');
  await expect(issues.locator('.spex-person')).toHaveCount(0);

  const mine = column(page, 'sent').locator('article', { hasText: SENT_TEXT });
  await expect(mine).toHaveAttribute('aria-label', `Sent to session ${B} · currency · node/currency`);
  await expect(mine).toContainText("From the receiver's log");
  // Joined by the stored id, never by text or time: said on the card's mark, and once for the page.
  await expect(mine.locator('.page-mark-two-sides')).toHaveAttribute('title', /joined by the id the store wrote in it, never by text or time/);
  await expect(page.getByRole('complementary', { name: 'What the marks on the cards mean' })).toContainText('joined by the id the store wrote in it, never by text or time');
  await expect(mine.getByRole('link', { name: B, exact: true })).toHaveAttribute('href', `/source/${source}/conversation/${B}`);
  await expect(column(page, 'sent').locator('article')).toHaveCount(1);
});

test("a session's Sent says it may be more where another session's log holds a line not read as an event, and links that log at the line: never for its own log's", async ({ page }) => {
  // A's log holds a damaged line: whose it is, nothing says, so it may be a message B sent.
  await page.goto(sessionUrl(B));
  const note = page.locator('.spex-sent-unknown');
  await expect(note.locator('summary')).toHaveText('What it sent may be more: 1 line of 1 other log not read');
  await openFolded(note.locator('details'));
  await expect(note).toContainText("1 line not read as an event (damaged, torn, or JSON that is not an event) in 1 other session's log: whose it is, nothing says, so it may be a message this session sent.");
  // At that log's line not read (its sixth), where a link opens it selected.
  const log = note.getByRole('link', { name: A });
  await expect(log).toHaveAttribute('href', `/source/${source}/conversation/${A}/item/line-6`);
  await log.click();
  await expect(page.locator('.conversation-row.selected')).toContainText('"kind":"sent","text":"cut');
  await page.goto(sessionUrl(A));
  await expect(page.locator('.conversation-columns > *')).toHaveText([/^Sent/, /^Received/]);
  await expect(page.locator('.spex-sent-unknown')).toHaveCount(0);
});

test('declarations span both columns in their place, with spex’s word, the raw status, the proposal and the note', async ({ page }) => {
  // Tall enough for every item of the session to be in the page: the list is virtualized.
  await page.setViewportSize({ width: 1280, height: 2400 });
  await page.goto(sessionUrl(A));
  await expect(page.locator('[data-item]').first()).toBeVisible();
  expect(await itemsInOrder(page)).toEqual([
    'both: Declaration: working',
    'received: Received from a person',
    'received: Received from “issues”, as spex wrote it',
    `received: Received from session ${B} · currency · node/currency`,
    `sent: Sent to session ${B} · currency · node/currency`,
    'both: Declaration: asking',
    'both: Line 6: damaged',
    'both: Declaration: review',
  ]);
  // A's fifth line is private (dispatch-settled): neither shown nor numbered, so the asking
  // declaration after it is the fifth line shown, and its number says what it counts.
  const asking = column(page, 'both').locator('article', { hasText: 'Should the retry' });
  await expect(asking.locator('.spex-place .seq')).toHaveText('line 5 of its log');
  await expect(asking.locator('.spex-place .seq')).toHaveAttribute('title', /numbered across the log's segments, among those shown: a line spex keeps private is neither shown nor counted/);
  const review = column(page, 'both').locator('article', { hasText: 'Tests: 41 passed.' });
  await expect(review).toContainText('review');
  await expect(review).toContainText('status awaiting');
  await expect(review).toContainText('proposal merge');
  await expect(review.locator('.entry-text')).toHaveText(REVIEW_NOTE);
  const damaged = column(page, 'both').locator('article', { hasText: 'damaged' });
  await expect(damaged).toContainText('"kind":"sent","text":"cut');
});

test('the header says what session.json holds now, labelled current and not history, the project and the source', async ({ page }) => {
  await page.goto(sessionUrl(A));
  const header = page.locator('.spex-header');
  await expect(header.locator('h1')).toContainText('checkout');
  // The id and the button that copies it are two words, apart on the page.
  await expect(header).toContainText(`${A} Copy id`);
  await expect(header).toContainText('node/checkout');
  await expect(header).toContainText('/home/dev/shop');
  const now = header.getByRole('group', { name: 'Status now' });
  await expect(now).toContainText('current (session.json), not history');
  await expect(now).toContainText('review');
  await expect(now).toContainText('awaiting');
  await expect(now).toContainText('Ready for review: retry with backoff.');
  await expect(header).toContainText(`spex home ${home}`);
  // Its log's span and what it holds, under a name that says so.
  await expect(header.locator('.spex-facts dt')).toContainText(['branch', 'its log', 'source']);
  await expect(header.locator('.spex-facts dt', { hasText: 'its log' }).locator('+ dd')).toContainText(/ – .* · 3 declarations · \d+ segments?/);
  // A degraded log says why, never that nothing happened.
  const banner = page.getByRole('region', { name: 'Degraded timeline' });
  await expect(banner).toContainText('1 line does not parse (for example a write cut short): unknown evidence, not nothing.');
  // Its line is the log's, numbered across its segments (said on hover), then the segment it is in.
  await expect(banner.locator('[data-reason="damaged-line"]')).toContainText(/\. Log line \d+, in \S+\.ndjson/);
  await expect(banner.locator('[data-reason="damaged-line"] .reason-files').first()).toHaveAttribute('title', /^lines are numbered across the log's segments/);
});

test('a session that the record holds too links to its record view', async ({ page }) => {
  await page.goto(sessionUrl(A));
  await expect(page.locator('.spex-header').getByRole('link', { name: `Session ${A} in the record` })).toHaveAttribute('href', conversationPath(sourceIdOf('record', recordDir), A));
  await expect(page.locator('.spex-header').getByRole('link', { name: `Session ${A} in the record` })).toHaveText('its record session');
  await page.goto(sessionUrl(B));
  await expect(page.locator('.spex-header')).toContainText(B);
  await expect(page.locator('.spex-header').getByRole('link', { name: /in the record$/ })).toHaveCount(0);
});

test('lines appended to the logs appear without a reload, in both columns', async ({ page }) => {
  await page.goto(sessionUrl(B));
  const received = column(page, 'received').locator('article');
  await expect(column(page, 'received').locator('article', { hasText: SENT_TEXT })).toBeVisible();
  const before = await received.count();
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  await spexWriter.send({ op: 'event', ...where(B), event: sent(30, 'live, from a person', null), bound: 2048 });
  await expect(column(page, 'received').locator('article', { hasText: 'live, from a person' })).toBeVisible({ timeout: 10_000 });
  await expect(received).toHaveCount(before + 1);
  // B's message to C is in C's log: it is B's Sent, told by C's notice.
  await spexWriter.send({ op: 'event', ...where(C), event: sent(31, 'live, from B to C', B), bound: 2048 });
  await expect(column(page, 'sent').locator('article', { hasText: 'live, from B to C' })).toBeVisible({ timeout: 10_000 });
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});

test('a long text is clipped on the page and shown whole from its item on demand', async ({ page }) => {
  await page.goto(sessionUrl(C));
  const long = column(page, 'received').locator('article', { hasText: 'a long text, clipped' });
  await expect(long).not.toContainText(LONG_TAIL);
  const wholeAsked = page.waitForResponse((response) => response.url().includes(`/api/sessions/${C}/items/`));
  await long.getByRole('button', { name: `show all (${Buffer.byteLength(LONG_TEXT).toLocaleString('en')} bytes)` }).click();
  await wholeAsked;
  await expect(long.locator('.entry-text')).toHaveText(LONG_TEXT);
});

test('a link to an item opens at that item, highlighted, and a link to an item the session does not hold says so', async ({ page }) => {
  const list = (await (await apiFetch(`${url}/api/sessions/${A}?source=${source}`)).json()) as { items: { key: string; type: string; note?: string }[] };
  const review = list.items.find((item) => item.type === 'declaration' && item.note === REVIEW_NOTE)!;
  await page.setViewportSize({ width: 1280, height: 420 });
  await page.goto(`${sessionUrl(A)}/item/${review.key}`);
  const target = page.locator(`[data-item="${review.key}"]`);
  await expect(target).toHaveClass(/selected/);
  await expect(target).toBeInViewport();
  await expect(page.getByText('not in this session')).toHaveCount(0);

  await page.goto(`${sessionUrl(A)}/item/line-999`);
  await expect(page.getByText('Item line-999 is not in this session')).toBeVisible();
  await expect(page.locator('[data-item]').first()).toBeVisible();
});

test('a spex session downloads as NDJSON, JSON and Markdown from its header, in spex\'s words and with no private data', async ({ page }) => {
  await page.goto(sessionUrl(A));
  const download = async (label: string) => {
    const [got] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: 'Download this session' }).getByRole('link', { name: `Download this session as ${label}` }).click()]);
    return { name: got.suggestedFilename(), text: (await readFile((await got.path())!)).toString('utf8') };
  };
  const md = await download('Markdown');
  expect(md.name).toBe(`spex-${A}.md`);
  expect(md.text).toContain('### Received from a person');
  expect(md.text).toContain(`\`\`\`text\n${PERSON_TEXT}\n\`\`\``);
  expect(md.text).toContain('### Declared review');
  expect(md.text).toContain(`### Sent to session \`${B}\``);
  expect(md.text).toContain('is damaged: unknown evidence, not nothing');
  const ndjson = await download('NDJSON');
  expect(ndjson.name).toBe(`spex-${A}.ndjson`);
  const lines = ndjson.text.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; lineText?: string | null });
  expect(lines[0]!.type).toBe('session');
  expect(lines.slice(1).some((line) => line.lineText?.includes(ISSUES_TEXT))).toBe(true);
  const json = await download('JSON');
  expect(json.name).toBe(`spex-${A}.json`);
  expect((JSON.parse(json.text) as { schema: string }).schema).toBe('rec.spex-session/1');
  for (const text of [md.text, ndjson.text, json.text]) for (const canary of CANARIES) expect(text).not.toContain(canary);
});

test("spex's private settlement lines and receipts are nowhere on the page, in any response or in any notice", async ({ page }) => {
  const bodies: string[] = [];
  const reading: Promise<void>[] = [];
  page.on('response', (response) => {
    // The API's answers and the page itself; the scripts are code, not data.
    const pathname = new URL(response.url()).pathname;
    if (pathname === '/api/events' || !(pathname.startsWith('/api/') || response.request().resourceType() === 'document')) return;
    reading.push(
      response.text().then(
        (text) => void bodies.push(text),
        () => undefined,
      ),
    );
  });
  await page.goto(`${url}/`);
  await page.evaluate(() => {
    const notices: string[] = [];
    (window as unknown as { notices: string[] }).notices = notices;
    new EventSource('/api/events').onmessage = (message) => notices.push(message.data);
  });
  await spexWriter.send({ op: 'event', ...where(A), event: sent(40, 'live, with a receipt', B, { dispatchReceipt: RECEIPT_CANARY }), bound: 2048 });
  await spexWriter.send({ op: 'event', ...where(A), event: { ts: at(40), kind: 'dispatch-settled', receipt: SETTLED_CANARY }, bound: 2048 });
  // Tall enough for every item of the session to be in the page: the list is virtualized.
  await page.setViewportSize({ width: 1280, height: 2400 });
  await page.goto(sessionUrl(A));
  await expect(column(page, 'received').locator('article', { hasText: 'live, with a receipt' })).toBeVisible();
  const keys = await page.locator('[data-item]').evaluateAll((items) => items.map((item) => item.getAttribute('data-item')!));
  for (const key of keys) bodies.push(await (await apiFetch(`${url}/api/sessions/${A}/items/${key}?source=${source}`)).text());
  for (const q of ['CANARY', 'receipt', 'dispatch', 'settled', '']) bodies.push(await (await apiFetch(`${url}/api/search?q=${q}`)).text());
  await page.goto(`${url}/search?q=receipt`);
  await expect(page.locator('.search-hit').first()).toBeVisible();
  await page.goto(sessionUrl(B));
  await expect(page.locator('[data-item]').first()).toBeVisible();
  const content = await page.content();
  await Promise.all(reading);

  expect(bodies.length).toBeGreaterThan(10);
  for (const canary of CANARIES) {
    expect(content, 'the page').not.toContain(canary);
    for (const body of bodies) expect(body, 'a response').not.toContain(canary);
  }
  const notices = await page.evaluate(() => (window as unknown as { notices?: string[] }).notices ?? []);
  for (const notice of notices) for (const canary of CANARIES) expect(notice, 'a notice').not.toContain(canary);
});

async function waitForSpexItems(sessionId: string, count: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const response = await apiFetch(`${url}/api/sessions/${sessionId}?source=${source}&limit=1`);
    if (response.ok && ((await response.json()) as { page: { total: number } }).page.total >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`spex session ${sessionId} did not reach ${count} items`);
}
