import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, describe, it } from 'node:test';
import { startDashboard, type Dashboard } from '../dashboard.ts';
import { listenEarly } from '../http/earlyListen.ts';
import { makeTempRecord } from './harness.ts';

// The command binds its address before it loads the server: what is asked meanwhile waits for
// the app, and meets every check any request meets.

const TOKEN = 'early-listen-test-token-0123';

/** Sends a GET at once and resolves with its answer's status and body, whenever it comes. */
function sendGet(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('an address bound before the app is built', () => {
  const record = makeTempRecord();
  let dashboard: Dashboard | null = null;
  after(async () => {
    await dashboard?.close();
    record.remove();
  });

  it('holds the requests that come before the app, then answers each as the app answers it: a foreign Host and a missing token refused, a good one listed', async () => {
    const listening = await listenEarly({ host: '127.0.0.1', port: 0, portFallback: false });
    let read = 0;
    const allRead = new Promise<void>((resolve) => listening.server.on('request', () => ++read === 3 && resolve()));
    const auth = { authorization: `Bearer ${TOKEN}` };
    const foreignHost = sendGet(listening.port, '/api/sessions', { ...auth, host: 'attacker.example' });
    const noToken = sendGet(listening.port, '/api/sessions', {});
    const good = sendGet(listening.port, '/api/sessions', auth);
    // Each is read by the server before the app exists: its connection accepted, its request held.
    await allRead;
    dashboard = await startDashboard({ stores: [{ kind: 'record', root: record.dir }], host: '127.0.0.1', port: 0, portFallback: false, listening, webRoot: null, token: TOKEN });
    assert.equal(dashboard.port, listening.port);
    assert.equal((await foreignHost).status, 403);
    assert.equal((await noToken).status, 401);
    const listed = await good;
    assert.equal(listed.status, 200);
    assert.equal((JSON.parse(listed.body) as { sources: { root: string }[] }).sources[0]!.root, record.dir);
  });

  it('is closed with the dashboard: a connection after is refused', async () => {
    const port = dashboard!.port;
    await dashboard!.close();
    dashboard = null;
    await assert.rejects(sendGet(port, '/api/sessions', {}), { code: 'ECONNREFUSED' });
  });
});
