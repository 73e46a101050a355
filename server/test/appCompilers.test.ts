import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { buildApp } from '../http/app.ts';
import { createRecordSource } from '../record/recordSource.ts';
import { makeTempRecord } from './harness.ts';

// fastify's CommonJS modules, and what they require, are in the require cache once loaded: this
// file runs in a process of its own, so the cache holds what building and asking the app loaded.
// (fastify's error serializer loads fast-json-stringify's small runtime, not its compiler.)
const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((path) => /\/node_modules\/((ajv|ajv-formats|@fastify\/ajv-compiler|@fastify\/fast-json-stringify-compiler)\/|fast-json-stringify\/index\.js$)/.test(path));

describe('the HTTP app checks and serializes with zod alone', () => {
  it('building the app, serving the UI and answering a good and a bad query never loads fastify\'s own compilers (ajv, fast-json-stringify)', async () => {
    const record = makeTempRecord();
    const web = makeTempRecord('rec-web-');
    writeFileSync(join(web.dir, 'index.html'), '<div id="root"></div>');
    const source = createRecordSource({ root: record.dir });
    await source.start();
    const app = await buildApp({ sources: [source], webRoot: web.dir, token: null });
    try {
      assert.equal((await app.inject({ url: '/' })).statusCode, 200);
      const list = await app.inject({ url: '/api/sessions' });
      assert.equal(list.statusCode, 200, list.body);
      assert.equal((await app.inject({ url: '/api/search?q=a&limit=nine' })).statusCode, 400);
      assert.deepEqual(loaded(), []);
    } finally {
      await app.close();
      await source.close();
      record.remove();
      web.remove();
    }
  });
});
