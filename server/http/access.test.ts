import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { makeTempRecord } from '../test/harness.ts';
import { buildTestApp, type TestApp } from '../test/testApp.ts';
import { accessCookieName, createAccessToken, decideAccess } from './access.ts';

// The access token, rule by rule (decideAccess), then as the app applies it (app.inject).

const TOKEN = 'access-token-0123456789abcdef';

/** What decideAccess reads of a request: its headers, method, URL and the port it came in on. */
function requestOf(url: string, headers: Record<string, string> = {}, method = 'GET', localPort = 4800): FastifyRequest {
  return { url, method, headers, socket: { localPort } } as unknown as FastifyRequest;
}

describe('deciding access', () => {
  it('a new token is made each time, long and URL-safe', () => {
    const tokens = new Set(Array.from({ length: 20 }, () => createAccessToken()));
    assert.equal(tokens.size, 20);
    for (const token of tokens) assert.match(token, /^[A-Za-z0-9_-]{32}$/);
  });

  it('without a token to check (--no-token) every request is let in', () => {
    assert.deepEqual(decideAccess(requestOf('/api/sessions'), null), { type: 'allow' });
  });

  it('the token is let in as Authorization: Bearer, and nothing else in that header is', () => {
    assert.deepEqual(decideAccess(requestOf('/api/sessions', { authorization: `Bearer ${TOKEN}` }), TOKEN), { type: 'allow' });
    // The scheme's name is case-insensitive (RFC 9110, 11.1); the token is not.
    assert.deepEqual(decideAccess(requestOf('/api/sessions', { authorization: `bearer ${TOKEN}` }), TOKEN), { type: 'allow' });
    assert.deepEqual(decideAccess(requestOf('/api/sessions', { authorization: `BEARER ${TOKEN}` }), TOKEN), { type: 'allow' });
    assert.deepEqual(decideAccess(requestOf('/api/sessions', { authorization: `Bearer ${TOKEN.toUpperCase()}` }), TOKEN), TOKEN === TOKEN.toUpperCase() ? { type: 'allow' } : { type: 'deny' });
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN, 'Bearer ', '']) {
      assert.deepEqual(decideAccess(requestOf('/api/sessions', { authorization }), TOKEN), { type: 'deny' }, authorization);
    }
  });

  it('the cookie lets in only on the port it is named for', () => {
    const cookie = `${accessCookieName(4800)}=${TOKEN}`;
    assert.deepEqual(decideAccess(requestOf('/api/sessions', { cookie }), TOKEN), { type: 'allow' });
    assert.deepEqual(decideAccess(requestOf('/api/sessions', { cookie: `theme=dark; ${cookie}; lang=en` }), TOKEN), { type: 'allow' });
    assert.deepEqual(decideAccess(requestOf('/api/sessions', { cookie }, 'GET', 4801), TOKEN), { type: 'deny' });
    assert.deepEqual(decideAccess(requestOf('/api/sessions', { cookie: `${accessCookieName(4800)}=${TOKEN}0` }), TOKEN), { type: 'deny' });
    assert.notEqual(accessCookieName(4800), accessCookieName(4801));
  });

  it('the token in the address of a GET is traded for the cookie, and the address keeps all but the token', () => {
    assert.deepEqual(decideAccess(requestOf(`/session/abc?view=raw&token=${TOKEN}&t=utc`), TOKEN), { type: 'exchange', location: '/session/abc?view=raw&t=utc' });
    assert.deepEqual(decideAccess(requestOf(`/?token=${TOKEN}`), TOKEN), { type: 'exchange', location: '/' });
  });

  it('the address the token is traded for stays on this dashboard, however the path begins', () => {
    for (const path of ['/.//evil.example', '//evil.example/', '/\\evil.example', '/./\\/evil.example/x']) {
      const decision = decideAccess(requestOf(`${path}?token=${TOKEN}`), TOKEN);
      assert.equal(decision.type, 'exchange');
      const location = (decision as { location: string }).location;
      assert.match(location, /^\/(?![/\\])/, `${path} is sent on to ${location}`);
      assert.equal(new URL(location, 'http://127.0.0.1:4800/').host, '127.0.0.1:4800');
    }
  });

  it('a wrong token in the address, or the right one on anything but a GET, is denied', () => {
    assert.deepEqual(decideAccess(requestOf(`/?token=${TOKEN}x`), TOKEN), { type: 'deny' });
    assert.deepEqual(decideAccess(requestOf('/?token='), TOKEN), { type: 'deny' });
    assert.deepEqual(decideAccess(requestOf(`/?token=${TOKEN}`, {}, 'POST'), TOKEN), { type: 'deny' });
    assert.deepEqual(decideAccess(requestOf('/api/sessions'), TOKEN), { type: 'deny' });
  });
});

describe('the access token, as the app applies it', () => {
  const record = makeTempRecord();
  let subject: TestApp;

  before(async () => {
    subject = await buildTestApp(record.dir, { token: TOKEN });
  });

  after(async () => {
    await subject.close();
    record.remove();
  });

  it('an API request without the token gets 401 and JSON that says how to send it, never cached', async () => {
    for (const url of ['/api/sessions', '/api/sessions/x', '/api/sessions/x/files/y', '/api/search?q=a', '/api/events']) {
      const denied = await subject.app.inject(url);
      assert.equal(denied.statusCode, 401, url);
      assert.equal(denied.headers['cache-control'], 'no-store');
      assert.match((denied.json() as { message: string }).message, /Authorization: Bearer <token>/);
    }
  });

  it('a page without the token gets 401 and a page that says how to get in', async () => {
    const denied = await subject.app.inject('/session/abc');
    assert.equal(denied.statusCode, 401);
    assert.match(String(denied.headers['content-type']), /^text\/html/);
    assert.match(denied.body, /Open the address that <code>rec-dashboard<\/code> printed/);
  });

  it('the address with the token sets an HttpOnly, SameSite=Strict cookie, and the cookie lets the next request in', async () => {
    const first = await subject.app.inject(`/session/abc?token=${TOKEN}`);
    assert.equal(first.statusCode, 303);
    assert.equal(first.headers.location, '/session/abc');
    const cookie = String(first.headers['set-cookie']);
    assert.match(cookie, new RegExp(`^rec-dashboard-\\d+=${TOKEN}; HttpOnly; SameSite=Strict; Path=/$`));
    assert.equal((await subject.app.inject({ url: '/api/sessions', headers: { cookie: cookie.split(';')[0]! } })).statusCode, 200);
  });

  it('an API client is let in with Authorization: Bearer, and a wrong one is not', async () => {
    assert.equal((await subject.app.inject({ url: '/api/sessions', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode, 200);
    assert.equal((await subject.app.inject({ url: '/api/sessions', headers: { authorization: `Bearer ${TOKEN}0` } })).statusCode, 401);
  });
});
