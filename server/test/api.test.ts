import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileResponseSchema, sessionResponseSchema } from '../../shared/wire/record.ts';
import { nameAt, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import type { Dashboard } from '../dashboard.ts';
import { eventually, getJson, makeTempRecord, rawGet as rawGetAt, startTestDashboard } from './harness.ts';
import { recordSessionsResponseSchema, recordSearchResponseSchema } from '../../shared/test/recordWire.ts';
import { sessionChangesResponseSchema } from '../../shared/wire/conversations.ts';
import { applyListChanges } from '../../shared/sessionList.ts';

// The API's contract: versioned schemas, paging, search, and a door that answers only to its
// own host and origin.

const record = makeTempRecord();
let dashboard: Dashboard;
const VERBATIM = 'line one\r\n\tline two\u200b \u202eevil\u202c 🧪 <script>alert(1)</script> end ';
const LONG = 'é'.repeat(70_000);
const rawGet = (path: string, headers: Record<string, string>) => rawGetAt(dashboard.url, path, headers);

function put(sessionId: string, name: string, value: unknown): void {
  mkdirSync(join(record.dir, sessionId), { recursive: true });
  writeFileSync(join(record.dir, sessionId, name), typeof value === 'string' ? value : JSON.stringify({ ...(value as object), sessionId }));
}

before(async () => {
  put('big', nameAt(0, 1), startEntry(0));
  for (let seq = 2; seq <= 1_201; seq++) put('big', `2026-11-20T090100.000Z-${seq}.json`, sentEntry(1, `message ${seq}`));
  put('texts', nameAt(0, 1), startEntry(0));
  put('texts', nameAt(1, 2), sentEntry(1, VERBATIM));
  put('texts', nameAt(2, 3), receivedEntry(2, LONG, { peer: { as: 'api-service', sessionId: 'big' } }));
  put('texts', nameAt(3, 4), sentEntry(3, 'refused words', { isQueued: false, reason: 'recipient refuses inbound messages' }));
  put('texts', nameAt(4, 5), { kind: 'message', side: 'sent' });
  put('texts', 'notes.txt', 'not an entry');
  writeFileSync(join(record.dir, 'README'), 'a file beside the sessions');
  dashboard = await startTestDashboard(record.dir);
  await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'first scan');
});

after(async () => {
  await dashboard.close();
  record.remove();
});

describe('the API', () => {
  it('/api/sessions lists projects by working directory with the rec.sessions/4 schema', async () => {
    const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
    assert.equal(list.schema, 'rec.sessions/4');
    assert.equal(list.sources[0]!.root, record.dir);
    assert.deepEqual(list.projects.map((project) => project.cwd), ['/home/dev/projects/web-app']);
    assert.deepEqual(list.sources[0]!.strays, ['README']);
    const texts = list.projects[0]!.sessions.find((session) => session.sessionId === 'texts')!;
    assert.deepEqual(texts.counts, { sent: 2, received: 1, refused: 1, rejected: 0, damaged: 0, pending: 0, invalid: 1, missing: 0, stray: 1 });
    assert.deepEqual(texts.degraded.map((reason) => reason.code), ['invalid-entry']);
    assert.equal(list.degradedSessions, 1);
  });

  it('/api/sessions?since=<the version held> answers only the sessions written since, and a stranger version the whole list', async () => {
    const held = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
    put('later', nameAt(0, 1), startEntry(0, { cwd: '/home/dev/projects/later' }));
    const changes = await eventually(async () => {
      const answer = await getJson(dashboard, `/api/sessions?since=${held.version}`, sessionChangesResponseSchema);
      return answer.changed.length > 0 ? answer : undefined;
    }, 'the new session listed');
    assert.equal(changes.schema, 'rec.session-changes/1');
    assert.equal(changes.since, held.version);
    assert.deepEqual(changes.changed.map((session) => session.id), ['later']);
    assert.deepEqual(changes.removed, []);
    assert.deepStrictEqual(applyListChanges(held, changes), await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema));
    const stranger = await getJson(dashboard, `/api/sessions?since=00000000.${held.version.split('.')[1]}`, recordSessionsResponseSchema);
    assert.equal(stranger.schema, 'rec.sessions/4');
    assert.equal(stranger.projects.flatMap((project) => project.sessions).length, 3);
  });

  it('a session pages by offset and limit, and says how many items there are', async () => {
    const page = await getJson(dashboard, '/api/sessions/big?offset=1000&limit=100', sessionResponseSchema);
    assert.deepEqual(page.page, { offset: 1000, limit: 100, total: 1_201 });
    assert.equal(page.items.length, 100);
    assert.equal(page.items[0]?.type === 'file' && page.items[0].seq, 1_001);
  });

  it('a page can be asked for around one entry, for a link to it', async () => {
    const file = '2026-11-20T090100.000Z-900.json';
    const page = await getJson(dashboard, `/api/sessions/big?around=${file}&limit=100`, sessionResponseSchema);
    assert.equal(page.page.offset, 899 - 50);
    assert.ok(page.items.some((item) => item.type === 'file' && item.file === file));
  });

  it('text crosses the API verbatim, byte for byte', async () => {
    const page = await getJson(dashboard, '/api/sessions/texts', sessionResponseSchema);
    const item = page.items.find((candidate) => candidate.type === 'file' && candidate.seq === 2);
    assert.equal(item?.type === 'file' && item.entry?.['text'], VERBATIM);
  });

  it('a long text is cut in a page, says its full size, and comes whole from the file endpoint', async () => {
    const page = await getJson(dashboard, '/api/sessions/texts', sessionResponseSchema);
    const item = page.items.find((candidate) => candidate.type === 'file' && candidate.seq === 3);
    assert.ok(item?.type === 'file');
    assert.deepEqual(item.textClipped, { bytes: Buffer.byteLength(LONG) });
    const clipped = item.entry?.['text'] as string;
    assert.ok(LONG.startsWith(clipped) && Buffer.byteLength(clipped) <= 64 * 1024);
    const whole = await getJson(dashboard, `/api/sessions/texts/files/${nameAt(2, 3)}`, fileResponseSchema);
    assert.equal(whole.item.entry?.['text'], LONG);
    assert.equal(whole.item.textClipped, undefined);
  });

  it('an invalid entry is shown raw with the reason, and a stray is listed by name only', async () => {
    const page = await getJson(dashboard, '/api/sessions/texts', sessionResponseSchema);
    const invalid = page.items.find((item) => item.type === 'file' && item.evidence === 'invalid');
    assert.ok(invalid?.type === 'file');
    assert.deepEqual(invalid.raw, { kind: 'message', side: 'sent', sessionId: 'texts' });
    assert.match(invalid.why ?? '', /at: .*; cwd: /);
    assert.deepEqual(page.items.at(-1), { type: 'stray', source: dashboard.sources[0]!.ref, file: 'notes.txt', size: 12 });
  });

  it('search finds text across sessions, newest first, with a verbatim snippet that says where its text goes on', async () => {
    const found = await getJson(dashboard, '/api/search?q=REFUSED', recordSearchResponseSchema);
    assert.deepEqual(found.hits.map((hit) => [hit.sessionId, hit.file, hit.isQueued]), [['texts', nameAt(3, 4), false]]);
    assert.equal(found.hits[0]?.snippet, 'refused words');
    assert.deepEqual(found.hits[0]?.snippetCut, { before: false, after: false }, 'a text shown whole is not cut');
    // A match at each end of a long text: its snippet says on which side the text goes on.
    const atEnd = await getJson(dashboard, `/api/search?q=${encodeURIComponent('é{3}$')}&regex=1`, recordSearchResponseSchema);
    const long = atEnd.hits.find((hit) => hit.file === nameAt(2, 3));
    assert.deepEqual([long?.snippet?.endsWith('ééé'), long?.snippetCut], [true, { before: true, after: false }]);
    const atStart = await getJson(dashboard, `/api/search?q=${encodeURIComponent('^é')}&regex=1`, recordSearchResponseSchema);
    assert.deepEqual(atStart.hits.find((hit) => hit.file === nameAt(2, 3))?.snippetCut, { before: false, after: true });
    const regex = await getJson(dashboard, '/api/search?q=message%2011\\d\\d%24&regex=1&limit=5', recordSearchResponseSchema);
    assert.equal(regex.hits.length, 5);
    assert.equal(regex.truncated, true);
  });

  it('search filters by side, refusal and peer as given', async () => {
    const refused = await getJson(dashboard, '/api/search?record.refused=1', recordSearchResponseSchema);
    assert.deepEqual(refused.hits.map((hit) => [hit.file, hit.reason]), [[nameAt(3, 4), 'recipient refuses inbound messages']]);
    const byPeer = await getJson(dashboard, '/api/search?peer=api-service&side=received', recordSearchResponseSchema);
    assert.deepEqual(byPeer.hits.map((hit) => [hit.file, hit.peerSessionId]), [[nameAt(2, 3), 'big']]);
  });

  it('a bad regular expression or query is a 400 with a message, not a crash', async () => {
    const bad = await fetch(new URL('/api/search?q=(&regex=1', dashboard.url));
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { message: string }).message, /regular expression/);
    assert.equal((await fetch(new URL('/api/sessions/big?limit=0', dashboard.url))).status, 400);
    assert.equal((await fetch(new URL('/api/sessions/big?offset=-1', dashboard.url))).status, 400);
    // A text too long is said in words a reader knows, not in the validator's.
    const long = await fetch(new URL(`/api/search?q=${'x'.repeat(1_001)}`, dashboard.url));
    assert.equal(long.status, 400);
    assert.equal(((await long.json()) as { message: string }).message, 'q: at most 1,000 characters');
  });

  it('a search whose from is after its to is a 400 that says so, its download too, never an answer of nothing found', async () => {
    const window = 'from=2026-11-20T10:00:00.000Z&to=2026-11-20T09:00:00.000Z';
    for (const path of [`/api/search?q=message&${window}`, `/api/search/export?q=message&format=json&${window}`]) {
      const response = await fetch(new URL(path, dashboard.url));
      assert.equal(response.status, 400, path);
      assert.match(((await response.json()) as { message: string }).message, /from \(2026-11-20T10:00:00\.000Z\) is after to \(2026-11-20T09:00:00\.000Z\): no time is in that window/, path);
    }
    // The same instant at both ends is a window, if a narrow one.
    const instant = await fetch(new URL('/api/search?q=message&from=2026-11-20T09:00:00.000Z&to=2026-11-20T09:00:00.000Z', dashboard.url));
    assert.equal(instant.status, 200);
  });

  it('an unknown session or file is a 404, and a path from the URL never reaches the file system', async () => {
    assert.equal((await fetch(new URL('/api/sessions/nope', dashboard.url))).status, 404);
    for (const path of ['/api/sessions/texts/files/..%2F..%2Fetc%2Fpasswd', '/api/sessions/..%2F..%2Fetc/files/passwd', '/api/sessions/texts/files/notes.txt']) {
      const response = await fetch(new URL(path, dashboard.url));
      assert.equal(response.status, 404, path);
      assert.doesNotMatch(await response.text(), /root:/);
    }
  });

  it('a request naming a foreign Host is refused (DNS rebinding)', async () => {
    const refused = await rawGet('/api/sessions', { host: 'attacker.example:80' });
    assert.equal(refused.status, 403);
    assert.doesNotMatch(refused.body, /web-app/);
    for (const host of ['localhost', '127.0.0.1', `127.0.0.1:${dashboard.port}`, `[::1]:${dashboard.port}`]) {
      assert.equal((await rawGet('/api/sessions', { host })).status, 200, host);
    }
  });

  it('a request from another site is refused, the event stream included', async () => {
    const host = `127.0.0.1:${dashboard.port}`;
    for (const path of ['/api/sessions', '/api/events']) {
      assert.equal((await rawGet(path, { host, origin: 'http://attacker.example' })).status, 403, path);
    }
    const own = await fetch(new URL('/api/sessions', dashboard.url), { headers: { origin: `http://${host}` } });
    assert.equal(own.status, 200);
    assert.equal(own.headers.get('access-control-allow-origin'), null);
  });

  it('every response carries the security headers', async () => {
    const response = await fetch(new URL('/api/sessions', dashboard.url));
    assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  });
});
