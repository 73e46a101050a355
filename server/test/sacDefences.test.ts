import assert from 'node:assert/strict';
import { linkSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { PendingWindow } from '../../shared/evidence.ts';
import { sacRoomResponseSchema, sacRoomsResponseSchema, sacSeatResponseSchema, sacSeatSummarySchema } from '../../shared/wire/sac.ts';
import { sessionsResponseSchema } from '../../shared/wire/conversations.ts';
import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { TEST_PENDING_WINDOW_MS, eventually, makeTempRecord } from './harness.ts';
import { getBody, seatUrl, startSacApp, writeExampleStore, type SacTestApp } from './sacApp.ts';

// What the sac reader must not do, whatever the store holds: read a secret under another name,
// lose a store that went away and came back, wait on a clock a file's mtime sets, drop a name that
// is not UTF-8, or let a room that became a link vanish without a word.

const WEB = 'web-app#3f9c1a20';
const API = 'api-service#c4e10000';
const TEAM = 'channels/team';
const SECRET = 'CANARY-relay-secret-hardlink-71d2';
const LATER_SECRET = 'CANARY-relay-secret-rewritten-0b9e';

let store: { dir: string; remove(): void };
let writer: SacWriter;
let served: SacTestApp | null = null;
let bodies: string[] = [];

beforeEach(async () => {
  store = makeTempRecord('sac-defences-');
  writer = await startSacWriter(store.dir);
  await writeExampleStore(writer);
  bodies = [];
});
afterEach(async () => {
  await served?.close();
  served = null;
  await writer.close();
  rmSync(`${store.dir}.away`, { recursive: true, force: true });
  store.remove();
});

async function serve(options: PendingWindow = {}): Promise<SacTestApp> {
  served = await startSacApp(store.dir, options);
  return served;
}

async function take(app: SacTestApp, url: string) {
  const body = await getBody(app.app, url);
  bodies.push(body.text);
  return body;
}

async function seatsOf(app: SacTestApp) {
  const list = sessionsResponseSchema.parse((await take(app, '/api/sessions')).json);
  return list.projects.flatMap((project) => project.sessions.map((json) => sacSeatSummarySchema.parse(json)));
}

async function strays(app: SacTestApp): Promise<string[]> {
  return sessionsResponseSchema.parse((await take(app, '/api/sessions')).json).sources.flatMap((source) => source.strays);
}

/** Every seat's page and items, every room, and a search: what a client can be served. */
async function fetchEverything(app: SacTestApp): Promise<void> {
  for (const seat of await seatsOf(app)) {
    const page = sacSeatResponseSchema.parse((await take(app, seatUrl(seat.seat, '?others=1'))).json);
    for (const item of [...page.sent, ...page.received]) await take(app, `${seatUrl(seat.seat)}/items/${encodeURIComponent(item.item)}`);
  }
  const rooms = sacRoomsResponseSchema.parse((await take(app, `/api/sac/rooms?source=${app.source.ref.id}`)).json);
  for (const room of rooms.rooms) await take(app, `/api/sac/rooms/${encodeURIComponent(room.room)}?source=${app.source.ref.id}`);
  await take(app, '/api/search?q=CANARY');
}

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

describe('secrets, known by device and inode', () => {
  it('a seat file hard-linked to relays.json is never read, and its seat says a file was withheld, and why', async () => {
    await writer.send({ op: 'json', name: 'relays.json', value: { relay: 'https://comm.example.com', secret: SECRET } });
    linkSync(join(store.dir, 'relays.json'), join(store.dir, TEAM, 'mallory#00000001.md'));
    const app = await serve();
    await fetchEverything(app);
    const mallory = (await seatsOf(app)).find((seat) => seat.seat === 'mallory#00000001');
    assert.ok(mallory, 'the seat is listed');
    const withheld = mallory.degraded.find((reason) => reason.code === 'withheld');
    assert.ok(withheld, JSON.stringify(mallory.degraded));
    assert.deepEqual(withheld.files, [`${TEAM}/mallory#00000001.md`]);
    assert.match(withheld.words, /withheld/);
    assert.match(withheld.words, /same file .* as a secret/);
    const room = sacRoomResponseSchema.parse((await take(app, `/api/sac/rooms/team?source=${app.source.ref.id}`)).json);
    assert.ok(room.room.degraded.some((reason) => reason.code === 'withheld'), 'the room says so too');
    const all = bodies.join('\n');
    assert.ok(!all.includes(SECRET), 'the secret was served');
    assert.ok(!/relays\.json|http-tokens/i.test(all), 'a secret’s name was served');
  });

  it('a secret rewritten while the store is watched is known by its new inode: a hard link made to it then is withheld too', async () => {
    const app = await serve();
    await writer.send({ op: 'json', name: 'http-tokens.json', value: { 'web-app': { token: LATER_SECRET } } });
    linkSync(join(store.dir, 'http-tokens.json'), join(store.dir, TEAM, 'mallory#00000002.md'));
    const mallory = await eventually(async () => (await seatsOf(app)).find((seat) => seat.seat === 'mallory#00000002'), 'the linked seat file');
    assert.ok(mallory.degraded.some((reason) => reason.code === 'withheld'), JSON.stringify(mallory.degraded));
    // sac writes it again (a new inode): the link still names the old one, which was a secret when it was seen.
    await writer.send({ op: 'json', name: 'http-tokens.json', value: { 'web-app': { token: 'rotated' } } });
    await writer.send({ op: 'send', room: 'team', seat: WEB, ts: '2026-11-30T17:30:00.000+00:00', type: 'FACT', text: 'a later entry' });
    await eventually(async () => ((await seatsOf(app)).find((seat) => seat.seat === WEB)?.counts.sent === 2 ? true : undefined), 'the later entry');
    await fetchEverything(app);
    assert.ok(!bodies.join('\n').includes(LATER_SECRET), 'the secret was served');
  });
});

describe('a seat file under another name', () => {
  const teamOf = async (app: SacTestApp) => sacRoomResponseSchema.parse((await take(app, `/api/sac/rooms/team?source=${app.source.ref.id}`)).json).room;

  it('a seat file moved to another name is withheld there, saying whose file it is: no new sender, no entry counted twice', async () => {
    const app = await serve();
    const before = await teamOf(app);
    renameSync(join(store.dir, TEAM, `${WEB}.md`), join(store.dir, TEAM, 'web-app#99999999.md'));
    const moved = await eventually(async () => (await seatsOf(app)).find((seat) => seat.seat === 'web-app#99999999' && seat.degraded.some((reason) => reason.code === 'withheld' && reason.files.includes(`${TEAM}/web-app#99999999.md`))), 'the file under its new name, withheld');
    const withheld = moved.degraded.find((reason) => reason.code === 'withheld');
    assert.ok(withheld, JSON.stringify(moved.degraded));
    assert.match(withheld.words, new RegExp(`same file .* as ${TEAM}/${WEB.replace('#', '#')}\\.md`));
    assert.equal(moved.counts.sent, 0, 'its entries are not a new sender’s');
    assert.equal((await teamOf(app)).entries, before.entries, 'no entry counted twice');
  });

  it('two names of one seat file at a first scan (a hard link) are read once, under the first name read', async () => {
    linkSync(join(store.dir, TEAM, `${API}.md`), join(store.dir, TEAM, 'api-service#99999999.md'));
    const app = await serve();
    const seats = await seatsOf(app);
    const names = [API, 'api-service#99999999'].map((name) => seats.find((seat) => seat.seat === name)!);
    const read = names.filter((seat) => seat.counts.sent > 0);
    const withheld = names.filter((seat) => seat.degraded.some((reason) => reason.code === 'withheld' && reason.files.includes(`${TEAM}/${seat.seat}.md`)));
    assert.equal(read.length, 1, JSON.stringify(names.map((seat) => [seat.seat, seat.counts, seat.degraded])));
    assert.equal(withheld.length, 1);
    assert.notEqual(read[0]!.seat, withheld[0]!.seat);
  });
});

describe('a store that goes away and comes back', () => {
  it('a store moved away and back is read again within a second of its return, with the entries appended since', async () => {
    const app = await serve();
    renameSync(store.dir, `${store.dir}.away`);
    await eventually(() => (app.source.status().state === 'missing' ? true : undefined), 'the store to be missing');
    renameSync(`${store.dir}.away`, store.dir);
    await writer.send({ op: 'send', room: 'team', seat: WEB, ts: '2026-11-30T17:30:00.000+00:00', type: 'FACT', text: 'after it came back' });
    await eventually(async () => ((await seatsOf(app)).find((seat) => seat.seat === WEB)?.counts.sent === 2 ? true : undefined), 'the seat and its new entry', 5_000);
    await writer.send({ op: 'send', room: 'team', seat: WEB, ts: '2026-11-30T17:30:01.000+00:00', type: 'FACT', text: 'and later still' });
    await eventually(async () => ((await seatsOf(app)).find((seat) => seat.seat === WEB)?.counts.sent === 3 ? true : undefined), 'an entry appended once it is back');
  });

  it('a store deleted and made again is read again within a second, as the new store it is', async () => {
    const app = await serve();
    rmSync(store.dir, { recursive: true, force: true });
    await eventually(async () => ((await seatsOf(app)).length === 0 ? true : undefined), 'the old store gone');
    await writer.send({ op: 'send', room: 'fresh', seat: 'newcomer#11111111', ts: '2026-11-30T17:30:00.000+00:00', type: 'FACT', text: 'in the new store' });
    await eventually(async () => ((await seatsOf(app)).find((seat) => seat.seat === 'newcomer#11111111')?.counts.sent === 1 ? true : undefined), 'the new store', 5_000);
    await writer.send({ op: 'send', room: 'fresh', seat: 'newcomer#11111111', ts: '2026-11-30T17:30:01.000+00:00', type: 'FACT', text: 'appended to the new store' });
    await eventually(async () => ((await seatsOf(app)).find((seat) => seat.seat === 'newcomer#11111111')?.counts.sent === 2 ? true : undefined), 'an entry appended to the new store');
  });
});

describe('pending, timed from the first look', () => {
  it('a torn tail whose mtime is in the future turns torn one pending window after the reader first saw it', async () => {
    await writer.send({ op: 'send', room: 'team', seat: WEB, ts: '2026-11-30T17:19:40.000+00:00', type: 'QUESTION', text: 'will this ever', stopAfterBytes: 50 });
    // A clock set wrong: the file says it was written an hour from now.
    await writer.send({ op: 'raw', path: `${TEAM}/${WEB}.md`, bytes: '', append: true, mtime: new Date(Date.now() + 3_600_000).toISOString() });
    const app = await serve({ pendingWindowMs: TEST_PENDING_WINDOW_MS });
    const flow = async () => sacRoomResponseSchema.parse((await take(app, `/api/sac/rooms/team?source=${app.source.ref.id}`)).json);
    assert.ok((await flow()).room.pending > 0);
    const torn = await eventually(async () => {
      const now = await flow();
      return now.room.torn > 0 ? now : undefined;
    }, 'the tail to turn torn', TEST_PENDING_WINDOW_MS + 5_000);
    assert.equal(torn.room.pending, 0);
  });
});

describe('names that are not UTF-8', () => {
  it('a room folder and a seat file whose names are not UTF-8 are listed with their bytes escaped, each with why it is not read', async () => {
    const channels = Buffer.from(join(store.dir, 'channels/'));
    const badRoom = Buffer.concat([channels, Buffer.from('room-'), Buffer.from([0xff])]);
    mkdirSync(badRoom);
    writeFileSync(Buffer.concat([badRoom, Buffer.from(`/${WEB}.md`)]), '## 2026-11-30T17:19:00.000+00:00 — FACT\nin an odd room\n');
    writeFileSync(Buffer.concat([channels, Buffer.from('team/x'), Buffer.from([0xfe]), Buffer.from('.md')]), '## 2026-11-30T17:19:00.000+00:00 — FACT\nan odd seat\n');
    const app = await serve();
    assert.ok((await strays(app)).includes('channels/room-\\xff'), `the room folder is listed: ${JSON.stringify(await strays(app))}`);
    const odd = (await seatsOf(app)).find((seat) => seat.seat === 'x\\xfe');
    assert.ok(odd, 'the seat file is listed with its bytes escaped');
    assert.match(odd.degraded.map((reason) => reason.words).join(' '), /not valid UTF-8/);
    assert.ok(!bodies.some((text) => text.includes('\ufffd')), 'no name is shown with replacement characters');
  });
});

describe('a room that changes after it was read', () => {
  it('a room folder swapped for a link after it was read stays, its files changed after reading, and the link is not followed', async () => {
    const app = await serve();
    assert.ok((await seatsOf(app)).find((seat) => seat.seat === WEB)?.counts.sent === 1);
    const elsewhere = makeTempRecord('sac-elsewhere-');
    try {
      mkdirSync(join(elsewhere.dir, 'team'));
      writeFileSync(join(elsewhere.dir, 'team', `${WEB}.md`), '## 2026-11-30T17:19:00.000+00:00 — FACT\nOUTSIDE-THE-STORE-3f3f\n');
      rmSync(join(store.dir, TEAM), { recursive: true });
      symlinkSync(join(elsewhere.dir, 'team'), join(store.dir, TEAM));
      const web = await eventually(async () => {
        const seat = (await seatsOf(app)).find((candidate) => candidate.seat === WEB);
        return seat?.degraded.some((reason) => reason.code === 'changed-after-read') ? seat : undefined;
      }, 'the room changed after reading');
      assert.equal(web.counts.sent, 1, 'what was read is kept');
      const rooms = sacRoomsResponseSchema.parse((await take(app, `/api/sac/rooms?source=${app.source.ref.id}`)).json);
      assert.ok(rooms.rooms.some((room) => room.room === 'team' && room.changed > 0), 'the room is still listed, and says so');
      await fetchEverything(app);
      assert.ok(!bodies.join('\n').includes('OUTSIDE-THE-STORE'), 'the link is not followed');
    } finally {
      elsewhere.remove();
    }
  });
});

describe('the store files', () => {
  it('a store file rewritten as sac writes it is read again, and the last one is what is shown', async () => {
    const app = await serve();
    for (let i = 0; i < 20; i++) await writer.send({ op: 'json', name: 'registry.json', value: { agents: { 'web-app': { project: `/p/web-${i}`, seats: { [WEB]: { session: `session-${i}` } } } } } });
    await eventually(async () => {
      const web = (await seatsOf(app)).find((seat) => seat.seat === WEB);
      return web?.session.state === 'known' && web.session.session === 'session-19' ? true : undefined;
    }, 'the last registry');
    await writer.send({ op: 'raw', path: 'members.json', bytes: b64('{"broken": ') });
    await eventually(async () => ((await seatsOf(app)).find((seat) => seat.seat === API)?.degraded.some((reason) => reason.code === 'corrupt-store-file') ? true : undefined), 'the corrupt members.json');
  });
});
