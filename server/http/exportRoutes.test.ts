import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nameAt, startEntry } from '../../shared/test/recordFixtures.ts';
import { createRecordSource } from '../record/recordSource.ts';
import type { Source } from '../sources/source.ts';
import { makeTempRecord } from '../test/harness.ts';
import { buildApp } from './app.ts';

// The export route knows no kind: a source that cannot export its conversations says so.

const record = makeTempRecord('rec-export-route-');
const source = createRecordSource({ root: record.dir });

before(async () => {
  mkdirSync(join(record.dir, 'one'));
  writeFileSync(join(record.dir, 'one', nameAt(0, 1)), JSON.stringify({ ...startEntry(0), sessionId: 'one' }));
  await source.start();
});

after(async () => {
  await source.close();
  record.remove();
});

describe('the export route', () => {
  it('answers 404, naming the kind, for a source that has no export', async () => {
    const { export: _left, ...withoutExport } = source;
    const app = await buildApp({ sources: [withoutExport as Source], webRoot: null, token: null });
    const answer = await app.inject({ url: '/api/sessions/one/export?format=md' });
    assert.equal(answer.statusCode, 404);
    assert.deepEqual(answer.json(), { error: 'not-found', message: 'a record conversation cannot be exported yet' });
    await app.close();
  });

  it('sends a session as a download named for its kind and id', async () => {
    const app = await buildApp({ sources: [source], webRoot: null, token: null });
    const answer = await app.inject({ url: '/api/sessions/one/export?format=ndjson' });
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers['content-disposition'], 'attachment; filename="record-one.ndjson"');
    await app.close();
  });
});
