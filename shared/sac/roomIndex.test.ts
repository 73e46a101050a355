import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../seededRandom.ts';
import { createRoomIndex, updateRoomIndex, type RoomIndex } from './roomIndex.ts';
import { foldSeat, listSeats, summarizeSeat, type RoomFiles, type SeatSummary } from './seat.ts';
import { createSeatFileReading, noteSeatFileChanged, readSeatFile, type SeatFileReading } from './seatFile.ts';
import { readStoreFiles, type StoreFacts } from './storeFiles.ts';
import { appendedBytes, bytesOf } from './testing/sacWriter.ts';
import { onExampleHost } from './testing/machine.ts';

// A seat's summary (the sidebar's row) comes from its rooms' indexes, kept up to date append by
// append, so that a list of thousands of seats costs the seats and the rooms, not every seat times
// its rooms' entries. It must say what folding the seat says.

const ROOMS = ['team', 'dm', 'ops'];
const SEATS = ['web-app#1', 'web-app#2', 'api#3', 'api', 'docs@mac#4'];
const TIMES = ['2026-11-30T17:18:53.482+00:00', '2026-11-30T17:18:53.482+02:00', '2026-11-30T17:19:00.000-00:00', '2026-11-30T17:18', '2026-11-30T17:20:00.000Z'];
const NOW = Date.parse('2026-11-30T18:00:00.000Z');
const processes = onExampleHost([[1, 'running'], [2, 'exited']]);

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** A seat file as sac writes it, with now and then what a write cut short or a hand leaves. */
function randomFile(random: () => number): string {
  let file = random() < 0.1 ? 'notes by hand\n' : '';
  const count = Math.floor(random() * 7);
  for (let i = 0; i < count; i++) {
    const to = random() < 0.5 ? undefined : [pick(random, [...SEATS, 'web-app', 'api', 'docs', 'someone'])];
    file += appendedBytes(file.length, { ts: pick(random, TIMES).replace('53.482', `5${i}.482`), type: pick(random, ['QUESTION', 'FACT', 'KÉRÉS']), text: `entry ${i}`, ...(to ? { to } : {}) });
    if (random() < 0.08) file = file.slice(0, -Math.floor(1 + random() * 8));
  }
  return file;
}

function randomStore(random: () => number): StoreFacts {
  const json = (value: unknown) => ({ state: 'read' as const, bytes: bytesOf(JSON.stringify(value)) });
  const agents: Record<string, { project?: string; seats: Record<string, unknown> }> = {};
  for (const seat of SEATS) {
    if (random() < 0.2) continue;
    const agent = seat.split(/[#@]/)[0]!;
    (agents[agent] ??= { ...(random() < 0.7 ? { project: `/p/${agent}` } : {}), seats: {} }).seats[seat] = {
      session: `${seat}-session`,
      rooms: ROOMS.filter(() => random() < 0.4),
      writers: { [String(1 + Math.floor(random() * 2))]: '2026-11-30T17:18:53.482+00:00' },
      lastSeen: '2026-11-30T17:18:53.482+00:00',
    };
  }
  const members = Object.fromEntries(SEATS.filter(() => random() < 0.6).map((seat) => [seat, { rooms: ROOMS.filter(() => random() < 0.4), left: ROOMS.filter(() => random() < 0.2) }]));
  const cursors: Record<string, Record<string, string>> = {};
  for (const room of ROOMS) {
    for (const seat of [...SEATS, 'web-app']) {
      if (random() < 0.5) continue;
      cursors[`${room}::${seat}`] = Object.fromEntries(SEATS.filter(() => random() < 0.5).map((writer) => [writer, pick(random, [...TIMES, 'noon'])]));
    }
  }
  const roll = random();
  return readStoreFiles({
    'registry.json': roll < 0.1 ? { state: 'read', bytes: bytesOf('{') } : json({ agents }),
    'members.json': roll > 0.9 ? { state: 'absent' } : json(members),
    'rooms.json': json({ dm: { pair: ['web-app#1', 'api#3'] } }),
    'focus.json': json({ 'web-app#1': { text: 'x', files: [], phase: 'apply', ts: '2026-11-30T17:18:53.482+00:00' } }),
    'presence.json': { state: 'absent' },
    'cursors.json': random() < 0.1 ? { state: 'read', bytes: bytesOf('[') } : random() < 0.1 ? { state: 'absent' } : json(cursors),
  });
}

function randomRooms(random: () => number): RoomFiles[] {
  return ROOMS.filter(() => random() < 0.9).map((room) => ({
    room,
    files: SEATS.filter(() => random() < 0.6).map((seat) => {
      let reading = readSeatFile(createSeatFileReading(room, seat), bytesOf(randomFile(random)), 0, { pendingWindowPassed: random() < 0.3 });
      if (random() < 0.05) reading = noteSeatFileChanged(reading, 'bytes already read are different');
      return reading;
    }),
  }));
}

function indexAll(rooms: readonly RoomFiles[]): Map<string, RoomIndex> {
  return new Map(
    rooms.map((room) => {
      const index = createRoomIndex(room.room);
      updateRoomIndex(index, room.files);
      return [room.room, index];
    }),
  );
}

function summarize(seat: string, rooms: readonly RoomFiles[], indexes: ReadonlyMap<string, RoomIndex>, store: StoreFacts): SeatSummary {
  const withFile = rooms.filter((room) => room.files.some((file) => file.seat === seat)).map((room) => room.room);
  return summarizeSeat(seat, { indexOf: (room) => indexes.get(room) ?? null, roomsWithFileOf: () => withFile }, store, NOW, processes);
}

/** The summary as the seat's fold gives it: what the sidebar showed before there were indexes. */
function summaryByFold(seat: string, rooms: readonly RoomFiles[], store: StoreFacts): Omit<SeatSummary, 'reading'> {
  const view = foldSeat(seat, rooms, store, NOW, processes);
  let last = -Infinity;
  let pending = 0;
  let torn = 0;
  for (const { flow } of [...view.sent, ...view.received]) {
    if (flow.item.type === 'entry' && flow.placedBy === 'time' && flow.place > last) last = flow.place;
  }
  // What is pending or torn is the seat's own: another seat's torn write degrades that seat.
  for (const { flow } of view.sent) {
    if (flow.item.evidence === 'pending') pending++;
    else if (flow.item.evidence === 'damaged') torn++;
  }
  return {
    name: view.name,
    session: view.session,
    project: view.project,
    rooms: view.rooms,
    neverWrote: view.neverWrote,
    focus: view.focus,
    presence: view.presence,
    liveness: view.liveness,
    counts: { ...view.counts, pending, torn },
    lastInstant: Number.isFinite(last) ? last : null,
    degraded: view.degraded,
  };
}

describe('a seat’s summary from its rooms’ indexes', () => {
  it('says what folding the seat says: counts by addressing, unread by sac’s cursor, pending and torn, last entry, degraded', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const random = createSeededRandom(seed);
      const store = randomStore(random);
      const rooms = randomRooms(random);
      const indexes = indexAll(rooms);
      for (const seat of listSeats(rooms, store)) {
        // How far sac's cursor has the seat read, as a word, is the roster's: claimed apart.
        const { reading: _, ...summary } = summarize(seat, rooms, indexes, store);
        assert.deepEqual(summary, summaryByFold(seat, rooms, store), `seed ${seed}, ${seat}`);
      }
    }
  });

  it('one torn write degrades the seat whose file it is, counted once; the other seats of the room are not degraded', () => {
    const store = randomStore(createSeededRandom(3));
    const cut = bytesOf(appendedBytes(0, { ts: TIMES[0]!, type: 'FACT', text: 'entry 0' }) + appendedBytes(1, { ts: TIMES[2]!, type: 'FACT', text: 'Rolling back because p95 went up' }).slice(0, -12));
    const rooms = [{ room: 'team', files: [readSeatFile(createSeatFileReading('team', 'api#3'), cut, 0, { pendingWindowPassed: true }), readSeatFile(createSeatFileReading('team', 'web-app#1'), bytesOf(appendedBytes(0, { ts: TIMES[4]!, type: 'FACT', text: 'fine' })), 0)] }];
    const indexes = indexAll(rooms);
    const writer = summarize('api#3', rooms, indexes, store);
    assert.equal(writer.counts.torn, 1);
    assert.deepEqual(writer.degraded.filter((reason) => reason.code === 'torn-entry').map((reason) => reason.ranges?.length), [1]);
    const other = summarize('web-app#1', rooms, indexes, store);
    assert.equal(other.counts.torn, 0);
    assert.deepEqual(other.degraded.filter((reason) => reason.code === 'torn-entry'), []);
  });

  it('a seat whose session is gone is not behind: its summary says its backlog apart, as the room’s roster does, and a live one’s unread is unread', () => {
    const json = (value: unknown) => ({ state: 'read' as const, bytes: bytesOf(JSON.stringify(value)) });
    const seat = (pid: number) => ({ session: `s${pid}`, rooms: ['team'], writers: { [String(pid)]: '2026-11-30T17:00:00.000+00:00' }, lastSeen: '2026-11-30T17:00:00.000+00:00' });
    const store = readStoreFiles({
      'registry.json': json({ agents: { api: { seats: { 'api#3': seat(2) } }, 'web-app': { seats: { 'web-app#1': seat(1) } } } }),
      'members.json': { state: 'absent' },
      'rooms.json': { state: 'absent' },
      'focus.json': { state: 'absent' },
      'presence.json': { state: 'absent' },
      'cursors.json': json({ 'team::web-app#1': {} }),
    });
    const entries = (...texts: string[]) => bytesOf(texts.map((text, i) => appendedBytes(i, { ts: TIMES[i]!, type: 'FACT', text })).join(''));
    const rooms = [{ room: 'team', files: [readSeatFile(createSeatFileReading('team', 'api#3'), entries('a', 'b'), 0), readSeatFile(createSeatFileReading('team', 'web-app#1'), entries('c', 'd', 'e'), 0)] }];
    const indexes = indexAll(rooms);
    const gone = summarize('api#3', rooms, indexes, store);
    assert.equal(gone.liveness.word, 'gone');
    assert.deepEqual(gone.reading, { state: 'gone', backlog: 3 });
    assert.deepEqual(summarize('web-app#1', rooms, indexes, store).reading, { state: 'behind', unread: 2 });
  });

  it('an index kept up to date as its files grow, append by append, is the index of the files read at once', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = createSeededRandom(seed);
      const store = randomStore(random);
      const files = SEATS.map((seat) => ({ seat, bytes: bytesOf(randomFile(random)), reading: createSeatFileReading('team', seat) }));
      const index = createRoomIndex('team');
      for (let step = 0; step < 12; step++) {
        for (const file of files) {
          if (random() < 0.5) continue;
          const cut = Math.min(file.bytes.length, file.reading.size + Math.floor(random() * 60));
          file.reading = readSeatFile(file.reading, file.bytes.subarray(file.reading.offset, cut), file.reading.offset, { pendingWindowPassed: random() < 0.1 });
        }
        const readings: SeatFileReading[] = files.map((file) => file.reading);
        updateRoomIndex(index, readings);
        const rooms = [{ room: 'team', files: readings }];
        const fresh = indexAll(rooms);
        for (const seat of SEATS) assert.deepEqual(summarize(seat, rooms, new Map([['team', index]]), store), summarize(seat, rooms, fresh, store), `seed ${seed}, step ${step}, ${seat}`);
      }
    }
  });

  it('an index is changed only by files that changed: the same files leave its version as it was', () => {
    const rooms = randomRooms(createSeededRandom(5));
    const room = rooms[0]!;
    const index = createRoomIndex(room.room);
    assert.equal(updateRoomIndex(index, room.files), true);
    const version = index.version;
    assert.equal(updateRoomIndex(index, room.files), false);
    assert.equal(index.version, version);
    assert.equal(updateRoomIndex(index, room.files.slice(1)), true);
    assert.ok(index.version > version);
  });
});
