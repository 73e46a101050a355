import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nameAt, startEntry } from '../../shared/test/recordFixtures.ts';
import { makeTempRecord } from '../test/harness.ts';
import { buildTestApp, type TestApp } from '../test/testApp.ts';
import { hostnameOf, isAllowedHostname, isSameOrigin } from './hostCheck.ts';

// The door against DNS rebinding and other sites' pages, rule by rule, then as the app applies it.

describe('the host check', () => {
  const ours = new Set(['mybox.lan']);

  it('a Host header names its host without port, brackets or case', () => {
    assert.equal(hostnameOf('localhost:4800'), 'localhost');
    assert.equal(hostnameOf('127.0.0.1'), '127.0.0.1');
    assert.equal(hostnameOf('[::1]:4800'), '::1');
    assert.equal(hostnameOf(' MyBox.LAN:80 '), 'mybox.lan');
  });

  it('localhost, its subdomains and IP addresses are always answered: they cannot be rebound', () => {
    for (const hostname of ['localhost', 'app.localhost', '127.0.0.1', '10.1.2.3', '::1', 'fe80::1']) {
      assert.equal(isAllowedHostname(hostname, new Set()), true, hostname);
    }
  });

  it('any other name is refused unless it is the --host given, and an empty one always', () => {
    assert.equal(isAllowedHostname('mybox.lan', ours), true);
    for (const hostname of ['attacker.example', 'localhost.attacker.example', '127.0.0.1.nip.io', 'mybox.lan.attacker.example', '']) {
      assert.equal(isAllowedHostname(hostname, ours), false, hostname);
    }
  });

  it('an Origin is ours only when it is plain http to the very host and port asked for', () => {
    assert.equal(isSameOrigin('http://127.0.0.1:4800', '127.0.0.1:4800'), true);
    assert.equal(isSameOrigin('http://LOCALHOST:4800', 'localhost:4800'), true);
    assert.equal(isSameOrigin('http://[::1]:4800', '[::1]:4800'), true);
    for (const [origin, host] of [
      ['http://attacker.example', '127.0.0.1:4800'],
      ['http://127.0.0.1:4801', '127.0.0.1:4800'],
      ['http://localhost:4800', '127.0.0.1:4800'],
      ['https://127.0.0.1:4800', '127.0.0.1:4800'],
      ['null', '127.0.0.1:4800'],
      ['', '127.0.0.1:4800'],
    ] as const) {
      assert.equal(isSameOrigin(origin, host), false, `${origin} for ${host}`);
    }
  });
});

describe('the host check, as the app applies it', () => {
  const TOKEN = 'host-check-token-0123456789';
  const record = makeTempRecord();
  let subject: TestApp;

  before(async () => {
    mkdirSync(join(record.dir, 's1'));
    writeFileSync(join(record.dir, 's1', nameAt(0, 1)), JSON.stringify({ ...startEntry(0, { cwd: '/home/dev/secret-project' }), sessionId: 's1' }));
    subject = await buildTestApp(record.dir, { token: TOKEN, hostnames: ['mybox.lan'] });
  });

  after(async () => {
    await subject.close();
    record.remove();
  });

  const bearer = { authorization: `Bearer ${TOKEN}` };

  it('a request naming a foreign Host is refused before anything else, with a message naming it', async () => {
    for (const url of ['/api/sessions', '/api/sessions/s1', '/api/events', '/api/search?q=a', '/']) {
      const refused = await subject.app.inject({ url, headers: { ...bearer, host: 'attacker.example:4800' } });
      assert.equal(refused.statusCode, 403, url);
      assert.match(refused.body, /answers only to localhost, IP addresses and the --host it was given, not to "attacker\.example:4800"/);
      assert.doesNotMatch(refused.body, /secret-project/);
    }
  });

  it('a rebound page holding the token is given no cookie', async () => {
    const refused = await subject.app.inject({ url: `/?token=${TOKEN}`, headers: { host: 'attacker.example' } });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.headers['set-cookie'], undefined);
  });

  it('localhost, an IP address and the --host name, in any case, are answered', async () => {
    for (const host of ['localhost:4800', '127.0.0.1:4800', '[::1]:4800', 'mybox.lan:4800', 'MyBox.LAN']) {
      const answered = await subject.app.inject({ url: '/api/sessions', headers: { ...bearer, host } });
      assert.equal(answered.statusCode, 200, host);
    }
  });

  it('a request from another site is refused, the event stream included; our own page is answered without CORS headers', async () => {
    const host = '127.0.0.1:4800';
    for (const url of ['/api/sessions', '/api/events', '/']) {
      const refused = await subject.app.inject({ url, headers: { ...bearer, host, origin: 'http://attacker.example' } });
      assert.equal(refused.statusCode, 403, url);
      assert.equal(refused.body, 'Requests from other sites are refused.\n');
    }
    const own = await subject.app.inject({ url: '/api/sessions', headers: { ...bearer, host, origin: `http://${host}` } });
    assert.equal(own.statusCode, 200);
    assert.equal(own.headers['access-control-allow-origin'], undefined);
  });
});
