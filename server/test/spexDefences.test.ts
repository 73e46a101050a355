import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { PendingWindow } from '../../shared/evidence.ts';
import { sessionsResponseSchema } from '../../shared/wire/conversations.ts';
import { spexSessionResponseSchema, spexSummarySchema } from '../../shared/wire/spex.ts';
import { startSpexWriter } from '../../tools/writer/spexWriter.ts';
import { TEST_PENDING_WINDOW_MS, eventually, makeTempRecord } from './harness.ts';
import { A, B, PROJECT, sentEvent, sessionJson, startSpexRig, type SpexRig } from './spexHarness.ts';

// What the spex reader must not do, whatever the home holds: follow a link out of it, lose a
// store that went away and came back, wait on a clock a file's mtime sets, drop a name that is
// not UTF-8, or merge a segment that appeared where spex never writes one without a word.

const rigs: SpexRig[] = [];
const temps: { remove(): void }[] = [];
after(async () => {
  for (const rig of rigs) await rig.close();
  for (const temp of temps) temp.remove();
});

async function rig(prepare?: Parameters<typeof startSpexRig>[0], options: PendingWindow = {}): Promise<SpexRig> {
  const started = await startSpexRig(prepare, options);
  rigs.push(started);
  return started;
}

const where = (sessionId: string, project = PROJECT) => ({ project, sessionId });
const OUTSIDE = 'OUTSIDE-THE-HOME-5c1e';

/** A spex home elsewhere, written by spex's own write pattern, whose sessions must never be shown. */
async function writeOutsideHome(): Promise<string> {
  const temp = makeTempRecord('spex-outside-');
  temps.push(temp);
  const writer = await startSpexWriter(temp.dir);
  await writer.send({ op: 'session', ...where(B), value: sessionJson(B) });
  await writer.send({ op: 'event', ...where(B), event: sentEvent(`${OUTSIDE} a message`, A) });
  await writer.kill();
  return temp.dir;
}

async function listOf(r: SpexRig) {
  const response = await r.get('/api/sessions');
  assert.equal(response.status, 200, response.text);
  return sessionsResponseSchema.parse(response.body);
}

function summaries(list: Awaited<ReturnType<typeof listOf>>) {
  return list.projects.flatMap((project) => project.sessions).map((session) => spexSummarySchema.parse(session));
}

async function page(r: SpexRig, sessionId: string) {
  const response = await r.get(`/api/sessions/${encodeURIComponent(sessionId)}?limit=1000`);
  assert.equal(response.status, 200, response.text);
  return spexSessionResponseSchema.parse(response.body);
}

describe('links out of the home', () => {
  test("a project's sessions folder that links out of the home is not followed: nothing from outside is listed, paged, searched or exported", async () => {
    const outside = await writeOutsideHome();
    const r = await rig(async (writer, home) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('inside', null) });
      mkdirSync(join(home, 'projects', '-elsewhere'), { recursive: true });
      symlinkSync(join(outside, 'projects', PROJECT, 'sessions'), join(home, 'projects', '-elsewhere', 'sessions'));
    });
    const list = await listOf(r);
    assert.deepEqual(summaries(list).map((session) => session.id), [A]);
    assert.ok(list.sources[0]!.strays.includes('projects/-elsewhere/sessions'), `the link is listed, not followed: ${JSON.stringify(list.sources[0]!.strays)}`);
    assert.equal((await r.get(`/api/sessions/${B}`)).status, 404);
    const search = await r.get(`/api/search?q=${OUTSIDE}`);
    assert.equal(search.status, 200);
    assert.equal(search.body.hits.length, 0);
    assert.equal((await r.get(`/api/sessions/${B}/export?format=ndjson`)).status, 404);
    assert.ok(!r.served.some((text) => text.includes(OUTSIDE)), 'no byte from outside the home is served');
  });

  test('a projects folder that is a link out of the home is not followed, and a link made while the home is watched is not either', async () => {
    const outside = await writeOutsideHome();
    const r = await rig(async (_writer, home) => {
      symlinkSync(join(outside, 'projects'), join(home, 'projects'));
    });
    assert.deepEqual(summaries(await listOf(r)), []);
    // Swapped in while watched: the folder becomes a link after the home was read.
    const second = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A, '-p'), value: sessionJson(A) });
    });
    const sessions = join(second.home, 'projects', '-p', 'sessions');
    renameSync(sessions, `${sessions}.real`);
    symlinkSync(join(outside, 'projects', PROJECT, 'sessions'), sessions);
    await second.writer.send({ op: 'session', ...where(B, '-q'), value: sessionJson(B) });
    await eventually(async () => (summaries(await listOf(second)).some((session) => session.id === B) ? true : undefined), 'a new project, listed after the swap');
    const search = await second.get(`/api/search?q=${OUTSIDE}`);
    assert.equal(search.body.hits.length, 0);
    assert.ok(!second.served.some((text) => text.includes(OUTSIDE)), 'no byte from outside the home is served');
    assert.ok(!r.served.some((text) => text.includes(OUTSIDE)), 'no byte from outside the home is served');
  });
});

describe('a home that goes away and comes back', () => {
  test('a home moved away and back is read again within a second of its return, with the lines appended since', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('before the move', null) });
    });
    renameSync(r.home, `${r.home}.away`);
    await eventually(() => (r.source.status().state === 'missing' ? true : undefined), 'the home to be missing');
    renameSync(`${r.home}.away`, r.home);
    await r.writer.send({ op: 'event', ...where(A), event: sentEvent('after it came back', null) });
    const back = await eventually(async () => {
      const list = summaries(await listOf(r));
      return list.find((session) => session.id === A)?.counts.received === 2 ? list : undefined;
    }, 'the session and its new line', 5_000);
    assert.equal(back.length, 1);
    assert.equal(r.source.status().state, 'present');
    await r.writer.send({ op: 'event', ...where(A), event: sentEvent('and later still', null) });
    await eventually(async () => ((await page(r, A)).items.length === 3 ? true : undefined), 'a line appended once it is back is told by the watch');
  });

  test('a home deleted and made again is read again within a second, as the new home it is', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('in the old home', null) });
    });
    rmSync(r.home, { recursive: true, force: true });
    await eventually(async () => (summaries(await listOf(r)).length === 0 ? true : undefined), 'the old home gone');
    await r.writer.send({ op: 'session', ...where(B), value: sessionJson(B) });
    await r.writer.send({ op: 'event', ...where(B), event: sentEvent('in the new home', null) });
    await eventually(async () => (summaries(await listOf(r)).find((session) => session.id === B)?.counts.received === 1 ? true : undefined), 'the new home', 5_000);
    await r.writer.send({ op: 'event', ...where(B), event: sentEvent('appended to the new home', null) });
    await eventually(async () => ((await page(r, B)).items.length === 2 ? true : undefined), 'a line appended to the new home');
  });
});

describe('pending, timed from the first look', () => {
  test('a torn tail whose mtime is in the future turns torn one pending window after the reader first saw it', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('whole', null) });
      await writer.send({ op: 'bytes', ...where(A), base64: Buffer.from('{"ts":"2026-').toString('base64') });
      // A clock set wrong: the file says it was written an hour from now.
      await writer.send({ op: 'age', ...where(A), file: 'timeline/000000000001.ndjson', mtime: new Date(Date.now() + 3_600_000).toISOString() });
    }, { pendingWindowMs: TEST_PENDING_WINDOW_MS });
    assert.equal((await page(r, A)).session.counts.pending, 1);
    const torn = await eventually(async () => {
      const now = await page(r, A);
      return now.session.counts.torn === 1 ? now : undefined;
    }, 'the tail to turn torn', TEST_PENDING_WINDOW_MS + 5_000);
    assert.equal(torn.session.degraded[0]?.code, 'torn-write');
  });
});

describe('names that are not UTF-8', () => {
  test('a project folder and a session folder whose names are not UTF-8 are listed with their bytes escaped, each with why it is not read', async () => {
    const badProject = Buffer.concat([Buffer.from('-p'), Buffer.from([0xfe])]);
    const badSession = Buffer.concat([Buffer.from('s-'), Buffer.from([0xff])]);
    const r = await rig(async (writer, home) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('a plain one', null) });
      const projects = Buffer.from(join(home, 'projects/'));
      mkdirSync(Buffer.concat([projects, badProject, Buffer.from(`/sessions/${B}/timeline`)]), { recursive: true });
      mkdirSync(Buffer.concat([projects, Buffer.from(`${PROJECT}/sessions/`), badSession, Buffer.from('/timeline')]), { recursive: true });
    });
    const list = await listOf(r);
    assert.ok(list.sources[0]!.strays.includes('projects/-p\\xfe'), `the project folder is listed: ${JSON.stringify(list.sources[0]!.strays)}`);
    const bad = summaries(list).find((session) => session.id === 's-\\xff');
    assert.ok(bad, 'the session folder is listed with its bytes escaped');
    assert.match(bad.degraded.map((reason) => reason.words).join(' '), /not valid UTF-8/);
    assert.ok(!JSON.stringify(list).includes('\ufffd'), 'no name is shown with replacement characters');
    assert.equal((await page(r, 's-\\xff')).items.length, 0);
  });
});

describe('segments that appear where spex never writes one', () => {
  test('a segment numbered below the segments already read, made afterwards, is changed after reading in the session’s evidence', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      for (let i = 0; i < 4; i++) await writer.send({ op: 'event', ...where(A), bound: 50, event: sentEvent(`line ${i}`, null) });
    });
    assert.deepEqual((await page(r, A)).session.degraded, []);
    // A segment before the first, as a restored backup would put it: spex only ever begins the next number.
    const timeline = join(r.home, 'projects', PROJECT, 'sessions', A, 'timeline');
    appendFileSync(join(timeline, '000000000000.ndjson'), `${JSON.stringify(sentEvent('put before the first', null))}\n`);
    const body = await eventually(async () => {
      const now = await page(r, A);
      return now.session.degraded.some((reason) => reason.code === 'changed-after-read' && reason.files.includes('timeline/000000000000.ndjson')) ? now : undefined;
    }, 'the new lower segment in the evidence');
    const reason = body.session.degraded.find((candidate) => candidate.code === 'changed-after-read')!;
    assert.deepEqual(reason.files, ['timeline/000000000000.ndjson']);
    assert.match(reason.words, /changed after/);
    assert.equal(body.items[0]!.type === 'received' && body.items[0]!.text, 'put before the first', 'what it holds is shown in its place');
  });
});
