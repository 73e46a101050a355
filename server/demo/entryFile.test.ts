import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readEntry } from '../../shared/record/entry.ts';
import { parseEntryName } from '../../shared/record/entryName.ts';
import { entryFileName, textFields, writeEntryFile } from './entryFile.ts';

let recordDir = '';
before(async () => {
  recordDir = await mkdtemp(path.join(os.tmpdir(), 'rec-entryfile-'));
});
after(async () => {
  await rm(recordDir, { recursive: true, force: true });
});

const SESSION = '0b7c3f7e-3b8a-4d5e-9f10-2a3b4c5d6e7f';

function startEntry(at: string, sessionId = SESSION) {
  return { kind: 'start', sessionId, at, cwd: '/home/dev/projects/web-app', host: 'claude-code', version: '2.1.314', inbound: 'accept' };
}

test('an entry file name is the UTC time to the millisecond without colons, then the sequence', () => {
  assert.equal(entryFileName('2026-11-20T09:00:01.005Z', 7), '2026-11-20T090001.005Z-7.json');
  // A time with an offset is named in UTC.
  assert.equal(entryFileName('2026-11-20T10:00:01.005+01:00', 12), '2026-11-20T090001.005Z-12.json');
  assert.equal(entryFileName(new Date(Date.UTC(2026, 10, 20, 9, 0, 1, 5)), 1), '2026-11-20T090001.005Z-1.json');
  assert.deepEqual(parseEntryName(entryFileName('2026-11-20T09:00:01.005Z', 10)), {
    name: '2026-11-20T090001.005Z-10.json',
    at: '2026-11-20T09:00:01.005Z',
    seq: 10,
  });
  assert.throws(() => entryFileName('not a time', 1), RangeError);
  assert.throws(() => entryFileName('2026-11-20T09:00:01.005Z', -1), RangeError);
});

test('a written entry reads back as the same entry, in its session folder, named by its own time', async () => {
  const entry = startEntry('2026-11-20T09:00:00.000Z');
  const file = await writeEntryFile(recordDir, SESSION, entry, { seq: 1 });
  assert.equal(path.dirname(file), path.join(recordDir, SESSION));
  assert.equal(parseEntryName(path.basename(file))?.at, entry.at);
  const reading = readEntry(await readFile(file));
  assert.equal(reading.outcome, 'entry');
  assert.deepEqual(reading.outcome === 'entry' ? reading.value : null, entry);
});

test('the at option names the file, and a trailing newline still parses', async () => {
  const entry = startEntry('2026-11-20T09:00:00.000Z');
  const file = await writeEntryFile(recordDir, SESSION, entry, { seq: 2, at: '2026-11-20T09:30:00.250Z', trailingNewline: true });
  assert.equal(path.basename(file), '2026-11-20T093000.250Z-2.json');
  const bytes = await readFile(file);
  assert.equal(bytes.at(-1), 0x0a);
  assert.equal(readEntry(bytes).outcome, 'entry');
});

test('a file is written once: writing the same name again fails and leaves the first intact (rule.oneWriter)', async () => {
  const first = startEntry('2026-11-20T09:01:00.000Z');
  const file = await writeEntryFile(recordDir, SESSION, first, { seq: 3 });
  const original = await readFile(file, 'utf8');
  await assert.rejects(writeEntryFile(recordDir, SESSION, { ...first, inbound: 'refuse' }, { seq: 3 }), { code: 'EEXIST' });
  assert.equal(await readFile(file, 'utf8'), original);
});

test('a session id that is not one folder name is refused: a session writes only inside its own folder', async () => {
  await assert.rejects(writeEntryFile(recordDir, '../escape', startEntry('2026-11-20T09:00:00.000Z'), { seq: 1 }));
  await assert.rejects(writeEntryFile(recordDir, 'a/b', startEntry('2026-11-20T09:00:00.000Z'), { seq: 1 }));
  assert.deepEqual((await readdir(path.dirname(recordDir))).includes('escape'), false);
});

test('a chunked write is visible half-written before it completes', async () => {
  const sessionId = 'c0c0c0c0-0000-4000-8000-000000000001';
  const entry = { ...startEntry('2026-11-20T09:02:00.000Z', sessionId), cwd: '/home/dev/projects/' + 'x'.repeat(200) };
  const folder = path.join(recordDir, sessionId);
  let done = false;
  const writing = writeEntryFile(recordDir, sessionId, entry, { seq: 1, chunkBytes: 40, chunkDelayMs: 25 }).finally(() => {
    done = true;
  });
  const seen: Array<{ size: number; outcome: string }> = [];
  while (!done) {
    const names = await readdir(folder).catch(() => []);
    for (const name of names) {
      const bytes = await readFile(path.join(folder, name));
      seen.push({ size: bytes.length, outcome: readEntry(bytes).outcome });
    }
    await sleep(5);
  }
  const file = await writing;
  const full = (await stat(file)).size;
  assert.ok(
    seen.some((s) => s.outcome === 'unparsed' && s.size > 0 && s.size < full),
    `expected a half-written sighting, saw ${JSON.stringify(seen)}`,
  );
  assert.equal(readEntry(await readFile(file)).outcome, 'entry');
});

test('a stalled write leaves a cut-short file that never parses, and lets go only when its signal aborts', async () => {
  const sessionId = 'c0c0c0c0-0000-4000-8000-000000000002';
  const controller = new AbortController();
  let stalledFile = '';
  let settled = false;
  const writing = writeEntryFile(recordDir, sessionId, startEntry('2026-11-20T09:03:00.000Z', sessionId), {
    seq: 1,
    stallAfterBytes: 30,
    signal: controller.signal,
    onStalled: (file) => {
      stalledFile = file;
    },
  });
  writing.catch(() => {}).finally(() => (settled = true));
  await sleep(100);
  assert.notEqual(stalledFile, '');
  assert.equal(settled, false, 'a stalled write must not finish by itself');
  assert.equal((await stat(stalledFile)).size, 30);
  assert.equal(readEntry(await readFile(stalledFile)).outcome, 'unparsed');
  controller.abort();
  await assert.rejects(writing, /stalled/);
  assert.equal((await stat(stalledFile)).size, 30, 'letting go does not finish the file');
});

test('metadata mode keeps the UTF-8 length and sha256 of the text, never the text (rule.metadataOnly)', () => {
  assert.deepEqual(textFields('abc', 'text'), { text: 'abc' });
  assert.deepEqual(textFields('abc', 'metadata'), {
    textLength: 3,
    textHash: 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  });
  const fields = textFields('héllo 🚀', 'metadata');
  assert.equal('text' in fields, false);
  assert.equal((fields as { textLength: number }).textLength, 11, 'length is in UTF-8 bytes, not UTF-16 units');
  const entry = {
    kind: 'message',
    sessionId: SESSION,
    at: '2026-11-20T09:04:00.000Z',
    side: 'sent',
    peer: { as: 'api-service' },
    ...fields,
    isQueued: true,
    cwd: '/home/dev/projects/web-app',
  };
  const reading = readEntry(Buffer.from(JSON.stringify(entry)));
  assert.equal(reading.outcome === 'entry' && reading.facts.kind === 'message' && reading.facts.withheld, true);
});
