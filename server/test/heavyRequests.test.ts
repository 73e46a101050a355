import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileResponseSchema, sessionResponseSchema, type FileItem } from '../../shared/wire/record.ts';
import { isoAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { readCpuMs } from '../../tools/bench/proc.ts';
import { startWriter, type Writer } from '../../tools/writer/writerClient.ts';
import { startCommand, type RunningCommand } from './command.ts';
import { sourceRefOf } from '../sources/sourceRef.ts';
import { eventually, makeTempRecord, startTestDashboard } from './harness.ts';
import { recordSessionsResponseSchema, recordSearchResponseSchema } from '../../shared/test/recordWire.ts';

// One request must not stall the server: a search with a pathological pattern, a search over
// many large texts, a page of large entries. The dashboard runs as its own process, as a person
// runs it, so that a server stuck on one request fails these tests instead of stalling them, and
// what it does can be read from the kernel: the CPU time it spends tells that a request is under
// way, and the bytes it reads what work was done, whatever the load on the machine.

const record = makeTempRecord('rec-heavy-');
let writer: Writer;
let command: RunningCommand;

const PATHOLOGICAL = '(a+)+$';
const HEAVY_TEXTS = 40; // 40 texts of 2 MB: a regular expression search of them is seconds of work
const HEAVY_TEXT = 'a'.repeat(2_000_000) + '!';
const LARGE_TEXT_BYTES = 24 * 1024 * 1024;
const largeText = (n: number) => `${n} 日本語 `.repeat(LARGE_TEXT_BYTES / 12);
const LARGE_FIELD = 'x'.repeat(2_000_000);
// As large as the entries, and not ASCII: the costliest kind of text to decode and parse.
const HUGE_TEXT = '日本語のテキスト ✓ '.repeat(Math.floor((60 * 1024 * 1024) / Buffer.byteLength('日本語のテキスト ✓ ')));

function cwdOf(sessionId: string): string {
  return `/home/dev/projects/${sessionId}`;
}

async function writeSession(sessionId: string, texts: readonly string[], extra: Record<string, unknown> = {}): Promise<string[]> {
  const cwd = cwdOf(sessionId);
  await writer.send({ op: 'write', sessionId, seq: 1, entry: startEntry(0, { sessionId, cwd }) });
  const files: string[] = [];
  for (const [i, text] of texts.entries()) {
    const ack = await writer.send({ op: 'write', sessionId, seq: i + 2, entry: sentEntry(i + 1, text, { sessionId, cwd, ...extra }) });
    files.push(ack.file!.split('/').at(-1)!);
  }
  return files;
}

let largeFiles: string[] = [];
let fieldFile = '';
let hugeFile = '';

before(async () => {
  writer = await startWriter(record.dir);
  await writeSession('small', ['one', 'two', 'three']);
  await writeSession('pathological', ['a'.repeat(31) + '!', 'a'.repeat(5_000) + '!', 'b' + 'a'.repeat(5_000)]);
  await writeSession('heavy', Array.from({ length: HEAVY_TEXTS }, () => HEAVY_TEXT));
  largeFiles = await writeSession('large', [largeText(1), largeText(2), largeText(3)]);
  fieldFile = (await writeSession('large-field', ['short text'], { attachment: LARGE_FIELD }))[0]!;
  hugeFile = (await writeSession('huge', [HUGE_TEXT]))[0]!;
  command = await startCommand([record.dir, '--port', '0', '--no-open']);
  await eventually(
    async () => {
      const list = recordSessionsResponseSchema.parse(await (await command.get('/api/sessions')).json());
      return list.sources[0]!.indexing.state === 'ready' && list.projects.length === 6 ? true : undefined;
    },
    'the first scan',
    60_000,
  );
});

after(async () => {
  await writer?.kill();
  if (command !== undefined && command.child.exitCode === null) {
    command.child.kill('SIGTERM');
    // A server stuck on one request does not even stop when asked.
    const stopped = await Promise.race([command.exited.then(() => true), sleep(5_000, false)]);
    if (!stopped) command.child.kill('SIGKILL');
    await command.exited;
  }
  record.remove();
});

/** When the answer's head came (the server's work on it was done), and when its body had all come. */
type Timed = { status: number; body: string; headAt: number; doneAt: number };

function timedGet(path: string, init: RequestInit = {}): Promise<Timed> {
  return command.get(path, init).then(async (response) => {
    const headAt = performance.now();
    return { status: response.status, body: await response.text(), headAt, doneAt: performance.now() };
  });
}

/** The CPU time the server process has used, all its threads together. */
function serverCpuMs(): number {
  const used = readCpuMs(command.child.pid!);
  assert.ok(used !== null, 'the server process is running');
  return used;
}

/** The bytes the server process has read so far, all its threads together (`rchar`). */
function serverReadBytes(): number {
  const io = readFileSync(`/proc/${command.child.pid!}/io`, 'utf8');
  const read = /^rchar: (\d+)$/m.exec(io);
  assert.ok(read !== null, 'the kernel says what the server read');
  return Number(read[1]);
}

/** The bytes the server read while `work` ran. */
async function bytesReadFor(work: () => Promise<void>): Promise<number> {
  const from = serverReadBytes();
  await work();
  return serverReadBytes() - from;
}

/** Resolves once the server has spent `ms` of CPU since `from`: the request is being worked on. */
function serverWorked(from: number, ms: number, what: string): Promise<true> {
  return eventually(() => (serverCpuMs() - from >= ms ? true : undefined), what, 30_000);
}

function searchPath(q: string, project: string, extra = ''): string {
  return `/api/search?regex=1&q=${encodeURIComponent(q)}&project=${encodeURIComponent(cwdOf(project))}${extra}`;
}

describe('one request does not stall the server', () => {
  it('a search with a pathological pattern answers, and the server answers others meanwhile', async () => {
    const search = timedGet(searchPath(PATHOLOGICAL, 'pathological'), { signal: AbortSignal.timeout(30_000) });
    await sleep(50);
    const list = timedGet('/api/sessions', { signal: AbortSignal.timeout(10_000) });
    const [searched, listed] = await Promise.all([search, list]);
    assert.equal(listed.status, 200);
    assert.equal(searched.status, 200, searched.body);
    const found = recordSearchResponseSchema.parse(JSON.parse(searched.body));
    assert.deepEqual(found.hits.map((hit) => hit.match), [{ start: 1, end: 5_001 }]);
    assert.equal(found.scanned, 3);
  });

  it('a search whose client goes away reads no more of its texts', async () => {
    // What a whole search of the session reads: each of its files.
    const whole = readdirSync(join(record.dir, 'heavy')).reduce((sum, name) => sum + statSync(join(record.dir, 'heavy', name)).size, 0);
    const from = serverReadBytes();
    const client = new AbortController();
    const abandoned = command.get(searchPath(PATHOLOGICAL, 'heavy'), { signal: client.signal }).catch((error: unknown) => error);
    await eventually(() => (serverReadBytes() - from >= 2 * HEAVY_TEXT.length ? true : undefined), 'the search to have read two texts', 30_000);
    const atAbort = serverReadBytes() - from;
    client.abort();
    assert.ok((await abandoned) instanceof Error);
    // Then a whole search of a text found nowhere. On two cores one search runs at a time: had
    // the first gone on, this one would wait for it to read the rest of its texts.
    const search = await timedGet(`/api/search?q=zebra&project=${encodeURIComponent(cwdOf('heavy'))}`, { signal: AbortSignal.timeout(60_000) });
    assert.equal(search.status, 200);
    const sinceAbort = serverReadBytes() - from - atAbort;
    const rest = whole - atAbort;
    assert.ok(sinceAbort - whole < rest / 2, `the search left had ${rest} bytes of texts to read; since it was left, ${sinceAbort} bytes were read, ${whole} of them by the whole search after it`);
    assert.equal((await timedGet('/api/sessions', { signal: AbortSignal.timeout(10_000) })).status, 200);
  });

  it('searches beyond those running and waiting are refused at once, with a 503 that says so, before any search let in has answered', async () => {
    // Twenty at once, more than run and wait together. Each search let in reads the large texts
    // for seconds; one refused at once is answered before any of them.
    const clients = Array.from({ length: 20 }, () => new AbortController());
    const answers = clients.map((client, i) => timedGet(searchPath(PATHOLOGICAL, 'heavy', `&limit=${i + 1}`), { signal: client.signal }));
    try {
      const first = await Promise.race(answers);
      assert.equal(first.status, 503, `the first answer: ${first.status} ${first.body.slice(0, 200)}`);
      assert.match(JSON.parse(first.body).message, /too many searches at once/);
      // The server still answers everything else.
      assert.equal((await timedGet('/api/sessions', { signal: AbortSignal.timeout(10_000) })).status, 200);
    } finally {
      for (const client of clients) client.abort();
      await Promise.allSettled(answers);
    }
  });

  it('a page of large entries does not hold up a small request, and says what a page of them always said', async () => {
    const before = serverCpuMs();
    const big = timedGet('/api/sessions/large', { signal: AbortSignal.timeout(60_000) });
    await serverWorked(before, 150, 'the page to be under way');
    const small = timedGet('/api/sessions/small', { signal: AbortSignal.timeout(60_000) });
    const [bigAnswer, smallAnswer] = await Promise.all([big, small]);
    assert.equal(smallAnswer.status, 200);
    assert.equal(bigAnswer.status, 200);
    assert.ok(smallAnswer.doneAt < bigAnswer.headAt, 'the small page answered while the large one was read');
    const page = sessionResponseSchema.parse(JSON.parse(bigAnswer.body));
    const messages = page.items.filter((item): item is FileItem => item.type === 'file' && item.kind === 'message');
    assert.deepEqual(messages.map((item) => item.file), largeFiles);
    for (const [i, item] of messages.entries()) {
      assert.equal(item.evidence, 'parsed');
      assert.deepEqual(item.textClipped, { bytes: LARGE_TEXT_BYTES });
      const clipped = item.entry?.['text'] as string;
      assert.ok(Buffer.byteLength(clipped) > 60_000 && Buffer.byteLength(clipped) <= 64 * 1024 && largeText(i + 1).startsWith(clipped));
      assert.equal(item.entry?.['isQueued'], true);
    }
  });

  it('a page of large entries asked for by three clients at once is read once', async () => {
    const readFor = (clients: number) =>
      bytesReadFor(async () => {
        const answers = await Promise.all(Array.from({ length: clients }, () => timedGet('/api/sessions/large', { signal: AbortSignal.timeout(60_000) })));
        assert.ok(answers.every((answer) => answer.status === 200));
      });
    const one = await readFor(1);
    assert.ok(one >= largeFiles.length * LARGE_TEXT_BYTES, `one client: ${one} bytes read, the page's entries whole`);
    const three = await readFor(3);
    assert.ok(three < 2 * one, `one client: ${one} bytes read; three at once: ${three}`);
  });

  it('a large field other than the text is left out of a page and said so, as for any entry', async () => {
    const page = sessionResponseSchema.parse(JSON.parse((await timedGet('/api/sessions/large-field', { signal: AbortSignal.timeout(60_000) })).body));
    const item = page.items.find((candidate): candidate is FileItem => candidate.type === 'file' && candidate.file === fieldFile);
    assert.ok(item !== undefined);
    assert.deepEqual(item.fieldsClipped, [{ field: 'attachment', bytes: LARGE_FIELD.length + 2 }]);
    assert.equal(item.entry?.['text'], 'short text');
    assert.equal(item.entry?.['attachment'], undefined);
    assert.equal(item.textClipped, undefined);
  });

  it('a large entry comes whole from the file endpoint without holding up a small request', async () => {
    const before = serverCpuMs();
    const big = timedGet(`/api/sessions/huge/files/${hugeFile}`, { signal: AbortSignal.timeout(60_000) });
    await serverWorked(before, 150, 'the file to be under way');
    const small = timedGet('/api/sessions/small', { signal: AbortSignal.timeout(60_000) });
    const [bigAnswer, smallAnswer] = await Promise.all([big, small]);
    assert.equal(bigAnswer.status, 200);
    assert.equal(smallAnswer.status, 200);
    assert.ok(smallAnswer.doneAt < bigAnswer.headAt, 'the small page answered while the large file was read');
    const file = fileResponseSchema.parse(JSON.parse(bigAnswer.body));
    const text = file.item.entry?.['text'] as string;
    const sha = (value: string) => createHash('sha256').update(value).digest('hex');
    assert.equal(sha(text), sha(HUGE_TEXT));
    // The file's own text comes too, byte for byte.
    assert.equal(sha(file.item.fileText ?? ''), createHash('sha256').update(readFileSync(join(record.dir, 'huge', hugeFile))).digest('hex'));
    const { fileText: _text, ...item } = file.item;
    assert.deepEqual({ ...item, entry: null }, {
      type: 'file',
      source: sourceRefOf('record', record.dir),
      file: hugeFile,
      at: isoAt(1),
      seq: 2,
      size: Buffer.byteLength(JSON.stringify(sentEntry(1, HUGE_TEXT, { sessionId: 'huge', cwd: cwdOf('huge') }))),
      evidence: 'parsed',
      run: 0,
      why: null,
      kind: 'message',
      side: 'sent',
      facts: { kind: 'message', side: 'sent', peer: { as: 'uds:/tmp/cc-socks/4242.sock', sessionId: null }, isQueued: true, reason: null, outcome: null, withheld: false, textLength: null, textHash: null },
      entry: null,
    });
  });

  // Last: it stops the server the other tests use.
  it('the command stops when asked, even while a search runs', async () => {
    const before = serverCpuMs();
    const client = new AbortController();
    const search = command.get(searchPath(PATHOLOGICAL, 'heavy'), { signal: client.signal }).catch(() => null);
    await serverWorked(before, 300, 'the search to be under way');
    command.child.kill('SIGTERM');
    // Whatever its close waits for, the command's own deadline ends it in moments, if its event
    // loop is free to run that timer: a loop held by the search would never stop. The bound only
    // stops that hang.
    const stopped = await Promise.race([command.exited.then(() => 'stopped'), sleep(30_000, 'still running')]);
    client.abort();
    await search;
    assert.equal(stopped, 'stopped');
  });
});

describe('a search has a time budget', () => {
  /** A search of the in-process dashboard, with a budget of its own. */
  async function searchWithBudget(budgetMs: number, path: string) {
    const dashboard = await startTestDashboard(record.dir, { searchBudgetMs: budgetMs });
    try {
      await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan', 60_000);
      const response = await fetch(new URL(path, dashboard.url), { signal: AbortSignal.timeout(60_000) });
      const body = await response.text();
      assert.equal(response.status, 200, body);
      return recordSearchResponseSchema.parse(JSON.parse(body));
    } finally {
      await dashboard.close();
    }
  }

  it('a search that runs past its budget answers with what it found, and says how far it got: never "no matches"', async () => {
    // Every heavy text matches, and each is tens of milliseconds of matching: 40 of them are seconds.
    const found = await searchWithBudget(300, searchPath('(a+)+!', 'heavy'));
    assert.ok(found.stoppedEarly !== null, 'the search says it stopped early');
    assert.equal(found.stoppedEarly.candidates, HEAVY_TEXTS);
    assert.ok(found.stoppedEarly.searched < HEAVY_TEXTS, `searched ${found.stoppedEarly.searched} of ${HEAVY_TEXTS}`);
    assert.ok(found.stoppedEarly.afterMs >= 300, `stopped after ${found.stoppedEarly.afterMs} ms`);
    // What it found is every text it searched: each of them matches.
    assert.equal(found.hits.length, found.stoppedEarly.searched);
    assert.equal(found.truncated, false);
  });

  it('one text that takes longer than the budget has its thread ended, and the search answers that it searched none of it', async () => {
    // One text of 60 MB under a regular expression quadratic in its length (from every テ, every
    // place after it, for a "!" it does not hold): far beyond the budget however fast the machine,
    // and the thread's own check between texts never interrupts it. (`(テ+)+$` backtracks little
    // on this text: 40–70 ms of matching on a fast machine, within the budget some of the time.)
    const found = await searchWithBudget(50, searchPath('テ.*!', 'huge'));
    assert.deepEqual({ ...found.stoppedEarly, afterMs: 0 }, { searched: 0, candidates: 1, afterMs: 0 });
    assert.deepEqual(found.hits, []);
  });

  it('a search that goes through its texts within its budget says it did not stop early', async () => {
    const found = await searchWithBudget(60_000, searchPath('three', 'small'));
    assert.equal(found.stoppedEarly, null);
    assert.equal(found.hits.length, 1);
  });
});
