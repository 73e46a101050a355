import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { isoAt, receivedEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { startWriter } from '../../tools/writer/writerClient.ts';
import type { Dashboard } from '../dashboard.ts';
import { eventually, makeTempRecord, startTestDashboard } from './harness.ts';

// A client that goes away in the middle of its answer fails the work begun for it, often while
// nothing awaits that work yet (an export's batches read ahead on a thread, a page's large file
// read on a reader thread while its small ones are read). Node ends a process on a rejection
// nobody handles or an exception nobody catches: the dashboard must see none, whatever the
// answer and whenever its client leaves.

const record = makeTempRecord('rec-clients-go-away-');
/** Many more files than the batches an export reads ahead. */
const MANY = 600;
/** Over a MiB each: read on a reader thread, beside the page's small files. */
const LARGE = '日本語 ✓ large text '.repeat(80_000);
let dashboard: Dashboard;
const unforeseen: string[] = [];
const onRejection = (reason: unknown) => unforeseen.push(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`);
const onException = (error: Error) => unforeseen.push(`uncaught exception: ${error.stack ?? error.message}`);

before(async () => {
  const writer = await startWriter(record.dir);
  await writer.send({ op: 'burst', sessionId: 'many', count: MANY, startSeq: 1, cwd: '/home/dev/projects/away' });
  await writer.send({ op: 'write', sessionId: 'large', seq: 1, entry: startEntry(0, { sessionId: 'large' }) });
  for (let seq = 2; seq <= 40; seq++) {
    const text = seq % 8 === 0 ? LARGE : `message ${seq}`;
    await writer.send({ op: 'write', sessionId: 'large', seq, entry: receivedEntry(seq, text, { sessionId: 'large', at: isoAt(seq) }) });
  }
  await writer.kill('SIGTERM');
  dashboard = await startTestDashboard(record.dir);
  await eventually(() => (dashboard.sources.every((source) => source.status().indexing.state === 'ready') ? true : undefined), 'the first scan', 60_000);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
});

after(async () => {
  process.off('unhandledRejection', onRejection);
  process.off('uncaughtException', onException);
  await dashboard?.close();
  record.remove();
});

/** Asks for `path` and goes away as soon as the first bytes of the answer come (or its head, with `atHead`). */
function askAndGoAway(path: string, atHead = false): Promise<void> {
  return new Promise((resolve) => {
    const asked = request(new URL(path, dashboard.url), (response) => {
      const leave = () => {
        asked.destroy();
        resolve();
      };
      if (atHead) leave();
      else response.once('data', leave);
      response.once('end', resolve);
    });
    asked.once('error', () => resolve());
    asked.end();
  });
}

/** Lets every rejection of the work let go be told (Node tells them after a turn of microtasks). */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 300));
}

const ANSWERS = [
  '/api/sessions/many/export?format=ndjson',
  '/api/sessions/many/export?format=json',
  '/api/sessions/many/export?format=md',
  '/api/sessions/large/export?format=ndjson',
  '/api/sessions/large/export?format=json',
  '/api/sessions/large?limit=200',
  '/api/sessions/many?limit=200',
  '/api/search?q=message&limit=200',
  '/api/search/export?q=message&format=ndjson',
  '/api/sessions',
  '/api/events',
];

describe('a client that goes away mid-answer', () => {
  it('leaves no unhandled rejection and no uncaught exception behind, whatever it asked and whenever it left, and the dashboard answers on', async () => {
    for (let round = 0; round < 2; round++) {
      for (const path of ANSWERS) await askAndGoAway(path, round === 1);
      // Several at once: the work of one is let go while another's is read.
      await Promise.all(ANSWERS.map((path) => askAndGoAway(path)));
    }
    await settle();
    assert.deepEqual(unforeseen, []);
    const list = await fetch(new URL('/api/sessions', dashboard.url));
    assert.equal(list.status, 200);
  });
});
