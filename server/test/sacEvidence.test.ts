import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { sacItemResponseSchema, sacRoomResponseSchema, sacRoomsResponseSchema, sacSeatResponseSchema } from '../../shared/wire/sac.ts';
import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { eventually, makeTempRecord } from './harness.ts';
import { getBody, listSeats, seatUrl, startSacApp, writeExampleStore, type SacTestApp } from './sacApp.ts';

// What the reader makes of what is not a plain entry: writes in progress, writes cut short, files
// sac did not write as it does, and what is too large or not UTF-8.

const API = 'api-service#c4e10000';
const WEB = 'web-app#3f9c1a20';
const TEAM = 'channels/team';

let store: { dir: string; remove(): void };
let writer: SacWriter;
let served: SacTestApp | null = null;

beforeEach(async () => {
  store = makeTempRecord('sac-evidence-');
  writer = await startSacWriter(store.dir);
  await writeExampleStore(writer);
});
afterEach(async () => {
  await served?.close();
  served = null;
  await writer.close();
  store.remove();
});

async function serve(): Promise<SacTestApp> {
  served = await startSacApp(store.dir);
  return served;
}

async function teamFlow(app: SacTestApp) {
  const body = await getBody(app.app, `/api/sac/rooms/team?source=${app.source.ref.id}`);
  return sacRoomResponseSchema.parse(body.json);
}

async function summaryOf(app: SacTestApp, seat: string) {
  const body = await getBody(app.app, seatUrl(seat));
  return sacSeatResponseSchema.parse(body.json).seat;
}

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

describe('sac writes as the reader meets them', () => {
  it('an entry cut mid-write is pending, and becomes whole once the write completes, told by a notice', async () => {
    const app = await serve();
    await writer.send({ op: 'send', room: 'team', seat: WEB, ts: '2026-11-30T17:19:30.000+00:00', type: 'FACT', text: 'first half. second half.', stopAfterBytes: 60 });
    const pending = await eventually(async () => {
      const flow = await teamFlow(app);
      return flow.room.pending > 0 ? flow : undefined;
    }, 'a pending write');
    assert.equal(pending.items.at(-1)?.evidence, 'pending');
    const noticesBefore = app.notices.length;
    // The rest of the same write, appended: what sac's one write leaves when a reader looked mid-way.
    const whole = '\n## 2026-11-30T17:19:30.000+00:00 — FACT\nfirst half. second half.\n';
    await writer.send({ op: 'raw', path: `${TEAM}/${WEB}.md`, bytes: b64(Buffer.from(whole).subarray(60)), append: true });
    const done = await eventually(async () => {
      const flow = await teamFlow(app);
      return flow.room.pending === 0 && flow.room.entries === 5 ? flow : undefined;
    }, 'the completed entry');
    const entry = done.items.find((item) => item.time === '2026-11-30T17:19:30.000+00:00')!;
    assert.equal(entry.evidence, 'parsed');
    assert.equal(entry.text, 'first half. second half.');
    await eventually(() => (app.notices.slice(noticesBefore).some((notice) => notice.type === 'conversation-changed' && notice.id === WEB) ? true : undefined), 'a notice of the seat');
  });

  it('a write cut short and left 10 s past its mtime is a torn entry: unknown evidence in place, and a degraded reason', async () => {
    await writer.send({ op: 'send', room: 'team', seat: WEB, ts: '2026-11-30T17:19:40.000+00:00', type: 'QUESTION', text: 'will this ever', stopAfterBytes: 50 });
    await writer.send({ op: 'raw', path: `${TEAM}/${WEB}.md`, bytes: '', append: true, mtime: new Date(Date.now() - 60_000).toISOString() });
    const app = await serve();
    const flow = await teamFlow(app);
    const torn = flow.items.filter((item) => item.evidence === 'damaged');
    assert.ok(torn.length > 0);
    assert.match(torn[0]!.why ?? '', /torn/);
    assert.equal(flow.room.torn, torn.length);
    const summary = await summaryOf(app, WEB);
    assert.ok(summary.degraded.some((reason) => reason.code === 'torn-entry' && /unknown evidence, not nothing/.test(reason.words)));
  });

  it('a 0-byte seat file is a seat that joined and never wrote', async () => {
    await writer.send({ op: 'join', room: 'team', seat: 'docs#aa11bb22' });
    const app = await serve();
    const flow = await teamFlow(app);
    assert.ok(flow.room.seats.includes('docs#aa11bb22'));
    assert.equal(flow.room.neverWrote, 1);
    const docs = await summaryOf(app, 'docs#aa11bb22');
    assert.equal(docs.neverWrote, true);
    assert.equal(docs.counts.sent, 0);
    assert.equal(docs.counts.received, 4);
  });

  it('a corrupt registry is unknown, never empty: sessions and projects unknown, liveness unknown, the store degraded', async () => {
    await writer.send({ op: 'raw', path: 'registry.json', bytes: b64('{"agents": {"web-app": ') });
    const app = await serve();
    const web = await summaryOf(app, WEB);
    assert.equal(web.session.state, 'unknown');
    assert.equal(web.project.from, 'agent-name');
    assert.equal(web.liveness.word, 'unknown');
    assert.ok(web.degraded.some((reason) => reason.code === 'corrupt-store-file' && reason.files.includes('registry.json') && /unknown, not empty/.test(reason.words)));
    // And when sac writes it whole again, the seat's session is known.
    await writer.send({ op: 'json', name: 'registry.json', value: { agents: { 'web-app': { project: '/p/web', seats: { [WEB]: { session: 'full-session-id' } } } } } });
    await eventually(async () => ((await summaryOf(app, WEB)).session.state === 'known' ? true : undefined), 'the registry read again');
  });

  it('an archived room leaves the seats’ views, as it leaves sac’s, and is listed where sac’s records still name it: archived, its members kept, nothing of it read', async () => {
    const app = await serve();
    await writer.send({ op: 'archive', room: 'team' });
    const team = await eventually(async () => {
      const rooms = sacRoomsResponseSchema.parse((await getBody(app.app, `/api/sac/rooms?source=${app.source.ref.id}`)).json).rooms;
      const found = rooms.find((room) => room.room === 'team');
      return found?.folder.state === 'archived' ? found : undefined;
    }, 'the room archived');
    assert.deepEqual(team.folder, { state: 'archived', path: 'channels/.archive/team' });
    assert.deepEqual([team.entries, team.seats], [0, []]);
    assert.ok(team.members.some((member) => member.seat === WEB && member.because.includes('members')));
    const web = await summaryOf(app, WEB);
    assert.equal(web.counts.sent, 0);
    const page = await getBody(app.app, `/api/sac/rooms/team?source=${app.source.ref.id}`);
    const room = sacRoomResponseSchema.parse(page.json);
    assert.deepEqual([room.room.folder.state, room.items, room.total], ['archived', [], 0]);
    assert.equal((await getBody(app.app, `/api/sac/rooms/nowhere?source=${app.source.ref.id}`)).status, 404);
  });

  it('a room of two sac opened and nobody wrote or joined has no folder yet: listed with both its seats and no entries', async () => {
    const app = await serve();
    const rooms = sacRoomsResponseSchema.parse((await getBody(app.app, `/api/sac/rooms?source=${app.source.ref.id}`)).json).rooms;
    const dm = rooms.find((room) => room.kind === 'pair')!;
    assert.deepEqual(dm.folder, { state: 'absent' });
    assert.equal(dm.entries, 0);
    assert.deepEqual(dm.members.map((member) => member.seat).sort(), [API, WEB].sort());
    assert.deepEqual(rooms.map((room) => room.room), [dm.room, 'team'].sort());
  });

  it('a seat file that shrinks was changed after it was read: what was read is kept, and the seat says so', async () => {
    const app = await serve();
    await writer.send({ op: 'raw', path: `${TEAM}/${API}.md`, bytes: b64('## 2026-11-30T17:18:53.482+00:00 — QUESTION\n') });
    const flow = await eventually(async () => {
      const seen = await teamFlow(app);
      return seen.room.changed > 0 ? seen : undefined;
    }, 'changed after read');
    assert.equal(flow.room.entries, 4);
    const api = await summaryOf(app, API);
    assert.ok(api.degraded.some((reason) => reason.code === 'changed-after-read'));
  });

  it('a seat file written over in place, its size kept, long before its end, was changed after it was read: the seat says so, told by a notice', async () => {
    for (let i = 0; i < 10; i++) await writer.send({ op: 'send', room: 'team', seat: API, ts: `2026-11-30T17:20:${String(10 + i)}.000+00:00`, type: 'FACT', text: `later entry ${i} ${'.'.repeat(200)}` });
    const app = await serve();
    const path = `${TEAM}/${API}.md`;
    const bytes = readFileSync(join(store.dir, path));
    // The first entry's body, far before the window of the last bytes read that every append compares.
    const at = bytes.indexOf('\n', bytes.indexOf('## ')) + 1;
    assert.ok(bytes.length - at > 1024, `the body is ${bytes.length - at} bytes before the end`);
    const noticesBefore = app.notices.length;
    await writer.send({ op: 'raw', path, bytes: b64('HACKED'), at });
    const api = await eventually(async () => {
      const seat = await summaryOf(app, API);
      return seat.degraded.some((reason) => reason.code === 'changed-after-read') ? seat : undefined;
    }, 'changed after read');
    assert.ok(api.degraded.some((reason) => reason.code === 'changed-after-read'));
    // Told too: notices are gathered for a few ms after the reading that the page already shows.
    await eventually(() => (app.notices.length > noticesBefore ? true : undefined), 'a notice telling it');
    assert.equal((await teamFlow(app)).room.changed > 0, true);
  });

  it('bytes that are not UTF-8 in a body are shown with replacement characters, never a crash', async () => {
    const bad = Buffer.concat([Buffer.from('\n## 2026-11-30T17:19:50.000+00:00 — FACT\nbad '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' bytes\n')]);
    await writer.send({ op: 'raw', path: `${TEAM}/${WEB}.md`, bytes: b64(bad), append: true });
    const app = await serve();
    const entry = (await teamFlow(app)).items.find((item) => item.time === '2026-11-30T17:19:50.000+00:00')!;
    assert.equal(entry.evidence, 'parsed');
    assert.equal(entry.text, 'bad \ufffd\ufffd\ufffd bytes');
  });

  it('text before a first header is stray text of its file, shown as written, and said of the seat', async () => {
    await writer.send({ op: 'raw', path: `${TEAM}/notes.md`, bytes: b64('scribbled by hand\n\n## 2026-11-30T17:19:55.000+00:00 — FACT\nthen an entry\n') });
    const app = await serve();
    const flow = await teamFlow(app);
    const stray = flow.items.find((item) => item.type === 'stray-text')!;
    assert.equal(stray.seat, 'notes');
    assert.equal(stray.text, 'scribbled by hand\n\n');
    const notes = await summaryOf(app, 'notes');
    assert.ok(notes.degraded.some((reason) => reason.code === 'stray-text'));
  });

  it('a body of 100 MB is read as far as its head on a page and as an item, each saying it is a large body; it is whole in the Markdown export, and other requests are answered', async () => {
    await writer.send({ op: 'big', room: 'team', seat: WEB, ts: '2026-11-30T17:20:00.000+00:00', type: 'FACT', bodyBytes: 100 * 1024 * 1024, marker: 'BIG' });
    const app = await serve();
    const flow = await teamFlow(app);
    const big = flow.items.find((item) => item.time === '2026-11-30T17:20:00.000+00:00')!;
    assert.ok(big.large !== undefined && big.large.holder === 'body' && big.large.bytes > 100 * 1024 * 1024 && big.textClipped === undefined);
    assert.ok(big.text!.length <= 64 * 1024 && big.text!.startsWith('BIG x'));
    const head = sacItemResponseSchema.parse((await getBody(app.app, `${seatUrl(WEB)}/items/${encodeURIComponent(big.item)}`)).json).item;
    assert.ok(head.textClipped === undefined && head.text === big.text);
    assert.deepEqual(head.large, big.large);
    const markdown = (await getBody(app.app, `${seatUrl(WEB)}/export?format=md`)).text;
    const block = markdown.slice(markdown.indexOf('```text\nBIG x'));
    assert.ok(block.indexOf('\n```\n') > 100 * 1024 * 1024 - 2000, 'the whole body, in the Markdown export');
    assert.ok((await listSeats(app.app)).length >= 3);
  });

  it('entries of two files with the same instant are said to share it, and a re to that time links both', async () => {
    await writer.send({ op: 'send', room: 'team', seat: WEB, ts: '2026-11-30T17:21:00.000+00:00', type: 'FACT', text: 'one' });
    await writer.send({ op: 'send', room: 'team', seat: API, ts: '2026-11-30T17:21:00.000+00:00', type: 'FACT', text: 'two' });
    await writer.send({ op: 'send', room: 'team', seat: 'web-app#7b02e5d1', ts: '2026-11-30T17:21:01.000+00:00', type: 'ANSWER', re: '2026-11-30T17:21:00.000+00:00', text: 'which one?' });
    const app = await serve();
    const flow = await teamFlow(app);
    const shared = flow.items.filter((item) => item.time === '2026-11-30T17:21:00.000+00:00');
    assert.deepEqual(shared.map((item) => item.sharesTime), [2, 2]);
    const reply = flow.items.find((item) => item.text === 'which one?')!;
    assert.equal(reply.re?.state, 'ambiguous');
    assert.equal(reply.re?.entries.length, 2);
  });

  it('a legacy type word is shown as written, with the type it stands for', async () => {
    await writer.send({ op: 'send', room: 'team', seat: WEB, ts: '2026-11-30T17:22:00.000+00:00', type: 'KÉRDÉS', text: 'régi' });
    const app = await serve();
    const entry = (await teamFlow(app)).items.find((item) => item.text === 'régi')!;
    assert.equal(entry.typeWord, 'KÉRDÉS');
    assert.equal(entry.entryType, 'QUESTION');
  });
});
