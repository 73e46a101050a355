import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileResponseSchema, sessionResponseSchema, type FileItem } from '../../shared/wire/record.ts';
import { nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import type { Dashboard } from '../dashboard.ts';
import { startWriter, type Writer } from '../../tools/writer/writerClient.ts';
import { connectEventStream } from './eventStream.ts';
import { eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';

// Names the record may hold beyond the writer's own: folder and file names that are not valid
// UTF-8, session ids and file names up to the file system's 255 bytes, folders whose names
// begin with "..", and sequence numbers of any length. None may make evidence vanish.

// Only the watcher can deliver within these tests: the periodic reconcile is put off.
const NO_RECONCILE = 600_000;
const OLD = new Date(Date.now() - 3_600_000);

const record = makeTempRecord();
let dashboard: Dashboard;
let writer: Writer;

function put(session: string | Buffer, name: string | Buffer, bytes: string | Uint8Array): void {
  const folder = typeof session === 'string' ? join(record.dir, session) : Buffer.concat([Buffer.from(`${record.dir}/`), session]);
  mkdirSync(folder, { recursive: true });
  const path = Buffer.concat([Buffer.from(folder), Buffer.from('/'), typeof name === 'string' ? Buffer.from(name) : name]);
  writeFileSync(path, bytes);
  utimesSync(path, OLD, OLD);
}

function entryOf(sessionId: string, value: Record<string, unknown>): string {
  return JSON.stringify({ ...value, sessionId });
}

/** A 255-byte session id made of two-byte characters, as long as a folder name can be. */
const LONG_ID = `${'é'.repeat(127)}s`;
/** A 255-byte entry name: a sequence number of 227 digits. */
const LONG_SEQ = `9${'0'.repeat(225)}7`;
const LONG_NAME = `2026-11-20T090001.000Z-${LONG_SEQ}.json`;
/** Folder and file names that are not UTF-8 (0xff never is; 0xc3 0x28 is a broken pair). */
const BAD_FOLDER = Buffer.from([0x62, 0x61, 0x64, 0xff, 0x2d, 0x66, 0x6f, 0x6c, 0x64, 0x65, 0x72]);
const BAD_FILE = Buffer.concat([Buffer.from('notes-'), Buffer.from([0xc3, 0x28]), Buffer.from('.json')]);
const BAD_BESIDE = Buffer.concat([Buffer.from('beside-'), Buffer.from([0xfe])]);

before(async () => {
  put('..hidden', nameAt(0, 1), entryOf('..hidden', startEntry(0)));
  put(LONG_ID, nameAt(0, 1), entryOf(LONG_ID, startEntry(0)));
  put(LONG_ID, nameAt(1, 2), entryOf(LONG_ID, sentEntry(1, 'from a long id')));
  put(LONG_ID, `${'x'.repeat(250)}.txt`, 'a stray with a 254-byte name');

  put('padded', '2026-11-20T090000.000Z-0000000000000001.json', entryOf('padded', startEntry(0)));
  put('padded', '2026-11-20T090001.000Z-00000000000000000000000002.json', entryOf('padded', sentEntry(1, 'two')));
  put('padded', '2026-11-20T090002.000Z-3.json', entryOf('padded', sentEntry(2, 'three')));

  // All in one millisecond, so that only the sequence orders them.
  for (const seq of ['0010', '123456789012345678901', '9999999999999999', '12345678901234567892', '1', LONG_SEQ, '12345678901234567890']) {
    put('huge-order', `2026-11-20T090001.000Z-${seq}.json`, entryOf('huge-order', sentEntry(1, seq)));
  }
  put('huge-gap', '2026-11-20T090000.000Z-12345678901234567889.json', entryOf('huge-gap', startEntry(0)));
  put('huge-gap', '2026-11-20T090001.000Z-12345678901234567890.json', entryOf('huge-gap', sentEntry(1, 'a')));
  put('huge-gap', '2026-11-20T090002.000Z-12345678901234567892.json', entryOf('huge-gap', sentEntry(2, 'b')));

  put(BAD_FOLDER, nameAt(0, 1), entryOf('bad-folder', startEntry(0)));
  put('bad-file', nameAt(0, 1), entryOf('bad-file', startEntry(0)));
  put('bad-file', BAD_FILE, 'a file whose name is not UTF-8');
  writeFileSync(Buffer.concat([Buffer.from(`${record.dir}/`), BAD_BESIDE]), 'beside the sessions');

  writer = await startWriter(record.dir);
  dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: NO_RECONCILE });
  await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan');
});

after(async () => {
  await writer.kill();
  await dashboard.close();
  record.remove();
});

async function fileItems(sessionId: string): Promise<FileItem[]> {
  const page = await getJson(dashboard, `/api/sessions/${encodeURIComponent(sessionId)}?limit=5000`, sessionResponseSchema);
  return page.items.filter((item): item is FileItem => item.type === 'file');
}

describe('names', () => {
  it('a folder whose name begins with ".." gets live updates from the watcher, and so does a new one', async () => {
    const events = await connectEventStream(dashboard.url);
    try {
      await writer.send({ op: 'write', sessionId: '..hidden', seq: 2, entry: { ...sentEntry(1, 'live'), sessionId: '..hidden' } });
      await events.next(({ event }) => event.type === 'session-changed' && event.sessionId === '..hidden' && event.session.counts.sent === 1, 10_000);
      const sessionId = '...x';
      await writer.send({ op: 'write', sessionId, seq: 1, entry: { ...startEntry(0), sessionId } });
      await writer.send({ op: 'write', sessionId, seq: 2, entry: { ...sentEntry(1, 'new'), sessionId } });
      await events.next(({ event }) => event.type === 'session-changed' && event.sessionId === sessionId && event.session.counts.sent === 1, 10_000);
    } finally {
      events.close();
    }
  });

  it('a session id of 255 bytes works through the page, around= and the file endpoint', async () => {
    const items = await fileItems(LONG_ID);
    assert.deepEqual(items.map((item) => item.entry?.['text'] ?? item.entry?.['kind']), ['start', 'from a long id']);
    const around = await getJson(dashboard, `/api/sessions/${encodeURIComponent(LONG_ID)}?around=${encodeURIComponent(nameAt(1, 2))}&limit=1`, sessionResponseSchema);
    assert.equal(around.page.offset, 1);
    const file = await getJson(dashboard, `/api/sessions/${encodeURIComponent(LONG_ID)}/files/${encodeURIComponent(nameAt(1, 2))}`, fileResponseSchema);
    assert.equal(file.item.entry?.['text'], 'from a long id');
    const stray = await getJson(dashboard, `/api/sessions/${encodeURIComponent(LONG_ID)}?around=${encodeURIComponent(`${'x'.repeat(250)}.txt`)}`, sessionResponseSchema);
    assert.equal(stray.items.at(-1)?.type, 'stray');
  });

  it('a file name of 255 bytes works through the page, around= and the file endpoint', async () => {
    const around = await getJson(dashboard, `/api/sessions/huge-order?around=${encodeURIComponent(LONG_NAME)}&limit=1`, sessionResponseSchema);
    assert.equal(around.items[0]?.type === 'file' && around.items[0].file, LONG_NAME);
    const file = await getJson(dashboard, `/api/sessions/huge-order/files/${encodeURIComponent(LONG_NAME)}`, fileResponseSchema);
    assert.equal(file.item.entry?.['text'], LONG_SEQ);
    assert.equal(file.item.seq, LONG_SEQ);
  });

  it('zero-padded sequence numbers of 16 digits or more are entries, ordered by their value', async () => {
    const items = await fileItems('padded');
    assert.deepEqual(items.map((item) => [item.evidence, item.seq]), [['parsed', 1], ['parsed', 2], ['parsed', 3]]);
    const page = await getJson(dashboard, '/api/sessions/padded', sessionResponseSchema);
    assert.deepEqual(page.session.degraded, []);
  });

  it('sequence numbers of any length are entries, ordered exactly by their value', async () => {
    const items = await fileItems('huge-order');
    assert.deepEqual(
      items.map((item) => [item.evidence, item.entry?.['text']]),
      ['1', '0010', '9999999999999999', '12345678901234567890', '12345678901234567892', '123456789012345678901', LONG_SEQ].map((seq) => ['parsed', seq]),
    );
    assert.deepEqual(items.map((item) => String(item.seq)), ['1', '10', '9999999999999999', '12345678901234567890', '12345678901234567892', '123456789012345678901', LONG_SEQ]);
    const page = await getJson(dashboard, '/api/sessions/huge-order', sessionResponseSchema);
    assert.equal(page.session.counts.stray, 0);
  });

  it('a gap between sequence numbers past 2^53 is exact: one missing number is one', async () => {
    const page = await getJson(dashboard, '/api/sessions/huge-gap', sessionResponseSchema);
    assert.deepEqual(
      page.items.map((item) => (item.type === 'gap' ? `gap ${item.from}-${item.to}` : `${item.type} ${item.type === 'file' ? item.seq : item.file}`)),
      ['file 12345678901234567889', 'file 12345678901234567890', 'gap 12345678901234567891-12345678901234567891', 'file 12345678901234567892'],
    );
    assert.equal(page.session.counts.missing, 1);
    assert.deepEqual(page.session.degraded.find((reason) => reason.code === 'sequence-gap')?.missing, [
      { from: '12345678901234567891', to: '12345678901234567891', after: '2026-11-20T090001.000Z-12345678901234567890.json', before: '2026-11-20T090002.000Z-12345678901234567892.json' },
    ]);
  });

  it('a file whose name is not UTF-8 is a stray, listed with its bytes escaped', async () => {
    const page = await getJson(dashboard, '/api/sessions/bad-file', sessionResponseSchema);
    assert.deepEqual(
      page.items.map((item) => (item.type === 'gap' ? 'gap' : [item.type, item.file])),
      [['file', nameAt(0, 1)], ['stray', 'notes-\\xc3(.json']],
    );
    assert.equal(page.session.counts.stray, 1);
  });

  it('a session folder whose name is not UTF-8 is listed with its bytes escaped, as a folder that is not read', async () => {
    const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
    const sessions = list.projects.flatMap((project) => project.sessions);
    const bad = sessions.find((session) => session.sessionId === 'bad\\xff-folder');
    assert.ok(bad, JSON.stringify(sessions.map((session) => session.sessionId)));
    assert.deepEqual(bad.degraded.map((reason) => [reason.code, reason.folder]), [
      ['no-start', undefined],
      ['unreadable', 'its name is not valid UTF-8 (shown with the bytes escaped), so it names no session; not read'],
    ]);
    const page = await getJson(dashboard, `/api/sessions/${encodeURIComponent('bad\\xff-folder')}`, sessionResponseSchema);
    assert.equal(page.page.total, 0);
    assert.ok(!sessions.some((session) => session.sessionId.includes('\ufffd')), 'no name is shown with replacement characters');
  });

  it('a file beside the sessions whose name is not UTF-8 is a stray of the record, its bytes escaped', async () => {
    const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
    assert.deepEqual(list.sources[0]!.strays, ['beside-\\xfe']);
  });
});

describe('names that are not UTF-8, in a record large enough to share its first scan with a worker', () => {
  it('every such file is listed as a stray with its bytes escaped, whichever thread read its folder', async () => {
    const large = makeTempRecord();
    const folders = 60;
    for (let i = 0; i < folders; i++) {
      const sessionId = `w${String(i).padStart(2, '0')}`;
      mkdirSync(join(large.dir, sessionId));
      writeFileSync(join(large.dir, sessionId, nameAt(0, 1)), entryOf(sessionId, startEntry(0)));
      writeFileSync(Buffer.concat([Buffer.from(join(large.dir, sessionId, 'x')), Buffer.from([0xff])]), 'not UTF-8');
    }
    const scanned = await startTestDashboard(large.dir, { reconcileIntervalMs: NO_RECONCILE });
    try {
      await eventually(() => (scanned.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan', 20_000);
      for (let i = 0; i < folders; i++) {
        const page = await getJson(scanned, `/api/sessions/w${String(i).padStart(2, '0')}`, sessionResponseSchema);
        assert.deepEqual(page.items.map((item) => item.type !== 'gap' && [item.type, item.file]), [['file', nameAt(0, 1)], ['stray', 'x\\xff']], `w${i}`);
      }
    } finally {
      await scanned.close();
      large.remove();
    }
  });
});
