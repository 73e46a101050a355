import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';

import { buildApp } from '../http/app.ts';
import { createRecordSource } from '../record/recordSource.ts';
import type { Source } from '../sources/source.ts';
import { makeTempRecord } from './harness.ts';

// The packages that serve the built UI's files are CommonJS: once loaded, they are in the require
// cache. This file runs in a process of its own, so the cache holds what this app loaded.
const fileServerLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).filter((path) => /\/node_modules\/(@fastify\/static|@fastify\/send|glob|mime)\//.test(path));

describe('the built UI\'s files', () => {
  const record = makeTempRecord();
  const web = makeTempRecord('rec-web-');
  const outside = makeTempRecord('rec-outside-');
  let source: Source;
  let app: FastifyInstance;
  before(async () => {
    writeFileSync(join(web.dir, 'index.html'), '<!doctype html><title>rec-dashboard UI</title>');
    mkdirSync(join(web.dir, 'assets'));
    writeFileSync(join(web.dir, 'assets', 'index-3f9c.js'), 'console.log("ui")');
    writeFileSync(join(web.dir, 'assets', 'index-3f9c.css'), 'body{}');
    writeFileSync(join(web.dir, '.hidden'), 'a dot file');
    writeFileSync(join(outside.dir, 'secret.txt'), 'outside the UI');
    symlinkSync(join(outside.dir, 'secret.txt'), join(web.dir, 'assets', 'leak.txt'));
    symlinkSync(outside.dir, join(web.dir, 'away'));
    source = createRecordSource({ root: record.dir });
    await source.start();
    app = await buildApp({ sources: [source], webRoot: web.dir, token: null });
  });
  after(async () => {
    await app.close();
    await source.close();
    for (const dir of [record, web, outside]) dir.remove();
  });

  it('the app is built and answers /api/sessions without loading the file server (send, mime, glob), which the first ask for the UI loads', async () => {
    const list = await app.inject({ url: '/api/sessions' });
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(fileServerLoaded(), []);
    const page = await app.inject({ url: '/' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /rec-dashboard UI/);
    assert.notDeepEqual(fileServerLoaded(), []);
  });

  it('a file of the UI is served with its content type, its validators and a cache policy', async () => {
    const script = await app.inject({ url: '/assets/index-3f9c.js' });
    assert.equal(script.statusCode, 200);
    assert.equal(script.body, 'console.log("ui")');
    assert.match(String(script.headers['content-type']), /^(text|application)\/javascript; charset=utf-8$/);
    assert.ok(script.headers['etag'] !== undefined && script.headers['last-modified'] !== undefined);
    assert.equal(script.headers['cache-control'], 'public, max-age=0');
    const style = await app.inject({ url: '/assets/index-3f9c.css' });
    assert.match(String(style.headers['content-type']), /^text\/css; charset=utf-8$/);
    const again = await app.inject({ url: '/assets/index-3f9c.js', headers: { 'if-none-match': String(script.headers['etag']) } });
    assert.equal(again.statusCode, 304);
    const head = await app.inject({ method: 'HEAD', url: '/assets/index-3f9c.js' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
  });

  it('a deep link, a missing file, a folder and a dot file are answered with the UI\'s page, as text/html', async () => {
    for (const url of ['/source/record/conversation/s1', '/assets/gone.js', '/assets', '/assets/', '/.hidden', '/index.html?x=1']) {
      const page = await app.inject({ url });
      assert.equal(page.statusCode, 200, url);
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8', url);
      assert.match(page.body, /rec-dashboard UI/, url);
    }
  });

  it('no byte from outside the UI\'s folder is served: not through `..`, nor through a symbolic link to a file or a folder', async () => {
    for (const url of ['/assets/leak.txt', '/away/secret.txt', '/assets/..%2f..%2f' + 'etc/passwd', '/..%2fsecret.txt', '/assets/%2e%2e/%2e%2e/etc/passwd']) {
      const page = await app.inject({ url });
      assert.doesNotMatch(page.body, /outside the UI|root:/, url);
      assert.ok(page.statusCode === 200 || page.statusCode === 403 || page.statusCode === 404, `${url}: ${page.statusCode}`);
    }
  });

  it('an /api/ path that is no route is a JSON 404, not the UI\'s page', async () => {
    const missing = await app.inject({ url: '/api/nowhere' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error, 'not-found');
  });

  it('a request for the UI still passes the Host and Origin checks', async () => {
    assert.equal((await app.inject({ url: '/assets/index-3f9c.js', headers: { host: 'evil.example' } })).statusCode, 403);
    assert.equal((await app.inject({ url: '/', headers: { origin: 'http://evil.example' } })).statusCode, 403);
  });
});
