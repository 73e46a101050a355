import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readCpuMs } from '../../tools/bench/proc.ts';
import { EXPORT_QUEUE } from '../http/admission.ts';
import { SEARCH_THREADS, SEARCH_WAITING } from '../search/searchPool.ts';
import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { startSpexWriter, type SpexWriter } from '../../tools/writer/spexWriter.ts';
import { startCommand, type RunningCommand } from './command.ts';
import { eventually, makeTempRecord } from './harness.ts';
import { writeExampleStore } from './sacApp.ts';
import { A, PROJECT, sentEvent, sessionJson } from './spexHarness.ts';

// One request does not stall the server, whatever kind of store it reads: a regular-expression
// search over spex lines and set-agent-comm bodies of megabytes runs on the search threads, not
// the event loop; searches beyond what the threads and their queue take are refused at once;
// and the command stops within its own deadline with searches and exports in flight. The
// dashboard runs as its own process, as a person runs it, so a server stuck on one request fails
// these tests instead of stalling them. Bounds here only stop a hang.

const HANG_BOUND_MS = 30_000;
/** Minutes of matching over megabytes of `a`s, even for RE2: its program is a thousand copies long. */
const SLOW_PATTERN = '(.*a){1000}$';
const WEB = 'web-app#3f9c1a20';

const spexHome = makeTempRecord('rec-heavy-spex-');
const sacStore = makeTempRecord('rec-heavy-sac-');
let spexWriter: SpexWriter;
let sacWriter: SacWriter;
let command: RunningCommand;

before(async () => {
  spexWriter = await startSpexWriter(spexHome.dir);
  await spexWriter.send({ op: 'session', project: PROJECT, sessionId: A, value: sessionJson(A) });
  for (let i = 0; i < 3; i++) await spexWriter.send({ op: 'event', project: PROJECT, sessionId: A, event: sentEvent('a'.repeat(2_000_000) + '!', null) });
  await spexWriter.send({ op: 'event', project: PROJECT, sessionId: A, event: sentEvent('a long line '.repeat(3_000_000), null) });
  sacWriter = await startSacWriter(sacStore.dir);
  await writeExampleStore(sacWriter);
  await sacWriter.send({ op: 'big', room: 'team', seat: WEB, ts: '2026-11-30T17:20:00.000+00:00', type: 'FACT', bodyBytes: 2_000_000, marker: 'aaaa' });
  command = await startCommand(['--spex', spexHome.dir, '--sac', sacStore.dir, '--port', '0', '--no-open']);
  await eventually(
    async () => {
      const list = (await (await command.get('/api/sessions')).json()) as { sources: { indexing: { state: string } }[] };
      return list.sources.length === 2 && list.sources.every((source) => source.indexing.state === 'ready') ? true : undefined;
    },
    'the first scans',
    60_000,
  );
});

after(async () => {
  if (command !== undefined && command.child.exitCode === null) {
    command.child.kill('SIGKILL');
    await command.exited;
  }
  await spexWriter?.kill();
  await sacWriter?.close();
  spexHome.remove();
  sacStore.remove();
});

function serverCpuMs(): number {
  const used = readCpuMs(command.child.pid!);
  assert.ok(used !== null, 'the server process is running');
  return used;
}

/** Resolves once the server has spent `ms` of CPU since `from`: the work asked is under way. */
function serverWorked(from: number, ms: number, what: string): Promise<true> {
  return eventually(() => (serverCpuMs() - from >= ms ? true : undefined), what, HANG_BOUND_MS);
}

const slowSearch = `/api/search?regex=1&q=${encodeURIComponent(SLOW_PATTERN)}`;

/** A search whose client can go away; resolves with its status, or null once it went. */
function startSearch(): { answered: Promise<{ status: number; retryAfter: string | null } | null>; leave(): void } {
  const client = new AbortController();
  const answered = command.get(slowSearch, { signal: client.signal }).then(
    async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() }),
    () => null,
  );
  return { answered, leave: () => client.abort() };
}

/**
 * Asks for an export and takes none of it. `answered` resolves once its head comes: it is then
 * under way, waiting on its client a megabyte or so in. One beyond those the queue runs at once
 * waits in the queue, unanswered.
 */
function askExport(path: string): { req: ClientRequest; answered: Promise<void> } {
  const req = request(new URL(path, command.url), { headers: { authorization: `Bearer ${command.token}` } });
  const answered = new Promise<void>((resolve, reject) => {
    req.on('response', (response) => {
      response.pause();
      resolve();
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
  });
  req.end();
  return { req, answered };
}

describe('a search over spex and sac texts', () => {
  it('runs on a search thread: while a regular expression takes minutes over their megabytes, the list is answered', async () => {
    const before = serverCpuMs();
    const search = startSearch();
    await serverWorked(before, 300, 'the search to be under way');
    const listed = await command.get('/api/sessions', { signal: AbortSignal.timeout(HANG_BOUND_MS) });
    assert.equal(listed.status, 200);
    assert.equal(await Promise.race([search.answered.then(() => 'answered'), sleep(0, 'running')]), 'running');
    search.leave();
    await search.answered;
  });

  it('beyond those running and waiting, a search is refused at once with a 503 and when to try again; a page is answered meanwhile', async () => {
    // Searches are asked one after another, none leaving, until one is answered: that one is
    // beyond those running and waiting (however many places an earlier search, whose client went,
    // still held when these came).
    const searches: ReturnType<typeof startSearch>[] = [];
    let refused: { status: number; retryAfter: string | null } | undefined;
    for (let asked = 0; refused === undefined && asked < 20; asked++) {
      searches.push(startSearch());
      const answer = await Promise.race([...searches.map((search) => search.answered), sleep(500, undefined)]);
      if (answer !== undefined) refused = answer ?? { status: 0, retryAfter: null };
    }
    assert.equal(refused?.status, 503);
    assert.equal(refused?.retryAfter, '2');
    // Never while there was room: at most one place was still held by the search before.
    assert.ok(searches.length >= SEARCH_THREADS + SEARCH_WAITING, `refused as search ${searches.length} was asked`);
    const page = await command.get(`/api/sessions/${A}`, { signal: AbortSignal.timeout(HANG_BOUND_MS) });
    assert.equal(page.status, 200);
    for (const search of searches) search.leave();
    await Promise.all(searches.map((search) => search.answered));
  });
});

describe('stopping the command', () => {
  // Last: it stops the command.
  it('SIGTERM stops it within its own deadline while a search runs and four exports of a 36 MB line are under way or queued', async () => {
    const list = (await (await command.get('/api/sessions')).json()) as { sources: { id: string; kind: string }[] };
    const spexId = list.sources.find((source) => source.kind === 'spex')!.id;
    // Four exports: those the queue runs at once (EXPORT_QUEUE.running) under way, the rest waiting.
    const exports = Array.from({ length: 4 }, () => askExport(`/api/sources/${spexId}/conversations/${A}/export?format=ndjson`));
    const underWay = Promise.all(exports.slice(0, EXPORT_QUEUE.running).map((one) => one.answered)).then(() => 'under way' as const);
    assert.equal(await Promise.race([underWay, sleep(HANG_BOUND_MS, 'not answered' as const)]), 'under way');
    const before = serverCpuMs();
    const search = startSearch();
    await serverWorked(before, 300, 'the search to be under way');
    command.child.kill('SIGTERM');
    // Exit code 0: the close finished before the command's own deadline (docs/usage.md: 2 s).
    const ended = await Promise.race([command.exited, sleep(HANG_BOUND_MS, 'still running' as const)]);
    for (const one of exports) one.req.destroy();
    search.leave();
    await search.answered;
    assert.equal(ended, 0);
  });
});
