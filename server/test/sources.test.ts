import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SourceRef } from '../../shared/wire/common.ts';
import { fileResponseSchema, sessionResponseSchema, type FileItem } from '../../shared/wire/record.ts';
import { nameAt, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import type { Dashboard } from '../dashboard.ts';
import { connectEventStream } from './eventStream.ts';
import { eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';
import { recordSessionsResponseSchema, recordSearchResponseSchema } from '../../shared/test/recordWire.ts';

// The wire names the store everything comes from, with an id that a restart keeps, and carries
// the core's facts of each entry so that the browser applies none of the record's rules itself.

const SESSION = 'wire';
const HASH = `sha256:${'ab'.repeat(32)}`;
const record = makeTempRecord();
const other = makeTempRecord();

function put(dir: string, name: string, value: unknown): void {
  mkdirSync(join(dir, SESSION), { recursive: true });
  writeFileSync(join(dir, SESSION, name), JSON.stringify({ ...(value as object), sessionId: SESSION }));
}

async function started(dir: string): Promise<Dashboard> {
  const dashboard = await startTestDashboard(dir);
  await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'first scan');
  return dashboard;
}

async function sourceOf(dir: string): Promise<SourceRef> {
  const dashboard = await started(dir);
  try {
    const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
    return { kind: list.sources[0]!.kind, id: list.sources[0]!.id };
  } finally {
    await dashboard.close();
  }
}

let dashboard: Dashboard;
let ref: SourceRef;

before(async () => {
  put(record.dir, nameAt(0, 1), startEntry(0));
  put(record.dir, nameAt(1, 2), sentEntry(1, 'queued words'));
  put(record.dir, nameAt(2, 3), sentEntry(2, 'refused words', { isQueued: false, reason: 'recipient refuses inbound messages' }));
  put(record.dir, nameAt(3, 4), receivedEntry(3, 'from nobody', { peer: { as: '' }, outcome: 'rejected' }));
  put(record.dir, nameAt(4, 5), { ...sentEntry(4, ''), text: undefined, textLength: 12, textHash: HASH, isQueued: false, reason: '' });
  put(record.dir, nameAt(5, 6), { kind: 'chain', sessionId: SESSION, at: '2026-11-20T09:00:05.000Z', cwd: '/w', parent: 'p', part: 2, brief: 'b' });
  put(record.dir, nameAt(6, 7), { kind: 'vote', sessionId: SESSION, at: '2026-11-20T09:00:06.000Z' });
  put(record.dir, nameAt(7, 9), sentEntry(7, 'after a gap'));
  writeFileSync(join(record.dir, SESSION, 'notes.txt'), 'a stray');
  put(other.dir, nameAt(0, 1), startEntry(0));
  dashboard = await started(record.dir);
  ref = dashboard.sources[0]!.ref;
});

after(async () => {
  await dashboard.close();
  record.remove();
  other.remove();
});

describe('the source on the wire', () => {
  it('a record directory has the same id across two starts, and another directory another id', async () => {
    assert.match(ref.id, /^record-[0-9a-f]{8}$/);
    assert.deepEqual(await sourceOf(record.dir), ref);
    const elsewhere = await sourceOf(other.dir);
    assert.equal(elsewhere.kind, 'record');
    assert.notEqual(elsewhere.id, ref.id);
  });

  it('the list names the source with its root, state and indexing, and every session carries it', async () => {
    const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
    assert.equal(list.schema, 'rec.sessions/4');
    assert.deepEqual(list.sources, [{ ...ref, root: record.dir, state: 'present', why: null, indexing: { state: 'ready', files: 9 }, strays: [] }]);
    const sessions = list.projects.flatMap((project) => project.sessions);
    assert.equal(sessions.length, 1);
    for (const session of sessions) assert.deepEqual(session.source, ref);
  });

  it('a page carries the source on its session and on every item: entries, the gap and the stray', async () => {
    const page = await getJson(dashboard, `/api/sessions/${SESSION}`, sessionResponseSchema);
    assert.equal(page.schema, 'rec.session/2');
    assert.deepEqual(page.session.source, ref);
    assert.deepEqual(new Set(page.items.map((item) => item.type)), new Set(['file', 'gap', 'stray']));
    for (const item of page.items) assert.deepEqual(item.source, ref, JSON.stringify(item));
  });

  it('a file and a search hit carry the source', async () => {
    const file = await getJson(dashboard, `/api/sessions/${SESSION}/files/${nameAt(1, 2)}`, fileResponseSchema);
    assert.equal(file.schema, 'rec.file/2');
    assert.deepEqual(file.source, ref);
    assert.deepEqual(file.item.source, ref);
    const search = await getJson(dashboard, '/api/search?q=words', recordSearchResponseSchema);
    assert.equal(search.schema, 'rec.search/4');
    assert.equal(search.hits.length, 2);
    for (const hit of search.hits) assert.deepEqual(hit.source, ref);
  });

  it('every notice names its source', async () => {
    const events = await connectEventStream(dashboard.url);
    try {
      const hello = await events.next(({ event }) => event.type === 'hello');
      assert.deepEqual(hello.event, { type: 'hello', schema: 'rec.events/4', sources: [ref] });
      const status = await events.next(({ event }) => event.type === 'source');
      assert.deepEqual(status.event, { type: 'source', source: { ...ref, root: record.dir, state: 'present', why: null, indexing: { state: 'ready', files: 9 } } });
      put(record.dir, nameAt(8, 10), sentEntry(8, 'news'));
      const changed = await events.next(({ event }) => event.type === 'session-changed');
      assert.ok(changed.event.type === 'session-changed');
      assert.deepEqual(changed.event.source, ref);
      assert.deepEqual(changed.event.session.source, ref);
    } finally {
      events.close();
    }
  });

  it('?source= with this store id answers as without it, and with another id is a 404 on every route', async () => {
    const paths = ['/api/sessions', `/api/sessions/${SESSION}`, `/api/sessions/${SESSION}/files/${nameAt(1, 2)}`, '/api/search?q=words', '/api/events'];
    for (const path of paths) {
      const joint = path.includes('?') ? '&' : '?';
      const elsewhere = await dashboard.app.inject({ method: 'GET', url: `${path}${joint}source=record-00000000` });
      assert.equal(elsewhere.statusCode, 404, path);
      assert.equal(elsewhere.json().error, 'not-found', path);
      if (path === '/api/events') continue;
      const here = await dashboard.app.inject({ method: 'GET', url: `${path}${joint}source=${ref.id}` });
      assert.equal(here.statusCode, 200, path);
    }
  });
});

describe('the core facts on the wire', () => {
  async function factsOf(name: string): Promise<FileItem['facts']> {
    const file = await getJson(dashboard, `/api/sessions/${SESSION}/files/${name}`, fileResponseSchema);
    const page = await getJson(dashboard, `/api/sessions/${SESSION}?around=${name}`, sessionResponseSchema);
    const onPage = page.items.find((item) => item.type === 'file' && item.file === name) as FileItem;
    assert.deepStrictEqual(onPage.facts, file.item.facts, 'a page and the file endpoint say the same facts');
    return file.item.facts;
  }

  it('a queued send: queued, its peer as given, no reason', async () => {
    assert.deepStrictEqual(await factsOf(nameAt(1, 2)), {
      kind: 'message', side: 'sent', peer: { as: 'uds:/tmp/cc-socks/4242.sock', sessionId: null }, isQueued: true, reason: null, outcome: null, withheld: false, textLength: null, textHash: null,
    });
  });

  it('a refused send: isQueued false with the host reason', async () => {
    const facts = await factsOf(nameAt(2, 3));
    assert.ok(facts?.kind === 'message');
    assert.equal(facts.isQueued, false);
    assert.equal(facts.reason, 'recipient refuses inbound messages');
  });

  it('an empty peer is an unknown peer (null), and a received entry says its outcome', async () => {
    const facts = await factsOf(nameAt(3, 4));
    assert.ok(facts?.kind === 'message');
    assert.equal(facts.peer, null);
    assert.equal(facts.outcome, 'rejected');
    assert.equal(facts.isQueued, null);
  });

  it('a withheld text says its length and hash, and an empty reason is no reason', async () => {
    const facts = await factsOf(nameAt(4, 5));
    assert.ok(facts?.kind === 'message');
    assert.deepEqual([facts.withheld, facts.textLength, facts.textHash, facts.isQueued, facts.reason], [true, 12, HASH, false, null]);
  });

  it('start, chain and unknown kinds say their own facts', async () => {
    assert.deepStrictEqual(await factsOf(nameAt(0, 1)), { kind: 'start', host: 'claude-code', version: startEntry(0).version, inbound: startEntry(0).inbound });
    assert.deepStrictEqual(await factsOf(nameAt(5, 6)), { kind: 'chain', parent: 'p', part: 2, brief: 'b' });
    assert.deepStrictEqual(await factsOf(nameAt(6, 7)), { kind: 'unknown', kindName: 'vote' });
  });
});
