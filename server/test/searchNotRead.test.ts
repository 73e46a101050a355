import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { searchResponseSchema, type SearchResponse } from '../../shared/wire/search.ts';
import { CWD, SESSION, nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { buildApp } from '../http/app.ts';
import { createRecordSource } from '../record/recordSource.ts';
import { createSacSource } from '../sac/sacSource.ts';
import type { Source } from '../sources/source.ts';
import { createSpexSource } from '../spex/spexSource.ts';
import { createTestSearchPool, eventually } from './harness.ts';
import { A, PROJECT } from './spexHarness.ts';
import { writeThreeStores, type ThreeStores } from './threeStores.ts';

// A search matches texts read as items. What it could not read (a damaged file, a damaged line, a
// torn write) it does not search, and it says so, store by store, in the store's words: its hits
// are then never all there is, and "0 entries" is never all it says. Each store's writer process
// writes the damage as it is found on disk: a record file cut short, a spex line that does not
// parse, a set-agent-comm header whose body was never written.

const AN_HOUR_AGO = new Date(Date.now() - 3_600_000).toISOString();
const WEB = 'channels/team/web-app#3f9c1a20.md';

let stores: ThreeStores;
let sources: Source[];
let app: FastifyInstance;

const search = async (query: string): Promise<SearchResponse> => {
  const response = await app.inject({ method: 'GET', url: `/api/search?${query}` });
  assert.equal(response.statusCode, 200, response.body);
  return searchResponseSchema.parse(response.json());
};
const notReadOf = (answer: SearchResponse) => Object.fromEntries(answer.notRead.map(({ source, items, why }) => [source.kind, { items, why }]));

before(async () => {
  stores = await writeThreeStores('not-read', SESSION, [startEntry(0), sentEntry(1, 'the cart is queued')]);
  // Each cut short long enough ago to be damaged when first seen, each holding the word searched for.
  await stores.recordWriter.send({ op: 'raw', path: `${SESSION}/${nameAt(5, 3)}`, bytes: Buffer.from('{"kind":"message","text":"a needle in a cut').toString('base64'), mtime: AN_HOUR_AGO });
  await stores.spexWriter.send({ op: 'bytes', project: PROJECT, sessionId: A, base64: Buffer.from('{"ts":"2026-11-30T10:00:06.000Z","kind":"sent","text":"a needle","fro\n').toString('base64') });
  await stores.sacWriter.send({ op: 'raw', path: WEB, append: true, bytes: Buffer.from('\n## 2026-11-30T17:21:00.000+00:00 — FACT\n## 2026-11-30T17:22:00.000+00:00 — FACT\nthe next write\n').toString('base64'), mtime: AN_HOUR_AGO });
  sources = [createRecordSource({ root: stores.record, searchPool: createTestSearchPool() }), createSpexSource({ root: stores.spex, searchPool: createTestSearchPool() }), createSacSource({ root: stores.sac, searchPool: createTestSearchPool() })];
  for (const source of sources) await source.start();
  app = await buildApp({ sources, webRoot: null, token: null });
  await eventually(() => (sources.every((source) => source.status().indexing.state === 'ready') ? true : undefined), 'every first scan');
});

after(async () => {
  await app.close();
  for (const source of sources) await source.close();
  await stores.remove();
});

describe('what a search could not read', () => {
  it('is said store by store, in its store’s words, beside hits that are then not all there is', async () => {
    const answer = await search('q=needle');
    assert.deepEqual(answer.hits, [], 'the needle stands only where nothing could be read');
    assert.deepEqual(notReadOf(answer), {
      record: { items: 1, why: '1 damaged file was not searched, and may hold a match' },
      spex: { items: 1, why: '1 damaged, torn or invalid line was not searched, and may hold a match' },
      sac: { items: 1, why: '1 torn write was not searched, and may hold a match' },
    });
  });

  it('is counted whatever the filters ask of what is unknown of it (a side, a peer), and not where what is known keeps it out', async () => {
    assert.deepEqual(Object.keys(notReadOf(await search('q=needle&side=received&peer=nobody'))), ['record', 'spex'], 'set-agent-comm keeps a side out, with why');
    // The record's file by its session's directories and the time in its name; sac's torn entry by its header's type.
    assert.equal(notReadOf(await search('q=needle&project=/elsewhere')).record, undefined);
    assert.equal(notReadOf(await search(`q=needle&project=${encodeURIComponent(CWD)}`)).record?.items, 1);
    assert.equal(notReadOf(await search('q=needle&to=2026-11-20T09:00:04Z')).record, undefined);
    assert.equal(notReadOf(await search('q=needle&from=2026-11-20T09:00:04Z')).record?.items, 1);
    assert.equal(notReadOf(await search('q=needle&sac.type=QUESTION')).sac, undefined);
    assert.equal(notReadOf(await search('q=needle&sac.type=FACT')).sac?.items, 1);
  });

  it("spex's line names no sender and no time: received, it is its log's; sent, any session's of the home in the project to the log's session; and it lies between the lines around it", async () => {
    assert.equal(notReadOf(await search(`q=needle&project=${encodeURIComponent('/home/dev/shop')}`)).spex?.items, 1, "A's worktree");
    assert.equal(notReadOf(await search('q=needle&side=received&project=/elsewhere')).spex, undefined);
    assert.equal(notReadOf(await search('q=needle&project=/elsewhere')).spex, undefined, 'no session of the home is in /elsewhere');
    assert.equal(notReadOf(await search(`q=needle&side=sent&peer=${A.slice(0, 8)}`)).spex?.items, 1, "sent to A: A's log");
    assert.equal(notReadOf(await search('q=needle&side=sent&peer=nobody')).spex, undefined, 'sent to nobody the home holds');
    // Its time is unknown, but it lies after the line before it (now) and before none: so it is placed.
    assert.equal(notReadOf(await search('q=needle&to=2020-01-01T00:00:00Z')).spex, undefined, 'a window before the line before it');
    assert.equal(notReadOf(await search('q=needle&from=2099-01-01T00:00:00Z')).spex?.items, 1, 'a window after it: nothing comes after it');
  });

  it('is never a file, line or write still being written: it is searched once whole', async () => {
    const bytes = (text: string) => Buffer.from(text).toString('base64');
    await stores.recordWriter.send({ op: 'raw', path: `${SESSION}/${nameAt(6, 4)}`, bytes: bytes('{"kind":"message","text":"a needle being wr') });
    await stores.spexWriter.send({ op: 'bytes', project: PROJECT, sessionId: A, base64: bytes('{"ts":"2026-11-30T10:00:07.000Z","kind":"sent","text":"a needle being wr') });
    await stores.sacWriter.send({ op: 'raw', path: WEB, append: true, bytes: bytes('\n## 2026-11-30T17:23:00.000+00:00 — FACT\na needle being wr') });
    // Each seen pending by its reader, on its conversation's page, before the search is asked.
    const conversations = [SESSION, A, 'web-app#3f9c1a20'];
    for (const [index, source] of sources.entries()) {
      await eventually(async () => {
        const page = await app.inject({ method: 'GET', url: `/api/sources/${source.ref.id}/conversations/${encodeURIComponent(conversations[index]!)}` });
        return page.body.includes('"evidence":"pending"') ? true : undefined;
      }, `${source.ref.kind}'s write seen pending`);
    }
    assert.deepEqual(
      Object.fromEntries(Object.entries(notReadOf(await search('q=needle'))).map(([kind, { items }]) => [kind, items])),
      { record: 1, spex: 1, sac: 1 },
      'the damaged ones, and none of those being written',
    );
  });

  it('is in every form of a search’s export', async () => {
    const get = async (format: string) => (await app.inject({ method: 'GET', url: `/api/search/export?q=needle&format=${format}` })).body;
    const head = JSON.parse((await get('ndjson')).split('\n')[0]!) as { notRead: unknown[] };
    assert.equal(head.notRead.length, 3);
    const json = JSON.parse(await get('json')) as { notRead: unknown[] };
    assert.equal(json.notRead.length, 3);
    assert.match(await get('md'), /^- \*\*Not read\*\*: record store \S+: 1 damaged file was not searched, and may hold a match$/m);
  });

  // Last: it writes another session's log.
  it("spex's line not read lies between the events around it whichever way their times run, and a time not in spex's form does not place it", async () => {
    const C = 'cccccccc-0000-4000-8000-00000000000c';
    const write = (event: Record<string, unknown>) => stores.spexWriter.send({ op: 'event', project: PROJECT, sessionId: C, event });
    await write({ ts: '2026-11-30T11:00:00.000Z', kind: 'sent', text: 'later first', from: null, mid: 'm1' });
    await stores.spexWriter.send({ op: 'bytes', project: PROJECT, sessionId: C, base64: Buffer.from('{"ts":"2026-11-30T10:15:00.000Z","kind":"sent","text":"a needle","fro\n').toString('base64') });
    await write({ ts: '3', kind: 'sent', text: 'a time in no form spex writes', from: null, mid: 'm2' });
    await write({ ts: '2026-11-30T09:00:00.000Z', kind: 'sent', text: 'earlier after', from: null, mid: 'm3' });
    const window = 'from=2026-11-30T10:00:00Z&to=2026-11-30T10:30:00Z';
    const counted = await eventually(async () => notReadOf(await search(`q=needle&${window}`)).spex, "C's line not read");
    assert.equal(counted.items, 1, "C's line, between 09:00 and 11:00; A's lies after now");
    assert.equal(notReadOf(await search('q=needle&from=2026-11-30T11:30:00Z&to=2026-11-30T12:00:00Z')).spex, undefined, "C's lies before 11:00");
    assert.equal(notReadOf(await search('q=needle&from=2026-11-30T08:00:00Z&to=2026-11-30T08:30:00Z')).spex, undefined, "C's lies after 09:00");
  });
});
