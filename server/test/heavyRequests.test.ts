import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
// the CPU time it spends can be read from the kernel.

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

  it('a search whose client goes away stops working', async () => {
    const before = serverCpuMs();
    const client = new AbortController();
    const search = command.get(searchPath(PATHOLOGICAL, 'heavy'), { signal: client.signal }).catch((error: unknown) => error);
    await serverWorked(before, 500, 'the search to be under way');
    client.abort();
    assert.ok((await search) instanceof Error);
    await sleep(500);
    // Run to its end, the search would take seconds more: its CPU time tells whether it goes on.
    const from = serverCpuMs();
    await sleep(2_000);
    const used = serverCpuMs() - from;
    assert.ok(used < 500, `the server used ${used} ms of CPU in the 2 s after the client went away`);
    assert.equal((await timedGet('/api/sessions', { signal: AbortSignal.timeout(10_000) })).status, 200);
  });

  it('searches beyond those running and waiting are refused at once, with a 503 that says so', async () => {
    const clients: AbortController[] = [];
    const started: Promise<unknown>[] = [];
    try {
      let refused: Timed | null = null;
      for (let i = 0; i < 20 && refused === null; i++) {
        const client = new AbortController();
        clients.push(client);
        const answer = timedGet(searchPath(PATHOLOGICAL, 'heavy', `&limit=${i + 1}`), { signal: client.signal });
        started.push(answer.catch(() => null));
        const first = await Promise.race([answer.catch(() => null), sleep(300, 'waiting' as const)]);
        if (first !== 'waiting' && first !== null && first.status === 503) refused = first;
      }
      assert.ok(refused !== null, 'a search was refused');
      assert.match(JSON.parse(refused.body).message, /too many searches at once/);
      // The server still answers everything else.
      assert.equal((await timedGet('/api/sessions', { signal: AbortSignal.timeout(10_000) })).status, 200);
    } finally {
      for (const client of clients) client.abort();
      await Promise.all(started);
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
    const cpuOf = async (clients: number) => {
      const from = serverCpuMs();
      const answers = await Promise.all(Array.from({ length: clients }, () => timedGet('/api/sessions/large', { signal: AbortSignal.timeout(60_000) })));
      assert.ok(answers.every((answer) => answer.status === 200));
      return serverCpuMs() - from;
    };
    const one = await cpuOf(1);
    const three = await cpuOf(3);
    assert.ok(three < 2 * one, `one client: ${one} ms of CPU; three at once: ${three} ms`);
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
    const stopped = await Promise.race([command.exited.then(() => 'stopped'), sleep(10_000, 'still running')]);
    client.abort();
    await search;
    assert.equal(stopped, 'stopped');
  });
});

describe('a search has a time budget', () => {
  it('a search that runs past its budget is stopped, with a 503 that says so', async () => {
    const dashboard = await startTestDashboard(record.dir, { searchBudgetMs: 300 });
    try {
      await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan', 60_000);
      // Linear, but seconds of work over the large texts.
      const response = await fetch(new URL(searchPath('zebra', 'heavy'), dashboard.url), { signal: AbortSignal.timeout(60_000) });
      assert.equal(response.status, 503);
      assert.match(((await response.json()) as { message: string }).message, /took longer than 0.3 s/);
    } finally {
      await dashboard.close();
    }
  });
});
