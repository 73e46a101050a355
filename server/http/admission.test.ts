import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { startWriter } from '../../tools/writer/writerClient.ts';
import { createRecordSource } from '../record/recordSource.ts';
import { TURN_MS, createLoopTurns, type LoopTurns } from '../sources/loopTurns.ts';
import { NotHere, type Source } from '../sources/source.ts';
import { createTestSearchPool, eventually, makeTempRecord } from '../test/harness.ts';
import { createAdmission, type Admission } from './admission.ts';
import { buildApp } from './app.ts';

// Searches and exports wait in queues of their own, a few at once; pages and items wait in none.
// The sources' work is held by a hook (a gate), so what is running, waiting and refused is
// counted rather than timed: a search's work starts when its source is asked, an export's when
// its first item is pulled.

const record = makeTempRecord('rec-admission-');
let file = '';

before(async () => {
  const writer = await startWriter(record.dir);
  await writer.send({ op: 'write', sessionId: 'one', seq: 1, entry: startEntry(0, { sessionId: 'one' }) });
  const ack = await writer.send({ op: 'write', sessionId: 'one', seq: 2, entry: sentEntry(1, 'the cart still posts orders to v1', { sessionId: 'one' }) });
  file = ack.file!.split('/').at(-1)!;
  // A search with more hits than an answer serializes in one step (server/http/answerInSteps.ts).
  await writer.send({ op: 'write', sessionId: 'two', seq: 1, entry: startEntry(2, { sessionId: 'two' }) });
  for (let i = 0; i < 20; i++) await writer.send({ op: 'write', sessionId: 'two', seq: i + 2, entry: sentEntry(3 + i, `the basket holds ${i} orders`, { sessionId: 'two' }) });
  // A download larger than what the loopback's buffers hold for a client that reads nothing.
  await writer.send({ op: 'write', sessionId: 'big', seq: 1, entry: startEntry(30, { sessionId: 'big' }) });
  for (let i = 0; i < 12; i++) await writer.send({ op: 'write', sessionId: 'big', seq: i + 2, entry: sentEntry(31 + i, `${i} `.repeat(2 ** 19), { sessionId: 'big' }) });
  await writer.kill('SIGTERM');
});

after(() => record.remove());

/** Resolves once the queue runs and holds as many as said. */
function queueHolds(queue: Admission, running: number, waiting: number): Promise<true> {
  return eventually(() => {
    const now = queue.describe();
    return now.running === running && now.waiting === waiting ? true : undefined;
  }, `${running} running and ${waiting} waiting`);
}

/**
 * A gate the held work waits at, and counts of the work that began. A page holds the event loop
 * for `pageMs` first (as reading a page of many files does), and counts itself when done; each
 * refused export notes how many pages were done when its 503 was sent.
 */
function createGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open, searches: 0, exports: 0, pageMs: 0, pagesDone: 0, pagesDoneAtRefusals: [] as number[] };
}

/** Holds the event loop, as synchronous reads do. */
function holdLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A record source, its searches and exports held at the gate once they begin. */
function holdAtGate(source: Source, gate: ReturnType<typeof createGate>): Source {
  return {
    ...source,
    async page(id, query, signal) {
      holdLoop(gate.pageMs);
      gate.pagesDone++;
      return source.page(id, query, signal);
    },
    async search(query, signal) {
      gate.searches++;
      await gate.opened;
      return source.search(query, signal);
    },
    export(id) {
      const parts = source.export!(id);
      if (parts instanceof NotHere) return parts;
      const held = <T>(items: AsyncIterable<T>) =>
        (async function* () {
          gate.exports++;
          await gate.opened;
          yield* items;
        })();
      return { ...parts, items: { ndjson: (signal) => held(parts.items.ndjson(signal)), json: (signal) => held(parts.items.json(signal)), md: (signal) => held(parts.items.md(signal)) } };
    },
  } as Source;
}

type Answer = { status: number; retryAfter: string | null; body: string };

type Served = { app: FastifyInstance; url: string; searches: Admission; exports: Admission; get(path: string): Promise<Answer> };

/**
 * The event loop's turns, with one lane held until `release`: the finishing lane (an answer made,
 * being checked and sent) or the export lane (a download's chunks), under way for as long as a
 * test needs, as in turns of a loaded loop.
 */
function holdLane(lane: Parameters<LoopTurns['take']>[0]): { turns: LoopTurns; held: () => number; release: () => void } {
  const turns = createLoopTurns();
  let held = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const take = async (asked: Parameters<LoopTurns['take']>[0]) => {
    if (asked === lane) {
      held++;
      await released;
    }
    return turns.take(asked);
  };
  return { turns: { ...turns, take, takeNow: (asked) => asked !== lane && turns.takeNow(asked) }, held: () => held, release };
}

async function serve(gate: ReturnType<typeof createGate>, exportPlaces: { running: number; waiting: number; stalledMs?: number } = { running: 2, waiting: 2 }, turns?: LoopTurns): Promise<Served> {
  const searches = createAdmission({ work: 'searches', running: 1, waiting: 1, retryAfterSeconds: 2 });
  const exports = createAdmission({ work: 'exports', ...exportPlaces, retryAfterSeconds: 3 });
  // A source of its own: closing an app stops its sources' work.
  const source = createRecordSource({ root: record.dir, searchPool: createTestSearchPool() });
  await source.start();
  const noted: Admission = {
    ...exports,
    async admit(request, reply) {
      await exports.admit.call(this, request, reply);
      if (reply.statusCode === 503) gate.pagesDoneAtRefusals.push(gate.pagesDone);
    },
  };
  const app = await buildApp({ sources: [holdAtGate(source, gate)], webRoot: null, token: null, queues: { searches, exports: noted }, ...(turns === undefined ? {} : { turns }) });
  app.addHook('onClose', () => source.close());
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    url,
    searches,
    exports,
    async get(path) {
      // Only a guard against a hang: no answer is timed.
      const response = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(20_000) });
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
    },
  };
}

const EXPORT = '/api/sessions/one/export?format=ndjson';

/**
 * A client that asks for `path`, takes the answer's first bytes, and then reads nothing more, as
 * a paused download does, until `readToEnd`, which resolves with all it was sent once the server
 * has closed the connection.
 */
function stalledClient(url: string, path: string): Promise<{ head: string; readToEnd(): Promise<string>; leave(): void }> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  socket.write(`GET ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n\r\n`);
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('data', (first: Buffer) => {
      socket.pause();
      const chunks = [first];
      const closed = new Promise<string>((done) => {
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.once('close', () => done(Buffer.concat(chunks).toString('latin1')));
      });
      resolve({
        head: first.toString('latin1', 0, 200),
        readToEnd() {
          socket.resume();
          return closed;
        },
        leave: () => socket.destroy(),
      });
    });
  });
}
const SEARCH = '/api/search?q=cart';

describe('the queues of searches and exports', () => {
  it('a search beyond those running and waiting is refused with a 503 and retry-after, and none of its work starts', async () => {
    const gate = createGate();
    const { app, get, searches } = await serve(gate);
    try {
      const running = get(SEARCH);
      await eventually(() => (gate.searches === 1 ? true : undefined), 'the first search to begin');
      const waiting = get(SEARCH);
      await queueHolds(searches, 1, 1);
      const refused = await get(SEARCH);
      assert.equal(refused.status, 503, refused.body);
      assert.equal(refused.retryAfter, '2');
      assert.deepEqual(JSON.parse(refused.body), { error: 'busy', message: 'too many searches at once (1 running, 1 waiting); try again in 2 s' });
      assert.equal(gate.searches, 1, 'only the search let in has begun: the one waiting has not, and the refused one never will');
      gate.open();
      assert.deepEqual([(await running).status, (await waiting).status], [200, 200]);
      assert.equal(gate.searches, 2);
    } finally {
      gate.open();
      await app.close();
    }
  });

  it('a search whose hits are made gives its place to the next search while its answer is still being sent: the thread is not kept idle for a loaded loop or a slow client', async () => {
    const gate = createGate();
    gate.open();
    const finishing = holdLane('finish');
    const { app, get, searches } = await serve(gate, undefined, finishing.turns);
    try {
      const first = get('/api/search?q=basket');
      await eventually(() => (finishing.held() > 0 ? true : undefined), 'the first search\'s answer to be under way');
      const next = get('/api/search?q=basket');
      await eventually(() => (gate.searches === 2 ? true : undefined), 'the next search to begin while the first one\'s answer is being sent');
      assert.equal(searches.describe().refused, 0);
      finishing.release();
      const answers = await Promise.all([first, next]);
      assert.deepEqual(answers.map((answer) => answer.status), [200, 200]);
      assert.deepEqual(answers.map((answer) => JSON.parse(answer.body).hits.length), [20, 20], 'each answer is whole');
      await queueHolds(searches, 0, 0);
    } finally {
      finishing.release();
      await app.close();
    }
  });

  it('a search export whose hits are made gives its search place to the next search while its download is still being sent', async () => {
    const gate = createGate();
    gate.open();
    const download = holdLane('export');
    const { app, get, searches, exports } = await serve(gate, undefined, download.turns);
    try {
      const exported = get('/api/search/export?q=basket&format=ndjson');
      await eventually(() => (download.held() > 0 ? true : undefined), 'the download to be under way');
      const next = get('/api/search?q=basket');
      await eventually(() => (gate.searches === 2 ? true : undefined), 'the next search to begin while the download is being sent');
      await queueHolds(exports, 1, 0);
      download.release();
      const answers = await Promise.all([exported, next]);
      assert.deepEqual(answers.map((answer) => answer.status), [200, 200]);
      assert.equal(answers[0]!.body.trim().split('\n').length, 1 + 20, 'the download is whole: its head and every hit');
      await Promise.all([queueHolds(searches, 0, 0), queueHolds(exports, 0, 0)]);
    } finally {
      download.release();
      await app.close();
    }
  });

  it('the export queue makes two exports at once and lets two wait: a fifth is refused before anything of it is made', async () => {
    const gate = createGate();
    const { app, get, exports } = await serve(gate);
    try {
      const answers = Array.from({ length: 4 }, () => get(EXPORT));
      await eventually(() => (gate.exports === 2 ? true : undefined), 'two exports to begin');
      await queueHolds(exports, 2, 2);
      const refused = await get(EXPORT);
      assert.equal(refused.status, 503, refused.body);
      assert.equal(refused.retryAfter, '3');
      assert.equal(JSON.parse(refused.body).error, 'busy');
      assert.equal(gate.exports, 2, 'two are made at once');
      gate.open();
      assert.deepEqual((await Promise.all(answers)).map((answer) => answer.status), [200, 200, 200, 200]);
      assert.equal(gate.exports, 4, 'the two that waited were made once a place was free; the refused one never');
    } finally {
      gate.open();
      await app.close();
    }
  });

  it('a page and an item are answered while searches and exports fill their queues: they wait in none', async () => {
    const gate = createGate();
    const { app, get, searches, exports } = await serve(gate);
    try {
      const held = [get(SEARCH), get(SEARCH), get(EXPORT), get(EXPORT), get(EXPORT), get(EXPORT)];
      await eventually(() => (gate.searches === 1 && gate.exports === 2 ? true : undefined), 'a search and two exports to begin');
      await Promise.all([queueHolds(searches, 1, 1), queueHolds(exports, 2, 2)]);
      // Both queues are full: one more of either is refused.
      assert.equal((await get(SEARCH)).status, 503);
      assert.equal((await get(EXPORT)).status, 503);
      const page = await get('/api/sessions/one');
      assert.equal(page.status, 200, page.body);
      const item = await get(`/api/sessions/one/items/${encodeURIComponent(file)}`);
      assert.equal(item.status, 200, item.body);
      assert.deepEqual([gate.searches, gate.exports], [1, 2], 'nothing held moved while the page and the item were answered');
      gate.open();
      assert.deepEqual((await Promise.all(held)).map((answer) => `${answer.status} ${answer.status === 200 ? "" : answer.body}`), Array(6).fill("200 "));
    } finally {
      gate.open();
      await app.close();
    }
  });

  it('an export whose client takes no bytes keeps its place while nobody waits, and is cut for one that waits: the next is made', async () => {
    const gate = createGate();
    gate.open();
    const { app, get, url, exports } = await serve(gate, { running: 1, waiting: 1, stalledMs: 200 });
    try {
      const stalled = await stalledClient(url, '/api/sessions/big/export?format=ndjson');
      assert.match(stalled.head, /^HTTP\/1\.1 200/);
      await queueHolds(exports, 1, 0);
      // Five times the time it may take no bytes: nobody waits, so a paused download keeps its place.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.deepEqual(exports.describe(), { running: 1, waiting: 0, refused: 0, cut: 0 });
      const next = await get(EXPORT);
      assert.equal(next.status, 200, next.body);
      assert.equal(next.body.trim().split('\n').length, 1 + 2, 'the one that waited is whole: its head and its two entries');
      assert.equal(exports.describe().cut, 1);
      const cut = await stalled.readToEnd();
      assert.ok(!cut.endsWith('0\r\n\r\n'), 'the cut download has no last chunk: no client takes it for a whole one');
      await queueHolds(exports, 0, 0);
    } finally {
      await app.close();
    }
  });

  it('of two exports whose clients take no bytes, only as many are cut as requests wait; the other keeps its place', async () => {
    const gate = createGate();
    gate.open();
    const { app, get, url, exports } = await serve(gate, { running: 2, waiting: 1, stalledMs: 200 });
    const first = await stalledClient(url, '/api/sessions/big/export?format=ndjson');
    const second = await stalledClient(url, '/api/sessions/big/export?format=ndjson');
    try {
      await queueHolds(exports, 2, 0);
      const next = await get(EXPORT);
      assert.equal(next.status, 200, next.body);
      assert.equal(exports.describe().cut, 1);
      const cut = await first.readToEnd();
      assert.ok(!cut.endsWith('0\r\n\r\n'), 'the first was cut');
      // Nobody waits now: the second keeps its place.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.deepEqual(exports.describe(), { running: 1, waiting: 0, refused: 0, cut: 1 });
    } finally {
      first.leave();
      second.leave();
      await app.close();
    }
  });

  it('an export whose client goes away while it waits gives its place to the next, and is never made', async () => {
    const gate = createGate();
    const { app, get, url, exports } = await serve(gate);
    try {
      const running = [get(EXPORT), get(EXPORT)];
      await eventually(() => (gate.exports === 2 ? true : undefined), 'two exports to begin');
      const client = new AbortController();
      const left = fetch(`${url}${EXPORT}`, { signal: client.signal }).catch((error: unknown) => error);
      await queueHolds(exports, 2, 1);
      const waiting = get(EXPORT);
      await queueHolds(exports, 2, 2);
      client.abort();
      assert.ok((await left) instanceof Error);
      await queueHolds(exports, 2, 1);
      const next = get(EXPORT);
      await queueHolds(exports, 2, 2);
      gate.open();
      assert.deepEqual((await Promise.all([...running, waiting, next])).map((answer) => answer.status), [200, 200, 200, 200]);
      assert.equal(gate.exports, 4, 'the export whose client went away was never made');
      assert.equal(exports.describe().refused, 0);
    } finally {
      gate.open();
      await app.close();
    }
  });

  it('a refusal that arrives behind many pages is answered before their work: pages take turns of the event loop, a refusal none', async () => {
    const gate = createGate();
    const { app, url, exports } = await serve(gate, { running: 1, waiting: 0 });
    const sockets: Socket[] = [];
    try {
      const running = fetch(`${url}${EXPORT}`);
      await eventually(() => (gate.exports === 1 ? true : undefined), 'the export to begin');
      await queueHolds(exports, 1, 0);
      // Ten pages that each hold the loop for three turns, then an export the full queue
      // refuses, written at once on connections open beforehand: the server reads them all in
      // one iteration of its loop, the refusal last.
      gate.pageMs = 3 * TURN_MS;
      const { port } = new URL(url);
      for (let i = 0; i < 11; i++) {
        const socket = connect(Number(port), '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        sockets.push(socket);
      }
      const asking = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
      const answers = sockets.map((socket) => {
        let text = '';
        socket.setEncoding('utf8').on('data', (data: string) => (text += data));
        return new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
      });
      sockets.forEach((socket, i) => socket.write(asking(i < 10 ? '/api/sessions/one' : EXPORT)));
      const texts = await Promise.all(answers);
      assert.match(texts[10]!, /^HTTP\/1\.1 503 /, texts[10]);
      assert.match(texts[10]!, /\r\nretry-after: 3\r\n/i);
      assert.deepEqual(texts.slice(0, 10).map((text) => text.split('\r\n')[0]), Array(10).fill('HTTP/1.1 200 OK'), 'every page is answered');
      assert.equal(gate.pagesDoneAtRefusals.length, 1);
      assert.ok(gate.pagesDoneAtRefusals[0]! <= 1, `the refusal waited for one page's work at most, not for ${gate.pagesDoneAtRefusals[0]}`);
      gate.open();
      assert.equal((await running).status, 200);
    } finally {
      for (const socket of sockets) socket.destroy();
      gate.open();
      await app.close();
    }
  });
});
