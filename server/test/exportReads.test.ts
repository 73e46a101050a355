import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isoAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { startWriter } from '../../tools/writer/writerClient.ts';
import { buildApp } from '../http/app.ts';
import { createRecordSource } from '../record/recordSource.ts';
import { createLoopTurns, type LoopTurns } from '../sources/loopTurns.ts';
import { makeTempRecord } from './harness.ts';

// An export's files are read on a thread a batch ahead of what is sent (server/watch/readAhead.ts),
// and its items are made a step at a time in turns of the event loop shared with every request.
// Neither may change a byte: what is sent is each file as it is on disk, in the session's order.

const record = makeTempRecord('rec-export-reads-');
const FILES = 150;
/** More than a batch read ahead holds (1 MiB), and more than the files read ahead take (4 MiB): read on a reader thread. */
const LARGE_TEXT = 'ü large text '.repeat(Math.ceil((4.5 * 1024 * 1024) / 14));

before(async () => {
  const writer = await startWriter(record.dir);
  await writer.send({ op: 'write', sessionId: 'many', seq: 1, entry: startEntry(0, { sessionId: 'many' }) });
  for (let i = 1; i <= FILES; i++) {
    const text = i === 70 ? LARGE_TEXT : i % 10 === 0 ? `line "${i}"\n\twith \\ escapes and 日本語` : `message ${i} ${'x'.repeat(i * 97)}`;
    await writer.send({ op: 'write', sessionId: 'many', seq: i + 1, entry: sentEntry(1, text, { sessionId: 'many', at: isoAt(1 + Math.floor(i / 100), i % 100) }) });
  }
  // Bytes that are not UTF-8, under an entry's name: sent in base64, in their place. Dated past
  // the pending window, they are damaged from the first look: written fresh, they were pending
  // for one export and damaged for the next whenever the first took more than 10 s.
  const past = new Date(Date.now() - 60_000).toISOString();
  await writer.send({ op: 'raw', path: 'many/2026-11-20T090003.000Z-999.json', bytes: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64'), mtime: past });
  await writer.kill('SIGTERM');
});

after(() => record.remove());

async function exportWith(turns: LoopTurns): Promise<Buffer> {
  const source = createRecordSource({ root: record.dir, turns });
  await source.start();
  const app = await buildApp({ sources: [source], webRoot: null, token: null, turns });
  app.addHook('onClose', () => source.close());
  try {
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${url}/api/sessions/many/export?format=ndjson`);
    assert.equal(response.status, 200);
    return Buffer.from(await response.arrayBuffer());
  } finally {
    await app.close();
  }
}

describe('an export, whatever its turns', () => {
  it('sends the same bytes in turns of a microsecond as in turns of 8 ms: every file as on disk, in its place', async () => {
    const short = await exportWith(createLoopTurns(0.001));
    const usual = await exportWith(createLoopTurns());
    assert.ok(short.equals(usual), 'the same bytes');
    const lines = usual.toString('utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { file?: string; fileText?: string | null; fileBase64?: string });
    const names = readdirSync(join(record.dir, 'many')).sort();
    // A gap before the last file (its sequence numbers skip) is a line with no file.
    const fileLines = lines.slice(1).filter((line) => line.file !== undefined);
    assert.deepEqual(fileLines.map((line) => line.file), names, 'every file, in the order of their names');
    for (const line of fileLines) {
      const onDisk = readFileSync(join(record.dir, 'many', line.file!));
      const sent = line.fileText != null ? Buffer.from(line.fileText, 'utf8') : Buffer.from(line.fileBase64!, 'base64');
      assert.ok(sent.equals(onDisk), `${line.file} as on disk`);
    }
    assert.ok(lines.some((line) => line.fileText === null && line.fileBase64 !== undefined), 'the file that is not UTF-8 went in base64');
  });
});
