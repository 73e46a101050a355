import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldRoom } from './room.ts';
import { foldSeat, groupSeatsByProject, listSeats, resolveProject, findSeatRooms, resolveSession, type RoomFiles, type SeatView } from './seat.ts';
import { createSeatFileReading, noteSeatFileUnreadable, readSeatFile } from './seatFile.ts';
import { readExampleFacts } from './testing/exampleFacts.ts';
import { EXAMPLE_STORE } from './testing/exampleStore.ts';
import { bytesOf, writtenFile, type AppendedEntry } from './testing/sacWriter.ts';
import { onExampleHost } from './testing/machine.ts';

const API = 'api-service#c4e10000';
const WEB = 'web-app#3f9c1a20';
const SIBLING = 'web-app#7b02e5d1';
const NOW = Date.parse('2026-11-30T17:20:00.000+00:00');
const none = onExampleHost();

const store = readExampleFacts;

function file(room: string, seat: string, bytes: Uint8Array) {
  return readSeatFile(createSeatFileReading(room, seat), bytes, 0);
}

function team(...more: ReturnType<typeof file>[]): RoomFiles {
  return {
    room: 'team',
    files: [file('team', API, bytesOf(EXAMPLE_STORE[`channels/team/${API}.md`]!)), file('team', WEB, bytesOf(EXAMPLE_STORE[`channels/team/${WEB}.md`]!)), ...more],
  };
}

const summary = (view: SeatView, list: 'sent' | 'received') =>
  view[list].map((item) => {
    const flow = item.flow;
    const time = flow.item.type === 'entry' ? flow.item.facts.time.slice(17, 23) : flow.item.type;
    return 'addressing' in item ? `${item.room} ${flow.seat} ${time} ${item.addressing} ${item.sacCursor}` : `${item.room} ${time}`;
  });

const entry = (ts: string, extra: Partial<AppendedEntry> = {}): AppendedEntry => ({ ts, type: 'FACT', text: 'x', ...extra });

describe('a seat’s Sent | Received', () => {
  it('Sent is the seat’s own entries in every room, in time order', () => {
    const design = { room: 'design', files: [file('design', API, writtenFile([entry('2026-11-30T17:18:53.700+00:00')]))] };
    const view = foldSeat(API, [team(), design], store(), NOW, none);
    assert.deepEqual(summary(view, 'sent'), ['team 53.482', 'team 53.590', 'design 53.700', 'team 53.956']);
    assert.equal(view.counts.sent, 4);
  });

  it('Received is the other writers’ entries in its rooms, each marked to the seat, to its agent, to everyone, or to someone else', () => {
    const view = foldSeat(WEB, [team()], store(), NOW, none);
    assert.deepEqual(summary(view, 'received'), [
      `team ${API} 53.482 to-agent read`,
      `team ${API} 53.590 to-everyone read`,
      `team ${API} 53.956 to-seat unread`,
    ]);
    assert.deepEqual(summary(view, 'sent'), ['team 53.872']);
    assert.deepEqual(view.counts, { sent: 1, received: 3, toSeat: 1, toAgent: 1, toEveryone: 1, toOthers: 0, unread: 1 });
  });

  it('a sibling seat of the same agent is another writer: what it sent is received, marked as a sibling’s', () => {
    const view = foldSeat(SIBLING, [team()], store(), NOW, none);
    assert.deepEqual(summary(view, 'received'), [
      `team ${API} 53.482 to-agent unread`,
      `team ${API} 53.590 to-everyone unread`,
      `team ${WEB} 53.872 to-others unread`,
      `team ${API} 53.956 to-others unread`,
    ]);
    assert.deepEqual(
      view.received.map((item) => item.sibling),
      [false, false, true, false],
    );
  });

  it('a seat folded with a shell’s room folds is the seat folded with its own, and folds each room through it', () => {
    const rooms = [team()];
    const asked: string[] = [];
    const viaShell = foldSeat(WEB, rooms, store(), NOW, none, (room, files, roomsJson) => {
      asked.push(room);
      return foldRoom(room, files, roomsJson);
    });
    assert.deepEqual(viaShell, foldSeat(WEB, rooms, store(), NOW, none));
    assert.deepEqual(asked, ['dm-api-service-c4e10000-web-app-3f9c1a20', 'team']);
  });

  it('a seat belongs to the rooms members.json and the registry name, and to any room holding its file, each with why', () => {
    const other = { room: 'ops', files: [file('ops', SIBLING, new Uint8Array(0))] };
    const rooms = findSeatRooms(SIBLING, [team(), other], store());
    assert.deepEqual(
      rooms.map((room) => [room.room, room.because]),
      [
        ['ops', ['file']],
        ['team', ['members', 'registry']],
      ],
    );
    assert.deepEqual(
      findSeatRooms(WEB, [team()], store()).map((room) => [room.room, room.because, room.kind.kind]),
      [
        ['dm-api-service-c4e10000-web-app-3f9c1a20', ['members', 'registry'], 'pair'],
        ['team', ['members', 'registry', 'file'], 'room'],
      ],
    );
  });

  it('a room the seat left is still listed as one it was in, marked left', () => {
    const members = '{"web-app#7b02e5d1": {"rooms": [], "left": ["team"]}}';
    const rooms = findSeatRooms(SIBLING, [team()], store({ 'members.json': members }));
    assert.deepEqual(
      rooms.map((room) => [room.room, room.because, room.left]),
      [['team', ['registry'], true]],
    );
  });

  it('a seat that joined and never wrote has an empty file, and says so', () => {
    const view = foldSeat(SIBLING, [team(file('team', SIBLING, new Uint8Array(0)))], store(), NOW, none);
    assert.equal(view.neverWrote, true);
    assert.deepEqual(view.sent, []);
    assert.equal(foldSeat(WEB, [team()], store(), NOW, none).neverWrote, false);
  });

  it('another seat’s torn write in the room is received in place, as unknown evidence with no addressing; it degrades the seat whose file it is, not this one', () => {
    const torn = readSeatFile(createSeatFileReading('team', 'ops#1'), bytesOf('## 2026-11-30T17:18:53.9'), 0, { pendingWindowPassed: true });
    const view = foldSeat(WEB, [team(torn)], store(), NOW, none);
    const last = view.received.at(-1)!;
    assert.equal(last.flow.item.type, 'tail');
    assert.equal(last.flow.item.evidence, 'damaged');
    assert.equal(last.addressing, null);
    assert.deepEqual(view.degraded, []);
    assert.deepEqual(
      foldSeat('ops#1', [team(torn)], store(), NOW, none).degraded.map((reason) => [reason.code, reason.files]),
      [['torn-entry', ['channels/team/ops#1.md']]],
    );
  });

  it('a file another seat’s page cannot read in full still degrades every seat that receives from it: what it holds is unknown', () => {
    const unreadable = noteSeatFileUnreadable(readSeatFile(createSeatFileReading('team', 'ops#1'), bytesOf(''), 0), 'EACCES');
    assert.deepEqual(
      foldSeat(WEB, [team(unreadable)], store(), NOW, none).degraded.map((reason) => [reason.code, reason.files]),
      [['unreadable', ['channels/team/ops#1.md']]],
    );
  });
});

describe('read or unread, as sac’s cursor says', () => {
  it('with cursors.json unknown, every received entry’s cursor is unknown, and the seat says why', () => {
    const view = foldSeat(WEB, [team()], store({ 'cursors.json': '{"team::' }), NOW, none);
    assert.ok(view.received.every((item) => item.sacCursor === 'unknown'));
    assert.equal(view.counts.unread, 0);
    assert.deepEqual(view.degraded, [{ code: 'corrupt-store-file', files: ['cursors.json'] }]);
  });

  it('with no cursors.json, nothing is marked read: sac delivers it all as unread', () => {
    const view = foldSeat(WEB, [team()], store({ 'cursors.json': null }), NOW, none);
    assert.ok(view.received.every((item) => item.sacCursor === 'unread'));
  });

  it('a seat with no cursor of its own reads by its agent’s bare cursor, as sac’s inbox does', () => {
    const cursors = '{"team::web-app": {"api-service#c4e10000": "2026-11-30T17:18:53.956+00:00"}}';
    const view = foldSeat(WEB, [team()], store({ 'cursors.json': cursors }), NOW, none);
    assert.ok(view.received.every((item) => item.sacCursor === 'read'));
  });

  it('a seat whose session is gone has no unread: what is past its cursor is its backlog, entry by entry, as its rooms say of it', () => {
    // Its writer's process exited, and it last checked in more than half an hour before.
    const later = NOW + 3_600_000;
    const view = foldSeat(WEB, [team()], store({ 'cursors.json': null }), later, onExampleHost([[8690, 'exited']]));
    assert.equal(view.liveness.word, 'gone');
    assert.ok(view.received.length > 0);
    assert.ok(view.received.every((item) => item.sacCursor === 'backlog'));
    // Counted past its cursor all the same: the seat's reading calls that count its backlog.
    assert.equal(view.counts.unread, view.received.length);
    const live = foldSeat(WEB, [team()], store({ 'cursors.json': null }), later, onExampleHost([[8690, 'running']]));
    assert.ok(live.received.every((item) => item.sacCursor === 'unread'));
  });

  it('a cursor time that names no instant leaves read or unread unknown', () => {
    const cursors = '{"team::web-app#3f9c1a20": {"api-service#c4e10000": "noon"}}';
    const view = foldSeat(WEB, [team()], store({ 'cursors.json': cursors }), NOW, none);
    assert.ok(view.received.every((item) => item.sacCursor === 'unknown'));
  });
});

describe('a seat’s session, project, focus, presence and liveness', () => {
  it('the session is the registry’s full id; a seat the registry does not hold has none, whatever its name says', () => {
    assert.deepEqual(resolveSession(WEB, store().registry), { state: 'known', session: '3f9c1a20-1111-2222-3333-444455556666' });
    const unknown = resolveSession('web-app#99999999', store().registry);
    assert.equal(unknown.state, 'unknown');
    assert.match(unknown.state === 'unknown' ? unknown.why : '', /prefix and joins nothing/);
  });

  it('a seat’s project is its agent’s project in the registry, else the agent name', () => {
    assert.deepEqual(resolveProject(SIBLING, store().registry), { project: '/home/dev/projects/web-app', from: 'registry' });
    assert.deepEqual(resolveProject('docs@macmini#12345678', store().registry), { project: 'docs', from: 'agent-name' });
    assert.deepEqual(resolveProject(WEB, store({ 'registry.json': '{' }).registry), { project: 'web-app', from: 'agent-name' });
  });

  it('seats are grouped by project', () => {
    const seats = listSeats([team()], store());
    assert.deepEqual(seats, [API, WEB, SIBLING]);
    assert.deepEqual(groupSeatsByProject([...seats, 'docs#1'], store().registry), [
      { project: '/home/dev/projects/api-service', from: 'registry', seats: [API] },
      { project: '/home/dev/projects/web-app', from: 'registry', seats: [WEB, SIBLING] },
      { project: 'docs', from: 'agent-name', seats: ['docs#1'] },
    ]);
  });

  it('the seat view carries focus, quiet presence and derived liveness', () => {
    const web = foldSeat(WEB, [team()], store(), NOW, onExampleHost([[8690, 'running']]));
    assert.equal(web.focus.state === 'declared' && web.focus.phase, 'apply');
    assert.equal(web.liveness.word, 'live');
    assert.equal(web.liveness.basis, 'derived');
    const sibling = foldSeat(SIBLING, [team()], store(), NOW, none);
    assert.equal(sibling.presence.state, 'quiet');
    assert.equal(sibling.liveness.word, 'unknown');
  });

  it('what the seat rests on that cannot be read is said, file by file', () => {
    const view = foldSeat(WEB, [team()], store({ 'registry.json': '[', 'focus.json': '{"web-app#3f9c1a20": {"text": 1, "ts": "x"}}' }), NOW, none);
    assert.deepEqual(view.degraded, [
      { code: 'corrupt-store-file', files: ['registry.json'] },
      { code: 'invalid-store-record', files: ['focus.json'] },
    ]);
    assert.equal(view.session.state, 'unknown');
    assert.equal(view.liveness.word, 'unknown');
    assert.equal(view.focus.state, 'unknown');
  });
});
