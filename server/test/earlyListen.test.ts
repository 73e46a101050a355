import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
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

/** A raw connection, once it is made. */
function connectRaw(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends on a connection until it closes it (within 10 s, or this fails), and when it closed, from now. */
function readUntilClosed(socket: Socket): Promise<{ text: string; closedAfterMs: number }> {
  const from = performance.now();
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => {});
  return new Promise((resolve, reject) => {
    const late = setTimeout(() => reject(new Error(`the server kept the connection open 10 s, having sent ${JSON.stringify(text.slice(0, 80))}`)), 10_000);
    socket.once('close', () => {
      clearTimeout(late);
      resolve({ text, closedAfterMs: performance.now() - from });
    });
  });
}

/** A GET on a connection of its own, asked again while the answer is a 503 (a place frees as the server sees a close). */
async function getWhenAPlaceIsFree(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const until = Date.now() + 5_000;
  for (;;) {
    const answer = await sendGet(port, path, { ...headers, connection: 'close' });
    if (answer.status !== 503 || Date.now() > until) return answer;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('connections: bounded, and none held open without a request', () => {
  const record = makeTempRecord();
  const auth = { authorization: `Bearer ${TOKEN}` };
  const opened: Socket[] = [];
  let dashboard: Dashboard | null = null;
  after(async () => {
    for (const socket of opened) socket.destroy();
    await dashboard?.close();
    record.remove();
  });

  it('a connection past the bound is answered at once with a 503 and retry-after, and closed; once another ends, a request is answered', async () => {
    const listening = await listenEarly({ host: '127.0.0.1', port: 0, portFallback: false, connections: { max: 4, firstRequestMs: 60_000 } });
    dashboard = await startDashboard({ stores: [{ kind: 'record', root: record.dir }], host: '127.0.0.1', port: 0, portFallback: false, listening, webRoot: null, token: TOKEN });
    for (let i = 0; i < 4; i++) opened.push(await connectRaw(listening.port));
    // The fifth sends nothing: it is answered as it is accepted.
    const fifth = await readUntilClosed(await connectRaw(listening.port));
    assert.match(fifth.text, /^HTTP\/1\.1 503 /);
    assert.match(fifth.text, /\r\nretry-after: 1\r\n/);
    assert.match(fifth.text, /Too many connections are open to rec-dashboard at once\.$/);
    // One of the four ends: its place is free again.
    opened.shift()!.destroy();
    const listed = await getWhenAPlaceIsFree(listening.port, '/api/sessions', auth);
    assert.equal(listed.status, 200);
  });

  it('a connection past the bound is closed on the server’s side once answered, though its client keeps its own side open', async () => {
    await dashboard?.close();
    const listening = await listenEarly({ host: '127.0.0.1', port: 0, portFallback: false, connections: { max: 2, firstRequestMs: 60_000 } });
    dashboard = await startDashboard({ stores: [{ kind: 'record', root: record.dir }], host: '127.0.0.1', port: 0, portFallback: false, listening, webRoot: null, token: TOKEN });
    for (let i = 0; i < 2; i++) opened.push(await connectRaw(listening.port));
    const answered = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const socket = await new Promise<Socket>((resolve, reject) => {
          const made = connect({ port: listening.port, host: '127.0.0.1', allowHalfOpen: true }, () => resolve(made));
          made.once('error', reject);
        });
        opened.push(socket);
        let text = '';
        socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        await new Promise((resolve) => socket.once('end', resolve));
        return text;
      }),
    );
    for (const text of answered) assert.match(text, /^HTTP\/1\.1 503 /);
    // Every one of the twenty clients still holds its side; the server holds only the two it keeps.
    const until = Date.now() + 5_000;
    const held = () => new Promise<number>((resolve, reject) => listening.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    while ((await held()) > 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await held(), 2);
  });

  it('a connection that sends nothing, or half its headers, is closed once the time for its first request has passed; one that asked stays open between requests', async () => {
    await dashboard?.close();
    const listening = await listenEarly({ host: '127.0.0.1', port: 0, portFallback: false, connections: { max: 4, firstRequestMs: 300 } });
    dashboard = await startDashboard({ stores: [{ kind: 'record', root: record.dir }], host: '127.0.0.1', port: 0, portFallback: false, listening, webRoot: null, token: TOKEN });
    const silent = readUntilClosed(await connectRaw(listening.port));
    const halfSocket = await connectRaw(listening.port);
    halfSocket.write(`GET /api/sessions HTTP/1.1\r\nhost: 127.0.0.1:${listening.port}\r\n`);
    const half = readUntilClosed(halfSocket);
    const askedSocket = await connectRaw(listening.port);
    opened.push(askedSocket);
    let answer = '';
    askedSocket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    askedSocket.write(`GET /api/sessions HTTP/1.1\r\nhost: 127.0.0.1:${listening.port}\r\nauthorization: Bearer ${TOKEN}\r\n\r\n`);
    const [silentClosed, halfClosed] = await Promise.all([silent, half]);
    assert.ok(silentClosed.closedAfterMs >= 250, `closed after ${silentClosed.closedAfterMs} ms`);
    assert.ok(halfClosed.closedAfterMs >= 250, `closed after ${halfClosed.closedAfterMs} ms`);
    assert.equal(silentClosed.text, '');
    // The one that asked was answered, and is kept for its next request past that time.
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.equal(askedSocket.destroyed, false);
    // The places the two held are free: four more connections are taken, the fifth is refused.
    for (let i = 0; i < 3; i++) opened.push(await connectRaw(listening.port));
    assert.match((await readUntilClosed(await connectRaw(listening.port))).text, /^HTTP\/1\.1 503 /);
  });
});
