import assert from 'node:assert/strict';
import { watch } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readEntry } from '../../shared/record/entry.ts';
import { parseEntryName } from '../../shared/record/entryName.ts';
import { startWriter } from './writerClient.ts';
import type { Writer } from './writerClient.ts';

let recordDir = '';
const writers: Writer[] = [];
before(async () => {
  recordDir = await mkdtemp(path.join(os.tmpdir(), 'rec-writerprocess-'));
});
afterEach(async () => {
  await Promise.all(writers.splice(0).map((writer) => writer.kill()));
});
after(async () => {
  await rm(recordDir, { recursive: true, force: true });
});

async function startTestWriter(): Promise<Writer> {
  const writer = await startWriter(recordDir);
  writers.push(writer);
  return writer;
}

let sessionCount = 0;
function nextSessionId(): string {
  sessionCount += 1;
  return `5e551015-0000-4000-8000-${String(sessionCount).padStart(12, '0')}`;
}

function startEntry(sessionId: string, at: string, cwd = '/home/dev/projects/web-app') {
  return { kind: 'start', sessionId, at, cwd, host: 'claude-code', version: '2.1.314', inbound: 'accept' };
}

test('the writer process writes an entry a reader validates, and acks with its absolute path', async () => {
  const writer = await startTestWriter();
  const sessionId = nextSessionId();
  const ack = await writer.send({ op: 'write', sessionId, seq: 1, entry: startEntry(sessionId, '2026-11-20T09:00:00.000Z') });
  assert.equal(ack.file, path.join(recordDir, sessionId, '2026-11-20T090000.000Z-1.json'));
  assert.equal(readEntry(await readFile(ack.file ?? '')).outcome, 'entry');
});

test('a chunked write is visible half-written before it completes', async () => {
  const writer = await startTestWriter();
  const sessionId = nextSessionId();
  const folder = path.join(recordDir, sessionId);
  let acked = false;
  const ack = writer
    .send({ op: 'write', sessionId, seq: 1, entry: startEntry(sessionId, '2026-11-20T09:00:00.000Z'), chunkBytes: 32, chunkDelayMs: 60 })
    .finally(() => (acked = true));
  const sightings: string[] = [];
  while (!acked) {
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      sightings.push(readEntry(await readFile(path.join(folder, name))).outcome);
    }
    await sleep(10);
  }
  const { file } = await ack;
  assert.ok(sightings.includes('unparsed'), `expected a half-written sighting, saw ${sightings.join(',')}`);
  assert.equal(readEntry(await readFile(file ?? '')).outcome, 'entry');
});

test('a writer killed after stallAfterBytes leaves a file that never parses', async () => {
  const writer = await startTestWriter();
  const sessionId = nextSessionId();
  const ack = await writer.send({
    op: 'write',
    sessionId,
    seq: 1,
    entry: startEntry(sessionId, '2026-11-20T09:00:00.000Z'),
    stallAfterBytes: 57,
  });
  assert.equal(ack.stalled, true);
  assert.equal(await writer.kill('SIGKILL'), null, 'killed by a signal, not exited');
  const file = ack.file ?? '';
  for (let look = 0; look < 3; look += 1) {
    assert.equal((await stat(file)).size, 57);
    assert.equal(readEntry(await readFile(file)).outcome, 'unparsed');
    await sleep(50);
  }
});

test('a stalled write does not hold up the commands after it', async () => {
  const writer = await startTestWriter();
  const sessionId = nextSessionId();
  const entry = startEntry(sessionId, '2026-11-20T09:00:00.000Z');
  await writer.send({ op: 'write', sessionId, seq: 1, entry, stallAfterBytes: 10 });
  const next = await writer.send({ op: 'write', sessionId, seq: 2, entry, at: '2026-11-20T09:00:05.000Z' });
  assert.equal(path.basename(next.file ?? ''), '2026-11-20T090005.000Z-2.json');
});

test('commands run one at a time, in order: a slow write is acked before the quick one sent after it', async () => {
  const writer = await startTestWriter();
  const sessionId = nextSessionId();
  const order: string[] = [];
  const slow = writer
    .send({ op: 'write', id: 'slow', sessionId, seq: 1, entry: startEntry(sessionId, '2026-11-20T09:00:00.000Z'), chunkBytes: 40, chunkDelayMs: 40 })
    .then(() => order.push('slow'));
  const quick = writer
    .send({ op: 'write', id: 'quick', sessionId, seq: 2, entry: startEntry(sessionId, '2026-11-20T09:00:01.000Z') })
    .then(() => order.push('quick'));
  await Promise.all([slow, quick]);
  assert.deepEqual(order, ['slow', 'quick']);
});

test('raw writes arbitrary bytes, back-dates them on request, and refuses a path that leaves the record directory', async () => {
  const writer = await startTestWriter();
  const bytes = Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x22]);
  const ack = await writer.send({ op: 'raw', path: 'stray-session/notes.txt', bytes: bytes.toString('base64'), mtime: '2026-01-01T00:00:00.000Z' });
  assert.equal(ack.file, path.join(recordDir, 'stray-session', 'notes.txt'));
  assert.deepEqual(await readFile(ack.file ?? ''), bytes);
  assert.equal((await stat(ack.file ?? '')).mtime.toISOString(), '2026-01-01T00:00:00.000Z');
  await assert.rejects(writer.send({ op: 'raw', path: '../escaped.txt', bytes: 'aGk=' }), /leaves the record directory/);
  await assert.rejects(writer.send({ op: 'raw', path: 'a/../../escaped.txt', bytes: 'aGk=' }), /leaves the record directory/);
  await assert.rejects(writer.send({ op: 'raw', path: '/tmp/escaped.txt', bytes: 'aGk=' }), /leaves the record directory/);
  assert.equal((await readdir(path.dirname(recordDir))).includes('escaped.txt'), false);
});

test('a back-dated raw file appears whole and already dated: a watcher of its folder is told of it once, never of a change', async () => {
  const writer = await startTestWriter();
  const folder = path.join(recordDir, 'dated-session');
  await writer.send({ op: 'raw', path: 'dated-session/first.txt', bytes: 'aGk=' });
  const told: string[] = [];
  const watcher = watch(folder, (event, name) => told.push(`${event} ${name}`));
  try {
    const name = '2026-01-01T000000.000Z-1.json';
    await writer.send({ op: 'raw', path: `dated-session/${name}`, bytes: Buffer.from('{"kind":"message","te').toString('base64'), mtime: '2026-01-01T00:00:00.000Z' });
    // Events come in order: once the next file's is told, every event of the dated one has been.
    await writer.send({ op: 'raw', path: 'dated-session/after.txt', bytes: 'aGk=' });
    for (let i = 0; i < 400 && !told.some((line) => line.endsWith(' after.txt')); i++) await sleep(5);
    assert.deepEqual(told.filter((line) => line.endsWith(` ${name}`)), [`rename ${name}`]);
    assert.equal((await stat(path.join(folder, name))).mtime.toISOString(), '2026-01-01T00:00:00.000Z');
    assert.deepEqual((await readdir(path.dirname(recordDir))).filter((entry) => entry.includes(`raw-${writer.pid}-`)), []);
  } finally {
    watcher.close();
  }
});

test('a burst writes N complete, valid message entries with consecutive sequence numbers', async () => {
  const writer = await startTestWriter();
  const sessionId = nextSessionId();
  const ack = await writer.send({ op: 'burst', sessionId, count: 200, startSeq: 5, cwd: '/home/dev/projects/api-service' });
  assert.equal(ack.count, 200);
  const names = await readdir(path.join(recordDir, sessionId));
  const seqs = names.map((name) => parseEntryName(name)?.seq).sort((a, b) => Number(a ?? 0) - Number(b ?? 0));
  assert.deepEqual(seqs, Array.from({ length: 200 }, (_, i) => i + 5));
  const sides = new Set<string>();
  const texts = new Set<string>();
  for (const name of names) {
    const reading = readEntry(await readFile(path.join(recordDir, sessionId, name)));
    assert.equal(reading.outcome, 'entry', `${name}: ${reading.outcome !== 'entry' ? reading.why : ''}`);
    if (reading.outcome === 'entry' && reading.facts.kind === 'message') {
      assert.equal(reading.facts.sessionId, sessionId);
      assert.equal(reading.facts.at, parseEntryName(name)?.at);
      sides.add(reading.facts.side);
      texts.add(String(reading.value['text']));
    }
  }
  assert.deepEqual([...sides].sort(), ['received', 'sent']);
  assert.equal(texts.size, 200, 'every text differs');
});

test('an invalid command is refused with its id, and the writer goes on', async () => {
  const writer = await startTestWriter();
  const sessionId = nextSessionId();
  await assert.rejects(
    writer.send({ op: 'write', id: 'bad', sessionId, seq: -1, entry: startEntry(sessionId, '2026-11-20T09:00:00.000Z') }),
    /bad.*seq/,
  );
  await assert.rejects(writer.send({ op: 'write', sessionId: '..', seq: 1, entry: {} }), /single folder name/);
  const ack = await writer.send({ op: 'write', sessionId, seq: 1, entry: startEntry(sessionId, '2026-11-20T09:00:00.000Z') });
  assert.equal(ack.ok, true);
});

test('exit ends the writer with code 0', async () => {
  const writer = await startTestWriter();
  await writer.send({ op: 'exit' });
  assert.equal(await writer.exited, 0);
});

test('a text holding the line and paragraph separators (U+2028, U+2029) is written as given, and acked', { timeout: 10_000 }, async () => {
  const writer = await startTestWriter();
  const sessionId = nextSessionId();
  await writer.send({ op: 'write', sessionId, seq: 1, entry: startEntry(sessionId, '2026-11-20T09:00:00.000Z') });
  const text = 'one\u2028two\u2029three';
  const ack = await writer.send({ op: 'write', sessionId, seq: 2, entry: { kind: 'message', sessionId, at: '2026-11-20T09:00:01.000Z', side: 'sent', peer: { as: 'api-service' }, text, isQueued: true, cwd: '/home/dev/projects/web-app' } });
  assert.equal(JSON.parse(await readFile(ack.file ?? '', 'utf8')).text, text);
});
