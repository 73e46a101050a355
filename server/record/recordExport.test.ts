import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { startWriter, type Writer } from '../../tools/writer/writerClient.ts';
import { exportBytes } from '../export/pipeline.ts';
import { createLoopTurns } from '../sources/loopTurns.ts';
import { NotHere } from '../sources/source.ts';
import { eventually, makeTempRecord } from '../test/harness.ts';
import { createFileReadLane } from '../watch/readAhead.ts';
import { createReaderThreads, type ReaderThreads } from './readerThreads.ts';
import { createRecordExport } from './recordExport.ts';
import { createRecordReader } from './recordReader.ts';
import { createSummaryCache } from './summaryCache.ts';

// An export's small files are read ahead on a thread, which fingerprints them and makes their JSON
// text there; the event loop only compares the fingerprint with the reader's. A file that changed
// after the reader's look is looked at afresh, so that what is said of it is what was sent.

const record = makeTempRecord('rec-record-export-');
const reader = createRecordReader({ recordDir: record.dir, reconcileIntervalMs: 60_000 });
const threads = createReaderThreads();
let writer: Writer;

/** A session a test: a file the reader once knew as changed is said to be changed ever after. */
const SESSIONS = ['thread', 'loop', 'markdown'];
const raw = (session: string, seq: number, bytes: Uint8Array) => writer.send({ op: 'raw', path: `${session}/${nameAt(seq, seq)}`, bytes: Buffer.from(bytes).toString('base64') });

/** Each file's entry as first written; the export then finds other bytes under some of their names. */
async function writeSession(session: string): Promise<void> {
  await raw(session, 0, Buffer.from(JSON.stringify({ ...startEntry(0), sessionId: session })));
  for (let seq = 1; seq <= 4; seq++) await raw(session, seq, Buffer.from(JSON.stringify({ ...sentEntry(seq, `first text ${seq} "quoted"`), sessionId: session })));
}

before(async () => {
  writer = await startWriter(record.dir);
  for (const session of SESSIONS) await writeSession(session);
  await reader.start();
  await eventually(() => (SESSIONS.every((session) => reader.fold(session)?.items.length === 5) && reader.status().indexing.state === 'ready' ? true : undefined), 'the first scan');
});

after(async () => {
  await writer.kill('SIGTERM');
  await threads.close();
  await reader.close();
  record.remove();
});

type Line = { file?: string; evidence?: string; why?: string | null; fileText?: string | null; fileBase64?: string };

/** The session exported as NDJSON, its items those of when it began; `meanwhile` runs before the first file is read. */
async function exportWith(session: string, readers: ReaderThreads, meanwhile: () => Promise<void>): Promise<Line[]> {
  const made = await exportAs('ndjson', session, readers, meanwhile);
  return made.trimEnd().split('\n').slice(1).map((line) => JSON.parse(line) as Line);
}

async function exportAs(format: 'ndjson' | 'md', session: string, readers: ReaderThreads, meanwhile: () => Promise<void>): Promise<string> {
  const parts = createRecordExport(reader, createSummaryCache(reader.ref), readers, createLoopTurns())(session);
  if (parts instanceof NotHere) assert.fail(`the session is there: ${parts.why}`);
  await meanwhile();
  const chunks: Buffer[] = [];
  for await (const chunk of exportBytes(parts, format, { exportedAt: new Date().toISOString(), itemSchema: z.unknown(), signal: new AbortController().signal })) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Rewrites three of the files: one no longer an entry, one not UTF-8, one another entry. */
async function changeFiles(session: string): Promise<void> {
  await raw(session, 1, Buffer.from(JSON.stringify({ not: 'an entry' })));
  await raw(session, 2, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
  await raw(session, 3, Buffer.from(JSON.stringify({ ...sentEntry(3, 'second text\n\ttab'), sessionId: session })));
}

function assertSentAsOnDisk(session: string, lines: Line[]): void {
  assert.equal(lines.length, 5);
  for (const line of lines) {
    const onDisk = readFileSync(join(record.dir, session, line.file!));
    const sent = line.fileText != null ? Buffer.from(line.fileText, 'utf8') : Buffer.from(line.fileBase64!, 'base64');
    assert.ok(sent.equals(onDisk), `${line.file} as on disk`);
  }
}

describe("an export's files read ahead", () => {
  for (const [session, name, readers] of [
    ['thread', 'on a reading thread', () => threads],
    ['loop', 'on the event loop (the reading threads closed)', () => ({ ...threads, files: closedLane })],
  ] as const) {
    it(`a file changed between the reader's look and the export's read is sent with the evidence of the bytes sent, read ${name}`, async () => {
      const lines = await exportWith(session, readers(), () => changeFiles(session));
      assertSentAsOnDisk(session, lines);
      const [start, noEntry, notUtf8, other, unchanged] = lines;
      assert.deepEqual([start!.evidence, unchanged!.evidence], ['parsed', 'parsed']);
      // Each said as the bytes sent are: no longer an entry, not UTF-8 (and sent in base64), another entry.
      assert.deepEqual(
        [noEntry, notUtf8, other].map((line) => [line!.evidence, line!.why]),
        [
          ['changed', 'changed after it was read, and now kind: expected a string'],
          ['changed', 'changed after it was read, and no longer parses (not valid UTF-8)'],
          ['changed', 'changed after it was read'],
        ],
      );
      assert.equal(notUtf8!.fileText, null, 'bytes that are not UTF-8 are base64');
      assert.match(other!.fileText!, /second text/);
    });
  }
});

describe("an export's files read as it reaches them", () => {
  it('in Markdown, a file changed between the reader\'s look and the export\'s read is shown as its bytes now say', async () => {
    const markdown = await exportAs('md', 'markdown', threads, () => changeFiles('markdown'));
    assert.match(markdown, /second text/, 'the entry written since, as it now reads');
    assert.doesNotMatch(markdown, /first text 3/, 'not the entry the reader first read there');
    assert.match(markdown, /first text 4/);
  });
});

const closedLane = createFileReadLane(1);
await closedLane.close();
