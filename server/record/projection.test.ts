import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PAGE_TEXT_LIMIT_BYTES } from '../../shared/wire/common.ts';
import { fileResponseSchema, sessionResponseSchema, type FileItem, type SessionItemWire } from '../../shared/wire/record.ts';
import { nameAt, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { makeTempRecord } from '../test/harness.ts';
import { buildTestApp, type TestApp } from '../test/testApp.ts';
import { projectItem } from './projection.ts';

// What a page may carry of an entry: a text or field over the limit is left out and said so,
// the rest goes as it is on disk now. The limit is small here, so each case is a few bytes.

const LIMIT = 1_000;
const SESSION = 'clip';
const record = makeTempRecord();
let subject: TestApp;

/** Entry files by what they hold, each written as the plugin would, in this order. */
const files = new Map<string, string>();

function put(what: string, content: string | Record<string, unknown>): void {
  const name = nameAt(files.size, files.size + 1);
  files.set(what, name);
  writeFileSync(join(record.dir, SESSION, name), typeof content === 'string' ? content : JSON.stringify({ ...content, sessionId: SESSION }));
}

before(async () => {
  mkdirSync(join(record.dir, SESSION));
  put('start', startEntry(0));
  put('short', sentEntry(1, 'short and whole'));
  put('ascii', sentEntry(2, 'x'.repeat(1_500)));
  put('two-byte', sentEntry(3, 'é'.repeat(800)));
  put('pairs', sentEntry(4, 'a' + '🧪'.repeat(400)));
  put('big envelope', receivedEntry(5, 'beside a big envelope', { envelope: { origin: { kind: 'peer', from: 'p', name: 'n'.repeat(1_200) } } }));
  put('fields under', receivedEntry(6, 'y'.repeat(600), { envelope: { origin: { kind: 'peer', from: 'p', name: 'n'.repeat(600) } } }));
  put('page limit', sentEntry(7, 'é'.repeat(40_000)));
  // Five bytes a number on disk, 22 in JSON.stringify's spelling: a field that grows past the
  // limit in a file within it.
  put('grown', JSON.stringify({ ...sentEntry(9, 'small'), sessionId: SESSION, scores: 0 }).replace('"scores":0', `"scores":[${Array(140).fill('1e20').join(',')}]`));
  put('rewritten', sentEntry(8, 'as first written'));
  put('damaged', '{"kind":"message","sid');
  put('big invalid', { ...sentEntry(10, 'z'.repeat(1_500)), side: 'sideways' });
  const old = new Date(Date.now() - 3_600_000);
  utimesSync(join(record.dir, SESSION, files.get('damaged')!), old, old);
  writeFileSync(join(record.dir, SESSION, 'notes.txt'), 'a stray');
  subject = await buildTestApp(record.dir);
});

after(async () => {
  await subject.close();
  record.remove();
});

/** The item of a file as a page with the given limit (null: the file endpoint) projects it. */
function project(what: string, limit: number | null = LIMIT): FileItem {
  const wire = projectAny(files.get(what)!, limit);
  assert.equal(wire.type, 'file');
  return wire as FileItem;
}

function projectAny(name: string, limit: number | null, read = (file: string) => subject.source.reader.readNow(SESSION, file)): SessionItemWire {
  const item = subject.source.reader.fold(SESSION)!.items.find((candidate) => candidate.type !== 'gap' && candidate.file.name === name);
  assert.ok(item, name);
  return projectItem(item, subject.source.ref, read, limit);
}

describe('clipping a page', () => {
  it('an entry whose file is within the limit goes whole, and says nothing was left out', () => {
    const item = project('short');
    assert.equal(item.entry?.['text'], 'short and whole');
    assert.equal(item.textClipped, undefined);
    assert.equal(item.fieldsClipped, undefined);
  });

  it('a text over the limit is cut to its first limit bytes, and says its full size', () => {
    const item = project('ascii');
    assert.equal(item.entry?.['text'], 'x'.repeat(LIMIT));
    assert.deepEqual(item.textClipped, { bytes: 1_500 });
    assert.equal(item.entry?.['kind'], 'message', 'the rest of the entry is kept');
  });

  it('a text over the limit keeps as many whole characters as the limit holds, never half of one or of a pair', () => {
    // 500 two-byte characters fill 1,000 bytes; after the a, 249 four-byte pairs fill 997, and
    // the next pair would not fit.
    assert.equal(project('two-byte').entry?.['text'], 'é'.repeat(500));
    assert.equal(project('pairs').entry?.['text'], 'a' + '🧪'.repeat(249));
  });

  it('a field other than the text whose JSON is over the limit is left out, named with its size; the rest is kept', () => {
    const item = project('big envelope');
    assert.equal(item.entry?.['envelope'], undefined);
    assert.deepEqual(item.fieldsClipped, [{ field: 'envelope', bytes: JSON.stringify({ origin: { kind: 'peer', from: 'p', name: 'n'.repeat(1_200) } }).length }]);
    assert.equal(item.entry?.['text'], 'beside a big envelope');
    assert.equal(item.textClipped, undefined);
  });

  it('numbers go as written, so a field of a file within the limit never outgrows it on the page', () => {
    const item = project('grown');
    assert.ok(item.size <= LIMIT, `the file is ${item.size} bytes`);
    assert.equal(JSON.stringify(item.entry?.['scores']), `[${Array(140).fill('1e20').join(',')}]`);
    assert.equal(item.fieldsClipped, undefined);
    assert.equal(item.entry?.['text'], 'small');
  });

  it('a file over the limit whose text and fields are each within it goes whole', () => {
    const item = project('fields under');
    assert.ok(item.size > LIMIT);
    assert.equal(item.entry?.['text'], 'y'.repeat(600));
    assert.equal((item.entry?.['envelope'] as { origin: { name: string } }).origin.name, 'n'.repeat(600));
    assert.equal(item.textClipped, undefined);
    assert.equal(item.fieldsClipped, undefined);
  });

  it('an invalid entry over the limit goes without its raw value and text on a page, and says so; the file endpoint has both', () => {
    const item = project('big invalid');
    assert.equal(item.evidence, 'invalid');
    assert.equal(item.raw, undefined);
    assert.equal(item.fileText, undefined);
    assert.deepEqual(item.rawClipped, { bytes: item.size });
    const whole = project('big invalid', null);
    assert.equal((whole.raw as { text: string }).text, 'z'.repeat(1_500));
    assert.equal(whole.fileText?.length, whole.size);
    assert.equal(whole.rawClipped, undefined);
  });

  it('without a limit (the file endpoint) every text and field goes whole', () => {
    assert.equal(project('ascii', null).entry?.['text'], 'x'.repeat(1_500));
    assert.equal(project('pairs', null).entry?.['text'], 'a' + '🧪'.repeat(400));
    assert.equal(project('big envelope', null).fieldsClipped, undefined);
  });

  it('an entry is read from disk for each page: a file rewritten since it was read shows what it says now, as changed', () => {
    assert.equal(project('rewritten').entry?.['text'], 'as first written');
    writeFileSync(join(record.dir, SESSION, files.get('rewritten')!), JSON.stringify({ ...sentEntry(8, 'rewritten by someone'), sessionId: SESSION }));
    const item = project('rewritten');
    assert.equal(item.evidence, 'changed');
    assert.equal(item.entry?.['text'], 'rewritten by someone');
  });

  it('only parsed, changed and invalid files are read; a damaged file and a stray are projected from the index', () => {
    const unread = () => assert.fail('read for a file that is not to be read');
    const damaged = projectAny(files.get('damaged')!, LIMIT, unread);
    assert.ok(damaged.type === 'file');
    assert.deepEqual([damaged.evidence, damaged.entry], ['damaged', null]);
    assert.deepEqual(projectAny('notes.txt', LIMIT, unread), { type: 'stray', source: subject.source.ref, file: 'notes.txt', size: 7 });
  });
});

describe('clipping, as the session routes apply it', () => {
  it('a page cuts a text over 64 KiB and says its size; the file endpoint gives it whole', async () => {
    const text = 'é'.repeat(40_000);
    const page = await subject.app.inject(`/api/sessions/${SESSION}?around=${files.get('page limit')}&limit=1`);
    assert.equal(page.statusCode, 200);
    const item = sessionResponseSchema.parse(page.json()).items[0];
    assert.ok(item?.type === 'file');
    assert.deepEqual(item.textClipped, { bytes: 80_000 });
    assert.equal(item.entry?.['text'], 'é'.repeat(PAGE_TEXT_LIMIT_BYTES / 2));
    const whole = await subject.app.inject(`/api/sessions/${SESSION}/files/${files.get('page limit')}`);
    assert.equal(whole.statusCode, 200);
    const file = fileResponseSchema.parse(whole.json()).item;
    assert.equal(file.entry?.['text'], text);
    assert.equal(file.textClipped, undefined);
  });
});
