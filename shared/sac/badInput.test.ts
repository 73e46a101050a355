import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../seededRandom.ts';
import { collectDegraded, describeReason } from './degraded.ts';
import { STORE_FILES, type StoreFileName } from './layout.ts';
import { foldRoom } from './room.ts';
import { foldSeat, listSeats, type RoomFiles } from './seat.ts';
import { createSeatFileReading, noteSeatFileChanged, readSeatFile } from './seatFile.ts';
import { readStoreFiles, type StoreFileInput } from './storeFiles.ts';
import { bytesOf } from './testing/sacWriter.ts';
import { onExampleHost } from './testing/machine.ts';

// Bad input is an outcome, never a crash: whatever bytes a store holds, the core answers.

const PIECES = [
  '## 2026-11-30T17:18:53.482+00:00 — FACT',
  '## 2026-11-30T17:18 — KÉRÉS → a#1, b (re: 2026-11-30T17:18:53.482+00:00)',
  '## 9999-99-99T99:99:99.999+99:99 — ANSWER → (re: )',
  '\n',
  '\r\n',
  ' ',
  '\uFEFF',
  '🙂',
  '{"agents": {"a": {"seats": {"a#1": {"writers": {"1": 5}, "rooms": ["team"], "lastSeen": "x"}}}}}',
  '{"team::a#1": {"b#2": 7}}',
  '{"__proto__": {"rooms": ["team"], "left": null}}',
  '[',
  '{}',
  'null',
];

function randomBytes(random: () => number): Uint8Array {
  const parts: number[] = [];
  const count = Math.floor(random() * 12);
  for (let i = 0; i < count; i++) {
    if (random() < 0.2) parts.push(Math.floor(random() * 256));
    else parts.push(...bytesOf(PIECES[Math.floor(random() * PIECES.length)]!));
  }
  return new Uint8Array(parts);
}

describe('bad input is an outcome, never a crash', () => {
  it('random bytes in seat files and store files fold into rooms and seats without throwing', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = createSeededRandom(seed);
      const inputs = Object.fromEntries(
        STORE_FILES.map((file) => [file, random() < 0.2 ? { state: 'absent' } : { state: 'read', bytes: randomBytes(random) }]),
      ) as Record<StoreFileName, StoreFileInput>;
      const store = readStoreFiles(inputs);
      const rooms: RoomFiles[] = ['team', 'dm'].map((room) => ({
        room,
        files: ['a#1', 'b#2', 'b'].map((seat) => {
          const bytes = randomBytes(random);
          let reading = readSeatFile(createSeatFileReading(room, seat), bytes.subarray(0, Math.floor(random() * bytes.length)), 0);
          reading = readSeatFile(reading, bytes.subarray(reading.offset), reading.offset, { pendingWindowPassed: random() < 0.5 });
          return random() < 0.1 ? noteSeatFileChanged(reading, 'bytes already read are different') : reading;
        }),
      }));
      const now = random() * 4e12;
      for (const room of rooms) {
        const fold = foldRoom(room.room, room.files, store.rooms);
        // Every stretch of every file has its place in the flow, none dropped or doubled.
        assert.equal(fold.items.length, room.files.reduce((sum, file) => sum + file.items.length, 0), `seed ${seed}`);
      }
      for (const seat of listSeats(rooms, store)) {
        const view = foldSeat(seat, rooms, store, now, onExampleHost([[1, 'running']]));
        assert.ok(['live', 'unknown', 'gone'].includes(view.liveness.word), `seed ${seed}`);
      }
      for (const words of collectDegraded(rooms.flatMap((room) => room.files), store).map(describeReason)) assert.ok(words.length > 0, `seed ${seed}`);
    }
  });

  it('JSON nested past any depth sac writes reads as a record not as sac writes it', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const store = readStoreFiles({
      'registry.json': { state: 'read', bytes: bytesOf(`{"agents": {"a": ${deep}}}`) },
      'members.json': { state: 'read', bytes: bytesOf(`{"a#1": ${deep}}`) },
      'rooms.json': { state: 'read', bytes: bytesOf(`{"dm": {"pair": ${deep}}}`) },
      'focus.json': { state: 'read', bytes: bytesOf(deep) },
      'presence.json': { state: 'absent' },
      'cursors.json': { state: 'read', bytes: bytesOf(`{"team::a#1": {"b": ${deep}}}`) },
    });
    assert.equal(store.registry.state === 'read' && store.registry.invalid.length, 1);
    assert.equal(store.members.state === 'read' && store.members.invalid.length, 1);
    assert.equal(store.rooms.state === 'read' && store.rooms.facts.rooms[0]!.pair, null);
    assert.equal(store.focus.state, 'unknown');
    assert.equal(store.cursors.state === 'read' && store.cursors.invalid.length, 1);
  });
});
