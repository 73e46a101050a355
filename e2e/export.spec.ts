import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { entryFileName } from '../server/demo/entryFile.ts';
import { apiFetch, waitForItems } from './support/dashboard.ts';
import { expect, test } from './support/test.ts';
import { useLiveRecord } from './support/liveRecord.ts';
import { SessionWriting } from './support/record.ts';

// Taking a session or a search away: each format downloads from the UI, and says what the
// page says.

const live = useLiveRecord(test, 'export');
const CORRELATION = 'Which sent entry this corresponds to: not shown by the record.';
let session: SessionWriting;

/**
 * A session with two messages, a gap, a damaged file and a write stalled halfway, which stays
 * pending for 10 s from when the reader sees it: a test that needs it pending writes its own.
 */
async function writeDegradedSession(): Promise<{ session: SessionWriting; damaged: string; pending: string }> {
  const session = new SessionWriting(live.writer, '/home/dev/projects/export');
  await session.start();
  await session.sent({ as: 'uds:/tmp/cc-socks/4242.sock' }, 'Does the cart still POST /v1/orders?\r\nwith ``` inside');
  await session.received({ as: 'uds:/tmp/cc-socks/1717.sock' }, 'It does, and v2 too.', 'queued');
  session.seq += 1; // never written: a gap
  const damaged = entryFileName(new Date(), ++session.seq);
  await session.raw(damaged, '{"kind":"message","te', new Date(Date.now() - 3_600_000));
  // The file appears already dated back (tools/writer/writerProcess.ts): damaged at the reader's first look.
  await expect
    .poll(async () => ((await (await apiFetch(`${live.url}/api/sessions/${session.sessionId}/files/${damaged}`)).json()) as { item?: { evidence?: string } }).item?.evidence, { timeout: 20_000 })
    .toBe('damaged');
  const pending = await session.sent({ as: 'alpha' }, 'still being written', { isQueued: true }, { stallAfterBytes: 30 });
  // Start, two messages, the gap, the damaged file and the stalled one: all seen before a download.
  await waitForItems(live.url, session.sessionId, 6);
  return { session, damaged, pending };
}

test.beforeAll(async () => {
  session = (await writeDegradedSession()).session;
});

async function downloadFrom(page: Page, group: string, label: string): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: group }).getByRole('link', { name: label }).click()]);
  return { name: download.suggestedFilename(), bytes: await readFile((await download.path())!) };
}

test('a degraded session downloads as Markdown that keeps the gap, the damaged and pending files and the unclaimed correlation', async ({ page }) => {
  // A session of its own, written now: its stalled write is within its pending window.
  const { session, damaged, pending } = await writeDegradedSession();
  await page.goto(`${live.url}/session/${session.sessionId}`);
  const got = await downloadFrom(page, 'Download this session', 'Download this session as Markdown');
  expect(got.name).toBe(`record-${session.sessionId}.md`);
  const md = got.bytes.toString('utf8');
  expect(md).toContain('### Entry 4 missing');
  expect(md).toContain(`### Unknown evidence: file \`${damaged}\``);
  expect(md).toContain(`### Being written: file \`${pending}\``);
  expect(md).toContain(CORRELATION);
  expect(md).toContain('queued: neither read nor acted on');
  expect(md).toContain('````text\nDoes the cart still POST /v1/orders?\r\nwith ``` inside\n````');
});

test('a session downloads as NDJSON whose items are the files byte for byte', async ({ page }) => {
  await page.goto(`${live.url}/session/${session.sessionId}`);
  const got = await downloadFrom(page, 'Download this session', 'Download this session as NDJSON');
  expect(got.name).toBe(`record-${session.sessionId}.ndjson`);
  const lines = got.bytes.toString('utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines[0]!['type']).toBe('session');
  const files = lines.filter((line) => line['type'] === 'file');
  // The stalled write is pending for 10 s from when the reader saw it, then damaged: either way its bytes are exported.
  expect(files.map((line) => line['evidence'])).toEqual(['parsed', 'parsed', 'parsed', 'damaged', expect.stringMatching(/^(pending|damaged)$/)]);
  for (const line of files) {
    const onDisk = await readFile(path.join(live.dir, session.sessionId, line['file'] as string));
    expect(Buffer.from(line['fileText'] as string, 'utf8').equals(onDisk), `${String(line['file'])} byte for byte`).toBe(true);
  }
  expect(lines.some((line) => line['type'] === 'gap' && line['from'] === 4)).toBe(true);
});

test('a session downloads as JSON in the API\'s shape', async ({ page }) => {
  await page.goto(`${live.url}/session/${session.sessionId}`);
  const got = await downloadFrom(page, 'Download this session', 'Download this session as JSON');
  expect(got.name).toBe(`record-${session.sessionId}.json`);
  const body = JSON.parse(got.bytes.toString('utf8')) as { schema: string; items: unknown[]; page: { total: number }; session: { sessionId: string } };
  expect(body.schema).toBe('rec.session/2');
  expect(body.session.sessionId).toBe(session.sessionId);
  expect(body.items).toHaveLength(body.page.total);
});

test('search results download in each format', async ({ page }) => {
  // A word only this test writes, so that other tests' sessions add no hit.
  const word = `export-search-${Date.now()}`;
  await session.sent({ as: 'beta' }, `find me: ${word}`);
  await page.goto(`${live.url}/search?q=${word}`);
  await expect(page.locator('.search-hit')).toHaveCount(1);
  const json = await downloadFrom(page, 'Download these results', 'Download these results as JSON');
  expect(JSON.parse(json.bytes.toString('utf8')).hits).toHaveLength(1);
  const ndjson = await downloadFrom(page, 'Download these results', 'Download these results as NDJSON');
  expect(ndjson.bytes.toString('utf8').trimEnd().split('\n')).toHaveLength(2);
  const md = await downloadFrom(page, 'Download these results', 'Download these results as Markdown');
  expect(md.name).toMatch(/^search-.*\.md$/);
  expect(md.bytes.toString('utf8')).toContain(`session \`${session.sessionId}\``);
});
