import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LargeText } from '../../shared/wire/common.ts';
import { searchResponseSchema } from '../../shared/wire/search.ts';
import { sacItemResponseSchema, sacSeatResponseSchema, type SacFlowItem } from '../../shared/wire/sac.ts';
import { spexItemResponseSchema, spexSessionResponseSchema, type SpexItem } from '../../shared/wire/spex.ts';
import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { startSpexWriter, type SpexWriter } from '../../tools/writer/spexWriter.ts';
import type { Dashboard } from '../dashboard.ts';
import { makeTempRecord } from './harness.ts';
import { readBytes, readForDroppedExports, startSpexAndSac } from './largeTextRig.ts';
import { writeExampleStore } from './sacApp.ts';
import { A, PROJECT, sentEvent, sessionJson } from './spexHarness.ts';

// A text over 4 MiB (a spex line, a set-agent-comm body) is never read whole for a page, an item
// or a JSON export: they read its head and carry the mark of a large text (its holder's size, the
// bytes of it shown), and the whole is in the NDJSON and Markdown exports, which read it a piece
// at a time. The bytes read are the kernel's count for this process (`rchar`).

/** Larger than what ten clients' sockets take before they drop, so that reading it ten times shows. */
const TEXT_BYTES = 32 * 1024 * 1024;
const HEAD_LIMIT = 64 * 1024;
const WEB = 'web-app#3f9c1a20';
const BIG_TIME = '2026-11-30T17:20:00.000+00:00';
/** A text that a fence of three or four backticks would close, with what JSON escapes. */
const unit = 'a "quoted" line\twith 日本語 ``` and ```` fences\n';
const largeText = `${unit.repeat(Math.ceil(TEXT_BYTES / Buffer.byteLength(unit)))}THE END`;

const spexHome = makeTempRecord('rec-large-texts-spex-');
const sacStore = makeTempRecord('rec-large-texts-sac-');
let spexWriter: SpexWriter;
let sacWriter: SacWriter;
let dashboard: Dashboard;

before(async () => {
  spexWriter = await startSpexWriter(spexHome.dir);
  await spexWriter.send({ op: 'session', project: PROJECT, sessionId: A, value: sessionJson(A) });
  await spexWriter.send({ op: 'event', project: PROJECT, sessionId: A, event: sentEvent('a short one first', null) });
  await spexWriter.send({ op: 'event', project: PROJECT, sessionId: A, event: sentEvent(largeText, null) });
  sacWriter = await startSacWriter(sacStore.dir);
  await writeExampleStore(sacWriter);
  await sacWriter.send({ op: 'send', room: 'team', seat: WEB, ts: BIG_TIME, type: 'FACT', text: largeText });
  dashboard = await startSpexAndSac(spexHome.dir, sacStore.dir);
});

after(async () => {
  await dashboard?.close();
  await spexWriter?.kill();
  await sacWriter?.close();
  spexHome.remove();
  sacStore.remove();
});

const spexId = () => dashboard.sources.find((source) => source.ref.kind === 'spex')!.ref.id;
const sacId = () => dashboard.sources.find((source) => source.ref.kind === 'sac')!.ref.id;
const conversation = (source: string, id: string) => `/api/sources/${encodeURIComponent(source)}/conversations/${encodeURIComponent(id)}`;

/** GETs a path; the body, and the bytes the process read while it was answered. */
async function getReading(path: string): Promise<{ body: string; read: number }> {
  const from = readBytes();
  const response = await fetch(new URL(path, dashboard.origin));
  const body = await response.text();
  assert.equal(response.status, 200, body.slice(0, 500));
  return { body, read: readBytes() - from };
}

/** The head of the large text a page or an item shows, and its mark, checked against the text written. */
function assertHead(item: { text?: string | null; large?: LargeText | undefined; textClipped?: unknown }, holder: 'line' | 'body'): void {
  assert.ok(item.large !== undefined, 'the item carries the mark of a large text');
  assert.equal(item.large.holder, holder);
  assert.ok(item.large.bytes > TEXT_BYTES, `its ${holder}'s size: ${item.large.bytes}`);
  const text = item.text!;
  assert.ok(text.length > 1000 && Buffer.byteLength(text) <= HEAD_LIMIT, `the head, within a page's limit: ${Buffer.byteLength(text)} bytes`);
  assert.ok(largeText.startsWith(text.trimStart()), 'the head is the text as written');
  assert.equal(item.large.shownBytes, Buffer.byteLength(text));
  assert.equal(item.textClipped, undefined, 'no "show all": an item has no more of it than the page');
}

describe('a large text is read as far as its head for a page, an item and a JSON export', () => {
  it('a spex page of a session with a 32 MB line shows the head of its text with the mark of a large line, and reads far less than the line', async () => {
    const { body, read } = await getReading(`${conversation(spexId(), A)}?offset=0&limit=50`);
    const page = spexSessionResponseSchema.parse(JSON.parse(body));
    const large = page.items.find((item) => item.large !== undefined) as Extract<SpexItem, { type: 'received' }>;
    assertHead(large, 'line');
    assert.equal(large.hintAt, null);
    assert.ok(read < TEXT_BYTES / 4, `read ${read} bytes for a page`);
    assert.equal(page.items.filter((item) => item.large !== undefined).length, 1, 'a short line is no large one');
  });

  it("a spex item's own answer of a 32 MB line is its head and the mark too, read without the line", async () => {
    const page = spexSessionResponseSchema.parse(JSON.parse((await getReading(`${conversation(spexId(), A)}?offset=0&limit=50`)).body));
    const key = page.items.find((item) => item.large !== undefined)!.key;
    const { body, read } = await getReading(`${conversation(spexId(), A)}/items/${encodeURIComponent(key)}`);
    assertHead(spexItemResponseSchema.parse(JSON.parse(body)).item as Extract<SpexItem, { type: 'received' }>, 'line');
    assert.ok(read < TEXT_BYTES / 4, `read ${read} bytes for an item`);
  });

  it('a sac seat page and item of a 32 MB body show its head with the mark of a large body, read without the body', async () => {
    const { body, read } = await getReading(`${conversation(sacId(), WEB)}?limit=50`);
    const page = sacSeatResponseSchema.parse(JSON.parse(body));
    const large = page.sent.find((item) => item.time === BIG_TIME) as SacFlowItem;
    assertHead(large, 'body');
    assert.ok(read < TEXT_BYTES / 4, `read ${read} bytes for a page`);
    const item = await getReading(`${conversation(sacId(), WEB)}/items/${encodeURIComponent(large.item)}`);
    assertHead(sacItemResponseSchema.parse(JSON.parse(item.body)).item, 'body');
    assert.ok(item.read < TEXT_BYTES / 4, `read ${item.read} bytes for an item`);
  });

  it('a JSON export of a spex session and of a sac seat gives the head and the mark, as their pages do, and reads far less than the text', async () => {
    const spex = await getReading(`${conversation(spexId(), A)}/export?format=json`);
    const spexItems = (JSON.parse(spex.body) as { items: SpexItem[] }).items;
    assertHead(spexItems.find((item) => item.large !== undefined) as Extract<SpexItem, { type: 'received' }>, 'line');
    assert.ok(spex.read < TEXT_BYTES / 4, `read ${spex.read} bytes for a spex JSON export`);
    const sac = await getReading(`${conversation(sacId(), WEB)}/export?format=json`);
    assertHead((JSON.parse(sac.body) as { sent: SacFlowItem[] }).sent.find((item) => item.time === BIG_TIME)!, 'body');
    assert.ok(sac.read < TEXT_BYTES / 4, `read ${sac.read} bytes for a sac JSON export`);
  });
});

describe('a large text is searched as far as its first 4 MiB', () => {
  it('a search finds a word at the start of a 32 MB spex line and none at its end, and never reads the line whole', async () => {
    const start = await getReading(`/api/search?q=${encodeURIComponent('fences')}&source=${encodeURIComponent(spexId())}`);
    assert.ok((searchResponseSchema.parse(JSON.parse(start.body)).hits.length) > 0, 'a word of its head is found');
    const { body, read } = await getReading(`/api/search?q=${encodeURIComponent('THE END')}&source=${encodeURIComponent(spexId())}`);
    assert.equal(searchResponseSchema.parse(JSON.parse(body)).hits.length, 0, 'what lies past its first 4 MiB is not searched');
    assert.ok(read < TEXT_BYTES / 4, `read ${read} bytes for a search`);
  });

  it('a match at the end of the 4 MiB searched of a large spex line or sac body says, by its snippet, that the text goes on after it', async () => {
    for (const source of [spexId(), sacId()]) {
      const { body } = await getReading(`/api/search?q=${encodeURIComponent('\\S+$')}&regex=1&source=${encodeURIComponent(source)}`);
      const large = searchResponseSchema.parse(JSON.parse(body)).hits.filter((hit) => hit.snippet !== null && largeText.includes(hit.snippet) && hit.snippet.length > 40);
      assert.ok(large.length > 0, `the large text's head is found in ${source}`);
      for (const hit of large) assert.deepEqual(hit.snippetCut, { before: true, after: true }, `${source}: its head ends, the text does not`);
    }
  });
});

/** What ten clients that each drop the export after 256 KiB make the server read. */
async function readForDropped(path: string): Promise<number> {
  return (await readForDroppedExports(dashboard.origin, path, 10, 256 * 1024)).read;
}

/** The fenced block that holds `text` in a Markdown document, and its fence. */
function findFenced(markdown: string, text: string): string {
  const at = markdown.indexOf(`\n${text}\n`);
  assert.ok(at > 0, 'the whole text is in the Markdown, verbatim');
  const fence = /(`+)text$/.exec(markdown.slice(0, at))![1]!;
  assert.ok(fence.length > 4, `a fence of ${fence.length} backticks, longer than any run in the text`);
  assert.ok(markdown.startsWith(`\n${fence}\n`, at + 1 + text.length), 'the block ends with its own fence');
  return fence;
}

describe('a large text goes into a Markdown export whole, a piece at a time', () => {
  it('a Markdown export of a spex session holds its 32 MB text whole, verbatim, in a fence the text cannot close', async () => {
    findFenced((await getReading(`${conversation(spexId(), A)}/export?format=md`)).body, largeText);
  });

  it('a Markdown export of a sac seat holds its 32 MB body whole, verbatim, in a fence the body cannot close', async () => {
    findFenced((await getReading(`${conversation(sacId(), WEB)}/export?format=md`)).body, largeText);
  });

  it('ten Markdown exports of a spex session and of a sac seat, each dropped early, read less than half of ten whole texts: one look shared, and each read stops when its client goes', async (t) => {
    const spex = await readForDropped(`${conversation(spexId(), A)}/export?format=md`);
    t.diagnostic(`ten spex exports read ${spex} bytes`);
    assert.ok(spex < 5 * TEXT_BYTES, `read ${spex} bytes for ten spex exports of an ${TEXT_BYTES}-byte text`);
    const sac = await readForDropped(`${conversation(sacId(), WEB)}/export?format=md`);
    t.diagnostic(`ten sac exports read ${sac} bytes`);
    assert.ok(sac < 5 * TEXT_BYTES, `read ${sac} bytes for ten sac exports of an ${TEXT_BYTES}-byte text`);
  });
});
