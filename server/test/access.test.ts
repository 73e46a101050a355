import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accessCookieName } from '../http/access.ts';
import type { Dashboard } from '../dashboard.ts';
import { runCommand, startCommand } from './command.ts';
import { makeTempRecord, rawGet, startTestDashboard } from './harness.ts';

const TOKEN = 'test-token-0123456789abcdef';
const record = makeTempRecord();
let dashboard: Dashboard;

before(async () => {
  dashboard = await startTestDashboard(record.dir, { token: TOKEN });
});

after(async () => {
  await dashboard.close();
  record.remove();
});

const at = (path: string) => new URL(path, dashboard.origin);

describe('the access token', () => {
  it('a request without the token gets 401, and a page that says how to get in', async () => {
    const page = await fetch(at('/'));
    assert.equal(page.status, 401);
    assert.match(await page.text(), /Open the address that <code>rec-dashboard<\/code> printed/);
    const api = await fetch(at('/api/sessions'));
    assert.equal(api.status, 401);
    assert.match(((await api.json()) as { message: string }).message, /Authorization: Bearer/);
  });

  it('every path needs it: the event stream, a session, a file, search and the UI assets', async () => {
    for (const path of ['/api/events', '/api/sessions/x', '/api/sessions/x/files/y', '/api/search?q=a', '/assets/index.js', '/sessions/x']) {
      assert.equal((await fetch(at(path))).status, 401, path);
    }
  });

  it('the printed address trades its token for an HttpOnly, SameSite=Strict cookie, and drops it from the address', async () => {
    assert.equal(dashboard.url, `${dashboard.origin}?token=${TOKEN}`);
    const first = await fetch(at(`/sessions/abc?view=raw&token=${TOKEN}`), { redirect: 'manual' });
    assert.equal(first.status, 303);
    assert.equal(first.headers.get('location'), '/sessions/abc?view=raw');
    const cookie = first.headers.get('set-cookie') ?? '';
    assert.equal(cookie, `${accessCookieName(dashboard.port)}=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`);
    const next = await fetch(at('/api/sessions'), { headers: { cookie: cookie.split(';')[0]! } });
    assert.equal(next.status, 200);
  });

  it('an address the router cannot take passes the same door: a foreign Host 403, no token 401, then a 400 in the API\'s words, headers on', async () => {
    const host = `127.0.0.1:${dashboard.port}`;
    const tooLong = `/api/sessions/${'x'.repeat(2_000)}`;
    for (const path of ['/api/sessions/%ff', '/%E0%A4%A', tooLong]) {
      assert.equal((await rawGet(dashboard.origin, path, { host: 'attacker.example' })).status, 403, `${path.slice(0, 40)}: a foreign Host`);
      assert.equal((await rawGet(dashboard.origin, path, { host, origin: 'http://attacker.example' })).status, 403, `${path.slice(0, 40)}: another site`);
      const denied = await rawGet(dashboard.origin, path, { host });
      assert.equal(denied.status, 401, `${path.slice(0, 40)}: no token`);
      assert.equal(denied.headers['x-content-type-options'], 'nosniff');
      const refused = await rawGet(dashboard.origin, path, { host, authorization: `Bearer ${TOKEN}` });
      assert.equal(refused.status, path === tooLong ? 414 : 400, path.slice(0, 40));
      assert.match(String(refused.headers['content-security-policy']), /script-src 'self'/);
      const body = JSON.parse(refused.body) as { error: string; message: string };
      assert.equal(body.error, 'bad-request');
      assert.match(body.message, path === tooLong ? /longer than any folder or file name/ : /does not decode/);
    }
  });

  it('an API client gets in with Authorization: Bearer', async () => {
    assert.equal((await fetch(at('/api/sessions'), { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200);
  });

  it('a wrong token, in any place, gets 401', async () => {
    const wrong = 'test-token-0123456789abcdeX';
    assert.equal((await fetch(at('/api/sessions'), { headers: { authorization: `Bearer ${wrong}` } })).status, 401);
    assert.equal((await fetch(at('/api/sessions'), { headers: { cookie: `${accessCookieName(dashboard.port)}=${wrong}` } })).status, 401);
    assert.equal((await fetch(at(`/?token=${wrong}`), { redirect: 'manual' })).status, 401);
    assert.equal((await fetch(at('/api/sessions'), { headers: { cookie: `${accessCookieName(dashboard.port + 1)}=${TOKEN}` } })).status, 401, 'another port’s cookie');
  });
});

describe('the access token, from the command line', () => {
  it('by default a new token is made at each start and printed in the address', async () => {
    const first = await startCommand([record.dir, '--port', '0']);
    const second = await startCommand([record.dir, '--port', '0']).catch((error: unknown) => {
      first.child.kill('SIGTERM');
      throw error;
    });
    try {
      assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
      assert.notEqual(first.token, second.token);
      assert.equal((await fetch(new URL('/api/sessions', first.url))).status, 401);
      assert.equal((await first.get('/api/sessions')).status, 200);
    } finally {
      first.child.kill('SIGTERM');
      second.child.kill('SIGTERM');
      await Promise.all([first.exited, second.exited]);
    }
  });

  it('--token sets the token, and --no-token turns access control off and says so', async () => {
    const given = await startCommand([record.dir, '--port', '0', '--token', TOKEN]);
    try {
      assert.equal(given.token, TOKEN);
      assert.equal((await given.get('/api/sessions')).status, 200);
    } finally {
      given.child.kill('SIGTERM');
      await given.exited;
    }
    const open = await startCommand([record.dir, '--port', '0', '--no-token']);
    try {
      assert.match(open.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      assert.match(open.stdout.join('\n'), /No access token \(--no-token\): anyone who can reach this address can read the record\./);
      assert.equal((await fetch(new URL('/api/sessions', open.url))).status, 200);
    } finally {
      open.child.kill('SIGTERM');
      await open.exited;
    }
  });

  it('a token that could not travel in an address is refused with a one-line error', async () => {
    const result = await runCommand([record.dir, '--token', 'short']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^rec-dashboard: --token takes 16 to 256 letters, digits or \. _ ~ -\. Run rec-dashboard --help for usage\.\n$/);
  });
});
