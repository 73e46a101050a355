import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { PendingWindow } from '../../shared/evidence.ts';
import { spexSummarySchema, spexSessionResponseSchema, spexItemResponseSchema } from '../../shared/wire/spex.ts';
import { TEST_PENDING_WINDOW_MS, eventually, fingerprintTree } from './harness.ts';
import { A, B, C, PROJECT, sentEvent, sessionJson, startSpexRig, statusEvent, type SpexRig } from './spexHarness.ts';

// A spex home written the way spex writes it (one O_APPEND write per line, 12-digit segments rolling
// at a bound), by a real writer process, read by the real spex source.

const rigs: SpexRig[] = [];
after(async () => {
  for (const rig of rigs) await rig.close();
});

async function rig(prepare?: Parameters<typeof startSpexRig>[0], options: PendingWindow = {}): Promise<SpexRig> {
  const started = await startSpexRig(prepare, options);
  rigs.push(started);
  return started;
}

async function page(r: SpexRig, sessionId: string, query = '') {
  const response = await r.get(`/api/sessions/${sessionId}${query}`);
  assert.equal(response.status, 200, response.text);
  return spexSessionResponseSchema.parse(response.body);
}

const where = (sessionId: string) => ({ project: PROJECT, sessionId });

describe('segments', () => {
  test('a log is its legacy timeline.ndjson, then its numbered segments in numeric order, across rollovers', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), legacy: true, event: sentEvent('legacy one', null) });
      await writer.send({ op: 'event', ...where(A), legacy: true, event: sentEvent('legacy two', null) });
      for (let i = 1; i <= 12; i++) await writer.send({ op: 'event', ...where(A), bound: 300, event: sentEvent(`numbered ${i}`, null) });
    });
    const body = await page(r, A);
    assert.deepEqual(
      body.items.map((item) => (item.type === 'received' ? item.text : item.type)),
      ['legacy one', 'legacy two', ...Array.from({ length: 12 }, (_, i) => `numbered ${i + 1}`)],
    );
    assert.equal(body.items[0]!.segment, 'timeline.ndjson');
    assert.ok(body.session.segments >= 4, `rolled into several segments: ${body.session.segments}`);
    assert.deepEqual(body.items.map((item) => item.line), Array.from({ length: 14 }, (_, i) => i + 1));
    assert.deepEqual(body.session.degraded, []);
  });

  test('lines appended later are read from where the last read stopped, and a rollover while watched loses none', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), bound: 200, event: sentEvent('first', null) });
    });
    for (let i = 0; i < 10; i++) await r.writer.send({ op: 'event', ...where(A), bound: 200, event: sentEvent(`live ${i}`, null) });
    const body = await eventually(async () => {
      const now = await page(r, A);
      return now.items.length === 11 ? now : undefined;
    }, 'eleven lines');
    assert.deepEqual(body.items.map((item) => (item.type === 'received' ? item.text : null)), ['first', ...Array.from({ length: 10 }, (_, i) => `live ${i}`)]);
    assert.deepEqual(body.session.degraded, [], 'a segment closed while watched is read to its end once, not taken for changed');
  });

  test('a closed segment changed after it was read is degraded, and what was read is kept', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), bound: 50, event: sentEvent('in the first segment', null) });
      await writer.send({ op: 'event', ...where(A), bound: 50, event: sentEvent('in the second segment', null) });
    });
    const first = join(r.home, 'projects', PROJECT, 'sessions', A, 'timeline', '000000000001.ndjson');
    appendFileSync(first, `${JSON.stringify(sentEvent('slipped into a closed segment', null))}\n`);
    const body = await eventually(async () => {
      const now = await page(r, A);
      return now.session.degraded.some((reason) => reason.code === 'changed-after-read') ? now : undefined;
    }, 'changed-after-read');
    assert.deepEqual(body.items.map((item) => (item.type === 'received' ? item.text : null)), ['in the first segment', 'in the second segment']);
    const reason = body.session.degraded.find((reason) => reason.code === 'changed-after-read')!;
    assert.deepEqual(reason.files, ['timeline/000000000001.ndjson']);
    assert.match(reason.words, /changed after it was read/);
  });

  test('the open segment written over in place, its size kept, long before its end, is changed after it was read, told by a notice', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      for (let i = 0; i < 20; i++) await writer.send({ op: 'event', ...where(A), event: sentEvent(`line ${i} ${'.'.repeat(100)}`, null) });
    });
    const file = 'timeline/000000000001.ndjson';
    const bytes = readFileSync(join(r.home, 'projects', PROJECT, 'sessions', A, file));
    // The first line's text, far before the window of the last bytes read that every append compares.
    const at = bytes.indexOf('line 0');
    assert.ok(bytes.length - at > 1024, `the text is ${bytes.length - at} bytes before the end`);
    const noticesBefore = r.notices.length;
    await r.writer.send({ op: 'overwrite', ...where(A), file, at, base64: Buffer.from('HACKED').toString('base64') });
    const body = await eventually(async () => {
      const now = await page(r, A);
      return now.session.degraded.some((reason) => reason.code === 'changed-after-read') ? now : undefined;
    }, 'changed-after-read');
    assert.deepEqual(body.session.degraded.find((reason) => reason.code === 'changed-after-read')!.files, [file]);
    // Told too: notices are gathered for a few ms after the reading that the page already shows.
    await eventually(() => (r.notices.length > noticesBefore ? true : undefined), 'a notice telling it');
  });
});

describe('evidence', () => {
  test('a line cut mid-write is pending, and the line it becomes once the writer completes it', async () => {
    const line = JSON.stringify(sentEvent('completed later', null));
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'bytes', ...where(A), base64: Buffer.from(line.slice(0, 20)).toString('base64') });
    });
    const pending = await page(r, A);
    assert.equal(pending.items.length, 1);
    assert.equal(pending.items[0]!.type, 'evidence');
    assert.equal(pending.items[0]!.type === 'evidence' && pending.items[0]!.evidence, 'pending');
    assert.equal(pending.session.counts.pending, 1);
    assert.deepEqual(pending.session.degraded, [], 'a line being written is not a reason');
    await r.writer.send({ op: 'bytes', ...where(A), base64: Buffer.from(`${line.slice(20)}\n`).toString('base64') });
    const done = await eventually(async () => {
      const now = await page(r, A);
      return now.items[0]?.type === 'received' ? now : undefined;
    }, 'the completed line');
    assert.equal(done.items[0]!.type === 'received' && done.items[0]!.text, 'completed later');
    assert.equal(done.session.counts.pending, 0);
  });

  test('a tail left unterminated past the pending window is a torn write, found by the reader on its own', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('whole', null) });
      await writer.send({ op: 'bytes', ...where(A), base64: Buffer.from('{"ts":"2026-').toString('base64') });
    }, { pendingWindowMs: TEST_PENDING_WINDOW_MS });
    assert.equal((await page(r, A)).session.counts.pending, 1);
    // The file's mtime says it stopped growing long ago; no write follows to wake the reader.
    await r.writer.send({ op: 'age', ...where(A), file: 'timeline/000000000001.ndjson', mtime: new Date(Date.now() - 60_000).toISOString() });
    const torn = await eventually(async () => {
      const now = await page(r, A);
      return now.session.counts.torn === 1 ? now : undefined;
    }, 'a torn write', TEST_PENDING_WINDOW_MS + 5_000);
    const item = torn.items[1]!;
    assert.equal(item.type === 'evidence' && item.evidence, 'torn');
    // Said as it is, the window named in words a reader knows: no "pending window".
    assert.equal(item.type === 'evidence' && item.why, 'no newline came in the time a write is given to complete: a write cut short (torn)');
    assert.equal(torn.session.degraded[0]?.code, 'torn-write');
    assert.match(torn.session.degraded[0]!.words, /write cut short/);
  });

  test('a damaged line, an invalid one, bad UTF-8 and an unknown kind each keep their place', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('before', null) });
      await writer.send({ op: 'bytes', ...where(A), base64: Buffer.from('{"ts":"2026-11-30T10:00:00Z","kind":"sent","te\n').toString('base64') });
      await writer.send({ op: 'bytes', ...where(A), base64: Buffer.from('{"ts":"2026-11-30T10:00:00Z","kind":"status"}\n').toString('base64') });
      await writer.send({ op: 'bytes', ...where(A), base64: Buffer.concat([Buffer.from('{"kind":"sent","text":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]).toString('base64') });
      await writer.send({ op: 'event', ...where(A), event: { ts: '2026-11-30T10:00:01Z', kind: 'reaction', emoji: 'ok' } });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('after', null) });
    });
    const body = await page(r, A);
    assert.deepEqual(
      body.items.map((item) => (item.type === 'evidence' ? item.evidence : item.type)),
      ['received', 'damaged', 'invalid', 'damaged', 'unknown-kind', 'received'],
    );
    const [, damaged, invalid, badUtf8, unknown] = body.items;
    assert.equal(damaged!.type === 'evidence' && damaged!.raw, '{"ts":"2026-11-30T10:00:00Z","kind":"sent","te');
    assert.match(invalid!.type === 'evidence' ? invalid!.why : '', /status/);
    assert.equal(badUtf8!.type === 'evidence' && badUtf8!.raw, null, 'bytes that are not UTF-8 are not shown');
    assert.equal(badUtf8!.type === 'evidence' && badUtf8!.why, 'not valid UTF-8', 'why is said once');
    assert.equal(unknown!.type === 'unknown-kind' && unknown!.kindName, 'reaction');
    assert.match(unknown!.type === 'unknown-kind' ? (unknown!.raw ?? '') : '', /"emoji":"ok"/);
    assert.deepEqual(body.session.degraded.map((reason) => reason.code), ['damaged-line', 'invalid-line']);
    assert.deepEqual(body.session.degraded[0]!.lines, [2, 4]);
  });

  test('a 100 MB line is read as far as its head: its text clipped on a page and on its item, each saying it is a large line; whole in the Markdown export', async () => {
    const text = 'x'.repeat(100 * 1024 * 1024);
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent(text, null) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('small', null) });
    });
    const body = await page(r, A);
    const big = body.items[0]!;
    assert.equal(big.type, 'received');
    assert.ok(big.large !== undefined && big.large.holder === 'line' && big.large.bytes > text.length && big.large.shownBytes === 64 * 1024);
    assert.equal(big.type === 'received' && big.textClipped, undefined);
    assert.equal(big.type === 'received' && big.text?.length, 64 * 1024);
    const head = await r.app.inject({ method: 'GET', url: `/api/sessions/${A}/items/${big.key}` });
    const item = spexItemResponseSchema.parse(JSON.parse(head.body)).item;
    assert.equal(item.type === 'received' && item.text?.length, 64 * 1024);
    assert.deepEqual(item.large, big.large);
    const markdown = await r.app.inject({ method: 'GET', url: `/api/sessions/${A}/export?format=md` });
    assert.ok(markdown.body.includes(`\n${text}\n`), 'the whole text, in the Markdown export');
    assert.equal(body.items[1]!.type === 'received' && body.items[1]!.text, 'small');
  });

  test('a corrupt session.json is unknown and said so; its timeline is read all the same', async () => {
    const r = await rig(async (writer, home) => {
      await writer.send({ op: 'event', ...where(A), event: sentEvent('still read', null) });
      writeFileSync(join(home, 'projects', PROJECT, 'sessions', A, 'session.json'), '{"session_id": "aaaa');
    });
    const body = await page(r, A);
    assert.equal(body.session.current.state, 'unknown');
    assert.equal(body.session.degraded[0]!.code, 'session-json-unknown');
    assert.match(body.session.degraded[0]!.words, /unknown/);
    assert.equal(body.items[0]!.type === 'received' && body.items[0]!.text, 'still read');
  });

  test('the reader holds offsets and facts: no text or note of a line is in its memory', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A, { note: 'NOTE-IN-SESSION-JSON' }) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('TEXT-OF-A-LINE', null) });
      await writer.send({ op: 'event', ...where(A), event: statusEvent('awaiting', 'merge', 'NOTE-OF-A-DECLARATION') });
    });
    // The source's memory: every summary it lists, with the reader's folds behind them.
    const listed = JSON.stringify([...r.source.conversations()]);
    assert.doesNotMatch(listed, /TEXT-OF-A-LINE|NOTE-OF-A-DECLARATION|NOTE-IN-SESSION-JSON/);
    const body = await page(r, A);
    assert.equal(body.currentNote, 'NOTE-IN-SESSION-JSON', 'read from disk for the page');
  });
});

describe('what a session shows', () => {
  test('Received: a person in words, a session id as a session, anything else as written, replyVia kept', async () => {
    const r = await rig(async (writer) => {
      for (const id of [A, B]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('from a person', null, { replyVia: 'note' }) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('from B', B) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('from the issues', 'issues') });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('from afar', 'peer:box:1234') });
    });
    const body = await page(r, A);
    const senders = body.items.map((item) => (item.type === 'received' ? item.from : null));
    assert.deepEqual(senders, [{ by: 'person' }, { by: 'session', sessionId: B, named: { title: 'session bbbb', branch: 'main' } }, { by: 'other', as: 'issues' }, { by: 'other', as: 'peer:box:1234' }]);
    assert.equal(body.items[0]!.type === 'received' && body.items[0]!.replyVia, 'note');
    assert.equal(body.session.counts.fromPerson, 1);
    assert.equal(body.session.counts.fromPeers, 3);
  });

  test("Sent: the lines of other logs whose from is exactly its id, each from the receiver's log, in time order", async () => {
    const r = await rig(async (writer) => {
      for (const id of [A, B, C]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('person to A', null, { ts: '2026-11-30T10:00:00.000Z' }) });
      await writer.send({ op: 'event', ...where(B), event: sentEvent('A to B', A, { ts: '2026-11-30T10:00:01.000Z' }) });
      await writer.send({ op: 'event', ...where(C), event: sentEvent('A to C', A, { ts: '2026-11-30T10:00:02.000Z' }) });
      await writer.send({ op: 'event', ...where(C), event: sentEvent('a prefix of A is not A', A.slice(0, 8), { ts: '2026-11-30T10:00:03.000Z' }) });
      await writer.send({ op: 'event', ...where(A), event: statusEvent('active', null, null, '2026-11-30T10:00:04.000Z') });
    });
    const body = await page(r, A);
    assert.deepEqual(
      body.items.map((item) => `${item.type}:${item.type === 'sent' ? `${item.receiver.slice(0, 1)}:${item.text}` : item.type === 'received' ? item.text : ''}`),
      ['received:person to A', 'sent:b:A to B', 'sent:c:A to C', 'declaration:'],
    );
    const sent = body.items[1]!;
    assert.equal(sent.type === 'sent' && sent.fromLog, 'receiver');
    assert.equal(body.session.counts.sent, 2);
    const fromB = await page(r, B);
    assert.equal(fromB.items[0]!.type === 'received' && JSON.stringify(fromB.items[0]!.from), JSON.stringify({ by: 'session', sessionId: A, named: { title: 'session aaaa', branch: 'main' } }));
  });

  test('declarations carry the word, the raw status, the proposal and the note, in place; the current status is labelled apart', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A, { status: 'awaiting', proposal: 'merge' }) });
      await writer.send({ op: 'event', ...where(A), event: statusEvent('active', null, null) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('please review', null) });
      await writer.send({ op: 'event', ...where(A), event: statusEvent('awaiting', 'merge', 'ready for review:\n  all green') });
      await writer.send({ op: 'event', ...where(A), event: statusEvent('asking', null, 'which branch?') });
      await writer.send({ op: 'event', ...where(A), event: statusEvent('awaiting', null, 'done') });
      await writer.send({ op: 'event', ...where(A), event: statusEvent('parked', null, null) });
    });
    const body = await page(r, A);
    assert.deepEqual(
      body.items.map((item) => (item.type === 'declaration' ? `${item.word}/${item.status}/${item.proposal}/${item.note}` : item.type)),
      ['working/active/null/null', 'received', 'review/awaiting/merge/ready for review:\n  all green', 'asking/asking/null/which branch?', 'done/awaiting/null/done', 'parked/parked/null/null'],
    );
    assert.deepEqual(body.session.current, { state: 'known', status: 'awaiting', word: 'review', proposal: 'merge', hasNote: false, stopped: false, archived: false });
  });

  test("spex's reply hint stays in the text, and where it begins is said", async () => {
    const hinted = `can you take the lint fix?\n\n— from session ${B}. To reply: spex session send ${B} "<your reply>"`;
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent(hinted, B) });
    });
    const item = (await page(r, A)).items[0]!;
    assert.equal(item.type === 'received' && item.text, hinted);
    assert.equal(item.type === 'received' && item.hintAt, 'can you take the lint fix?'.length);
  });

  test('a project is its worktree path, else its encoded folder name said to be one', async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('x', null) });
      await writer.send({ op: 'session', project: '-srv-other', sessionId: B, value: sessionJson(B, { worktree_path: '' }) });
    });
    const list = (await r.get('/api/sessions')).body.projects.flatMap((project: { sessions: unknown[] }) => project.sessions).map((json: unknown) => spexSummarySchema.parse(json));
    const byId = new Map(list.map((summary: { sessionId: string }) => [summary.sessionId, summary]));
    assert.deepEqual((byId.get(A) as { project: unknown }).project, { key: '/home/dev/shop', from: 'repository', encodedName: PROJECT });
    assert.deepEqual((byId.get(B) as { project: unknown }).project, { key: '-srv-other', from: 'encoded-name', encodedName: '-srv-other' });
    assert.equal((byId.get(A) as { title: string }).title, 'session aaaa');
    assert.equal((byId.get(A) as { branch: string }).branch, 'main');
  });
});

describe('live', () => {
  test('a new line, a new session and a new project are each told, with the sender told of what it sent', async () => {
    const r = await rig(async (writer) => {
      for (const id of [A, B]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
    });
    const told = (id: string) => r.notices.some((notice) => notice.type === 'conversation-changed' && notice.id === id);
    r.notices.length = 0;
    await r.writer.send({ op: 'event', ...where(B), event: sentEvent('A to B', A) });
    await eventually(() => (told(A) && told(B) ? true : undefined), 'the receiver and the sender told');
    assert.equal(JSON.parse(r.source.conversation(A)!.json).counts.sent, 1);
    await r.writer.send({ op: 'session', ...where(C), value: sessionJson(C) });
    await eventually(() => (told(C) ? true : undefined), 'a new session told');
    await r.writer.send({ op: 'session', project: '-srv-new', sessionId: 'dddddddd-0000-4000-8000-00000000000d', value: sessionJson('dddddddd-0000-4000-8000-00000000000d', { worktree_path: '/srv/new' }) });
    await eventually(() => (told('dddddddd-0000-4000-8000-00000000000d') ? true : undefined), 'a new project told');
    assert.equal(JSON.parse(r.source.conversation('dddddddd-0000-4000-8000-00000000000d')!.json).cwd, '/srv/new');
  });
});

describe('read-only', () => {
  test('reading a live spex home writes nothing in it: no lock, no cursor, no queue', async () => {
    const r = await rig(async (writer, home) => {
      for (const id of [A, B]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
      await writer.send({ op: 'event', ...where(A), legacy: true, event: sentEvent('legacy', null) });
      await writer.send({ op: 'event', ...where(A), bound: 100, event: sentEvent('from B', B) });
      await writer.send({ op: 'bytes', ...where(B), base64: Buffer.from('{"half":').toString('base64') });
      writeFileSync(join(home, 'projects', PROJECT, 'sessions', A, 'cursors.json'), '{}');
    });
    for (let i = 0; i < 5; i++) await r.writer.send({ op: 'event', ...where(A), bound: 100, event: sentEvent(`live ${i}`, B) });
    await eventually(async () => ((await page(r, A)).items.length === 7 ? true : undefined), 'the live lines');
    const before = fingerprintTree(r.home);
    await page(r, A);
    await page(r, B);
    for (const item of (await page(r, A)).items) await r.get(`/api/sessions/${A}/items/${item.key}`);
    await r.get('/api/search?q=live');
    await r.get('/api/sessions');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(fingerprintTree(r.home), before);
    assert.ok(statSync(r.home).isDirectory());
  });
});

describe('search', () => {
  test('texts and notes are searched with side, peer, project, time and from-a-person filters', async () => {
    const r = await rig(async (writer) => {
      for (const id of [A, B]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
      await writer.send({ op: 'session', project: '-srv-other', sessionId: C, value: sessionJson(C, { worktree_path: '/srv/other' }) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('deploy from a person', null, { ts: '2026-11-30T10:00:00.000Z' }) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('deploy from B', B, { ts: '2026-11-30T11:00:00.000Z' }) });
      await writer.send({ op: 'event', ...where(A), event: statusEvent('awaiting', 'merge', 'deploy is ready', '2026-11-30T12:00:00.000Z') });
      await writer.send({ project: '-srv-other', sessionId: C, op: 'event', event: sentEvent('deploy elsewhere', null, { ts: '2026-11-30T13:00:00.000Z' }) });
    });
    const search = async (query: string) => (await r.get(`/api/search?q=deploy${query}`)).body.hits.map((hit: { kind: string; sessionId: string; snippet: string }) => `${hit.kind}:${hit.sessionId.slice(0, 1)}:${hit.snippet}`);
    assert.deepEqual(await search(''), ['received:c:deploy elsewhere', 'declaration:a:deploy is ready', 'received:a:deploy from B', 'sent:b:deploy from B', 'received:a:deploy from a person']);
    assert.deepEqual(await search('&side=sent'), ['sent:b:deploy from B']);
    assert.deepEqual(await search('&side=received&spex.person=1'), ['received:c:deploy elsewhere', 'received:a:deploy from a person']);
    // What a person wrote is only received: asked for as sent, the home says why it has none.
    const personSent = (await r.get('/api/search?q=deploy&side=sent&spex.person=1')).body;
    assert.deepEqual(personSent.hits, []);
    assert.deepEqual(
      personSent.keptOut.map((one: { why: string }) => one.why),
      ['spex.person asks for what a person wrote (a `from: null` line), which a session only receives: no sent entry is one'],
    );
    assert.deepEqual(await search(`&peer=${B.slice(0, 8)}&side=received`), ['received:a:deploy from B']);
    // Its Markdown says of both halves of the line found from both its sides that they are one event.
    const md = (await r.app.inject({ method: 'GET', url: '/api/search/export?q=deploy%20from%20B&format=md' })).body;
    const halves = md.split('\n### ').slice(1);
    assert.deepEqual(halves.map((hit) => hit.split(' · ')[0]), ['Received', 'Sent']);
    for (const hit of halves) assert.match(hit, /\n- Two sides: one event, line `[^`]+` of its store; the (sent|received) hit of that line, if the search found it, is the same message\n/);
    assert.equal(new Set(halves.map((hit) => /line (`[^`]+`) of its store/.exec(hit)![1])).size, 1);
    // A person is no peer: the peer filter finds what one wrote by its row's words, as the browser's lists do.
    assert.deepEqual(await search(`&peer=${encodeURIComponent('A Person')}`), ['received:c:deploy elsewhere', 'received:a:deploy from a person']);
    assert.deepEqual(await search(`&project=${encodeURIComponent('/srv/other')}`), ['received:c:deploy elsewhere']);
    assert.deepEqual(await search('&from=2026-11-30T10:30:00.000Z&to=2026-11-30T12:30:00.000Z&side=received'), ['received:a:deploy from B']);
    // As instants, not as text: `…T11:00:00Z` is the instant the line's `…T11:00:00.000Z` names.
    assert.deepEqual(await search('&from=2026-11-30T11:00:00Z&to=2026-11-30T11:00:00Z&side=received'), ['received:a:deploy from B']);
    assert.deepEqual(await search('&record.outcome=consumed'), [], "outcomes are the record's words");
  });

  test("a peer filter finds a session of the home by its title or branch as its session.json gives them, on either side", async () => {
    const r = await rig(async (writer) => {
      await writer.send({ op: 'session', ...where(A), value: sessionJson(A, { title: 'payments', branch: 'node/payments' }) });
      await writer.send({ op: 'session', ...where(B), value: sessionJson(B, { title: 'Checkout Review', branch: 'node/review' }) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('deploy from B', B, { ts: '2026-11-30T11:00:00.000Z' }) });
      await writer.send({ op: 'event', ...where(B), event: sentEvent('deploy from A', A, { ts: '2026-11-30T12:00:00.000Z' }) });
    });
    const search = async (query: string) => (await r.get(`/api/search?q=deploy${query}`)).body.hits.map((hit: { kind: string; sessionId: string; snippet: string }) => `${hit.kind}:${hit.sessionId.slice(0, 1)}:${hit.snippet}`);
    // B is "Checkout Review": what A received from it, and what A sent to it (read in B's log).
    assert.deepEqual(await search('&peer=checkout%20review'), ['sent:a:deploy from A', 'received:a:deploy from B']);
    assert.deepEqual(await search('&peer=node%2Fpayments&side=received'), ['received:b:deploy from A']);
    assert.deepEqual(await search('&peer=no%20such%20title'), []);
  });

  test("hits come newest first across the home's logs, a line written with an earlier time than the one before it among them", async () => {
    const r = await rig(async (writer) => {
      for (const id of [A, C]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('deploy one', null, { ts: '2026-11-30T10:00:00.000Z' }) });
      await writer.send({ op: 'event', ...where(A), event: sentEvent('deploy three', null, { ts: '2026-11-30T12:00:00.000Z' }) });
      // The writer's clock went back: event order is not time order here.
      await writer.send({ op: 'event', ...where(A), event: sentEvent('deploy two', null, { ts: '2026-11-30T11:00:00.000Z' }) });
      await writer.send({ op: 'event', ...where(C), event: sentEvent('deploy elsewhere', null, { ts: '2026-11-30T11:30:00.000Z' }) });
    });
    const snippets = async (query: string) => (await r.get(`/api/search?q=deploy${query}`)).body.hits.map((hit: { snippet: string }) => hit.snippet);
    assert.deepEqual(await snippets(''), ['deploy three', 'deploy elsewhere', 'deploy two', 'deploy one']);
    assert.deepEqual(await snippets('&limit=2'), ['deploy three', 'deploy elsewhere']);
  });
});
