import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../seededRandom.ts';
import { findEntry, foldRoom, mergeByPlace, type RoomFold } from './room.ts';
import { createRoomIndex, updateRoomIndex } from './roomIndex.ts';
import { createSeatFileReading, readSeatFile, type SeatFileReading } from './seatFile.ts';
import { readRooms, type StoreFileInput } from './storeFiles.ts';
import { EXAMPLE_STORE } from './testing/exampleStore.ts';
import { bytesOf, writtenFile, type AppendedEntry } from './testing/sacWriter.ts';

const API = 'api-service#c4e10000';
const WEB = 'web-app#3f9c1a20';
const noRooms = readRooms({ state: 'absent' });

function seatFile(seat: string, bytes: Uint8Array, room = 'team', pendingWindowPassed = false): SeatFileReading {
  return readSeatFile(createSeatFileReading(room, seat), bytes, 0, { pendingWindowPassed });
}

function exampleTeam(): SeatFileReading[] {
  return [seatFile(WEB, bytesOf(EXAMPLE_STORE[`channels/team/${WEB}.md`]!)), seatFile(API, bytesOf(EXAMPLE_STORE[`channels/team/${API}.md`]!))];
}

/** A flow as (seat, time or item type) pairs: what the order test compares. */
function order(fold: RoomFold): string[] {
  return fold.items.map((flow) => `${flow.seat} ${flow.item.type === 'entry' ? flow.item.facts.time : flow.item.type}`);
}

const entry = (ts: string, text = 'x', extra: Partial<AppendedEntry> = {}): AppendedEntry => ({ ts, type: 'FACT', text, ...extra });

describe('a room’s flow', () => {
  it('every entry of every file of the room, by the instant its header names', () => {
    const fold = foldRoom('team', exampleTeam(), noRooms);
    assert.deepEqual(order(fold), [
      `${API} 2026-11-30T17:18:53.482+00:00`,
      `${API} 2026-11-30T17:18:53.590+00:00`,
      `${WEB} 2026-11-30T17:18:53.872+00:00`,
      `${API} 2026-11-30T17:18:53.956+00:00`,
    ]);
    assert.deepEqual(fold.seats, [API, WEB]);
    assert.equal(fold.counts.entries, 4);
    assert.deepEqual(fold.degraded, []);
  });

  it('a reply links to the entry with exactly the time it names', () => {
    const fold = foldRoom('team', exampleTeam(), noRooms);
    const answer = fold.items[2]!;
    assert.deepEqual(answer.re, { state: 'resolved', entries: [{ seat: API, start: 0 }] });
    const question = findEntry(fold, answer.re!.entries[0]!);
    assert.equal(question?.item.facts.type, 'QUESTION');
    assert.equal(fold.items[0]!.re, null);
  });

  it('a re that several entries’ time matches is ambiguous, and links them all', () => {
    const t = '2026-11-30T17:18:53.482+00:00';
    const fold = foldRoom(
      'team',
      [
        seatFile('a#1', writtenFile([entry(t)])),
        seatFile('b#2', writtenFile([entry(t)])),
        seatFile('c#3', writtenFile([entry('2026-11-30T17:19:00.000+00:00', 'answer', { type: 'ANSWER', re: t })])),
      ],
      noRooms,
    );
    assert.deepEqual(fold.items[2]!.re, { state: 'ambiguous', entries: [{ seat: 'a#1', start: 0 }, { seat: 'b#2', start: 0 }] });
  });

  it('a re naming a time no entry of the room has is unresolved', () => {
    const fold = foldRoom('team', [seatFile('c#3', writtenFile([entry('2026-11-30T17:19:00.000+00:00', 'answer', { re: '2026-11-29T10:00:00.000+00:00' })]))], noRooms);
    assert.deepEqual(fold.items[0]!.re, { state: 'unresolved', entries: [] });
  });

  it('entries that name the same instant keep file order and say how many share it', () => {
    const fold = foldRoom(
      'team',
      [
        seatFile('zed#1', writtenFile([entry('2026-11-30T19:18:53.482+02:00')])),
        seatFile('amy#1', writtenFile([entry('2026-11-30T17:18:53.482+00:00'), entry('2026-11-30T17:18:53.483+00:00')])),
      ],
      noRooms,
    );
    assert.deepEqual(order(fold), ['amy#1 2026-11-30T17:18:53.482+00:00', 'zed#1 2026-11-30T19:18:53.482+02:00', 'amy#1 2026-11-30T17:18:53.483+00:00']);
    assert.deepEqual(
      fold.items.map((flow) => flow.sharesTime),
      [2, 2, 1],
    );
    assert.equal(fold.counts.sharingTime, 2);
  });

  it('same instant, other offset: the same time for ordering, but not the time a re names', () => {
    const fold = foldRoom(
      'team',
      [
        seatFile('a#1', writtenFile([entry('2026-11-30T19:18:53.482+02:00')])),
        seatFile('b#1', writtenFile([entry('2026-11-30T17:18:54.000+00:00', 'reply', { re: '2026-11-30T17:18:53.482+00:00' })])),
      ],
      noRooms,
    );
    assert.deepEqual(fold.items[1]!.re, { state: 'unresolved', entries: [] });
  });

  it('orders by instant, not by text, across offsets', () => {
    const fold = foldRoom(
      'team',
      [seatFile('a#1', writtenFile([entry('2026-10-25T02:30:00.000+02:00')])), seatFile('b#1', writtenFile([entry('2026-10-25T02:10:00.000+01:00')]))],
      noRooms,
    );
    assert.deepEqual(order(fold), ['a#1 2026-10-25T02:30:00.000+02:00', 'b#1 2026-10-25T02:10:00.000+01:00']);
  });

  it('an entry written after a later one of its file (relayed late) is placed by its own time, as sac history orders a room, and that its file order differs is said', () => {
    const fold = foldRoom(
      'team',
      [seatFile('a@mac#1', writtenFile([entry('2026-11-30T17:00:00.000+00:00'), entry('2026-11-30T16:00:00.000+00:00')])), seatFile('b#1', writtenFile([entry('2026-11-30T16:30:00.000+00:00')]))],
      noRooms,
    );
    assert.deepEqual(order(fold), ['a@mac#1 2026-11-30T16:00:00.000+00:00', 'b#1 2026-11-30T16:30:00.000+00:00', 'a@mac#1 2026-11-30T17:00:00.000+00:00']);
    assert.deepEqual(
      fold.items.map((flow) => flow.timeGoesBack),
      [true, false, false],
    );
  });

  it('a tail after an entry relayed late stays right after that entry', () => {
    const bytes = new Uint8Array([...writtenFile([entry('2026-11-30T17:00:00.000+00:00'), entry('2026-11-30T16:00:00.000+00:00')]), ...bytesOf('\n## 2026-11-30T17:4')]);
    const fold = foldRoom('team', [seatFile('a#1', bytes), seatFile('b#1', writtenFile([entry('2026-11-30T16:30:00.000+00:00')]))], noRooms);
    assert.deepEqual(
      fold.items.map((flow) => `${flow.seat} ${flow.item.type}`),
      ['a#1 entry', 'a#1 tail', 'b#1 entry', 'a#1 entry'],
    );
  });

  it('an entry whose time names no instant is placed after the entry before it in its file', () => {
    const fold = foldRoom(
      'team',
      [seatFile('a#1', writtenFile([entry('2026-11-30T17:00:00.000+00:00'), entry('2026-11-30T18:00:00')])), seatFile('b#1', writtenFile([entry('2026-11-30T17:30:00.000+00:00')]))],
      noRooms,
    );
    assert.deepEqual(order(fold), ['a#1 2026-11-30T17:00:00.000+00:00', 'a#1 2026-11-30T18:00:00', 'b#1 2026-11-30T17:30:00.000+00:00']);
    assert.equal(fold.items[1]!.placedBy, 'file-order');
    assert.equal(fold.items[1]!.sharesTime, 1);
  });

  it('stray text stands with its file’s first entry; a torn tail stands in place after its file’s last entry', () => {
    const withStray = new Uint8Array([...bytesOf('by hand\n'), ...writtenFile([entry('2026-11-30T17:30:00.000+00:00')])]);
    const withTail = new Uint8Array([...writtenFile([entry('2026-11-30T17:00:00.000+00:00')]), ...bytesOf('\n## 2026-11-30T17:4')]);
    const fold = foldRoom(
      'team',
      [seatFile('a#1', withStray), seatFile('b#1', withTail, 'team', true), seatFile('c#1', writtenFile([entry('2026-11-30T17:10:00.000+00:00'), entry('2026-11-30T17:50:00.000+00:00')]))],
      noRooms,
    );
    assert.deepEqual(order(fold), [
      'b#1 2026-11-30T17:00:00.000+00:00',
      'b#1 tail',
      'c#1 2026-11-30T17:10:00.000+00:00',
      'a#1 stray-text',
      'a#1 2026-11-30T17:30:00.000+00:00',
      'c#1 2026-11-30T17:50:00.000+00:00',
    ]);
    assert.equal(fold.items[1]!.item.evidence, 'damaged');
    assert.equal(fold.counts.torn, 1);
    assert.equal(fold.counts.strayText, 1);
    assert.deepEqual(
      fold.degraded.map((reason) => reason.code),
      ['torn-entry', 'stray-text'],
    );
  });

  it('one send cut after its header and part of its body is one torn write in the room: counted once, one item, one range', () => {
    const cutSend = new Uint8Array([...writtenFile([entry('2026-11-30T17:00:00.000+00:00')]), ...bytesOf('\n## 2026-11-30T17:40:00.000+00:00 — FACT\nRolling back bec')]);
    const files = [seatFile('b#1', cutSend, 'team', true), seatFile('c#1', writtenFile([entry('2026-11-30T17:10:00.000+00:00')]))];
    const fold = foldRoom('team', files, noRooms);
    assert.deepEqual(order(fold), ['b#1 2026-11-30T17:00:00.000+00:00', 'c#1 2026-11-30T17:10:00.000+00:00', 'b#1 2026-11-30T17:40:00.000+00:00']);
    assert.equal(fold.counts.torn, 1);
    assert.equal(fold.counts.pending, 0);
    assert.deepEqual(fold.degraded, [{ code: 'torn-entry', files: ['channels/team/b#1.md'], ranges: [{ file: 'channels/team/b#1.md', start: fold.items[2]!.item.start, end: cutSend.length }] }]);
    const index = createRoomIndex('team');
    updateRoomIndex(index, files);
    assert.deepEqual([index.torn, index.pending], [1, 0]);
    const being = foldRoom('team', [seatFile('b#1', cutSend)], noRooms);
    assert.deepEqual([being.counts.pending, being.counts.torn, being.items.length], [1, 0, 2]);
  });

  it('a seat’s first write, still being written, stands at the end of the room', () => {
    const fold = foldRoom('team', [seatFile('a#1', bytesOf('## 2026-11-30T17:1')), seatFile('b#1', writtenFile([entry('2026-11-30T17:10:00.000+00:00')]))], noRooms);
    assert.deepEqual(order(fold), ['b#1 2026-11-30T17:10:00.000+00:00', 'a#1 tail']);
    assert.equal(fold.counts.pending, 1);
    assert.deepEqual(fold.degraded, []);
  });

  it('a 0-byte file is a seat of the room that joined and never wrote', () => {
    const fold = foldRoom('team', [...exampleTeam(), seatFile('web-app#7b02e5d1', new Uint8Array(0))], noRooms);
    assert.deepEqual(fold.seats, [API, WEB, 'web-app#7b02e5d1']);
    assert.equal(fold.counts.neverWrote, 1);
    assert.equal(fold.counts.seats, 3);
  });

  it('seat files are in sac’s order: by file name, so web#1.md comes before web.md', () => {
    const fold = foldRoom('team', [seatFile('web', writtenFile([entry('2026-11-30T17:00:00.000+00:00')])), seatFile('web#1', writtenFile([entry('2026-11-30T17:00:00.000+00:00')]))], noRooms);
    assert.deepEqual(fold.seats, ['web#1', 'web']);
    assert.deepEqual(
      fold.items.map((flow) => flow.seat),
      ['web#1', 'web'],
    );
  });
});

describe('what kind of room', () => {
  const rooms = (text: string): StoreFileInput => ({ state: 'read', bytes: bytesOf(text) });

  it('rooms.json’s pair makes a room of two', () => {
    const fold = foldRoom('dm-api-service-c4e10000-web-app-3f9c1a20', [], readRooms(rooms(EXAMPLE_STORE['rooms.json']!)));
    assert.deepEqual(fold.kind, { kind: 'pair', pair: [API, WEB] });
    assert.deepEqual(foldRoom('team', [], readRooms(rooms(EXAMPLE_STORE['rooms.json']!))).kind, { kind: 'room' });
  });

  it('with rooms.json corrupt, whether a room is a room of two is unknown, and the room says why', () => {
    const fold = foldRoom('team', exampleTeam(), readRooms(rooms('{"team": ')));
    assert.equal(fold.kind.kind, 'unknown');
    assert.deepEqual(fold.degraded, [{ code: 'corrupt-store-file', files: ['rooms.json'] }]);
    assert.equal(fold.counts.entries, 4);
  });
});

describe('merging ordered sequences', () => {
  it('keeps each sequence’s order, takes the lowest place first, and the earlier sequence on a tie', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = createSeededRandom(seed);
      const sequences = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, s) => {
        let place = 0;
        return Array.from({ length: Math.floor(random() * 8) }, (_, i) => ({ place: (place += Math.floor(random() * 3)), id: `${s}.${i}` }));
      });
      const merged = mergeByPlace(sequences, (item) => item.place);
      const expected = sequences
        .flatMap((sequence, s) => sequence.map((item, i) => ({ ...item, s, i })))
        .sort((a, b) => a.place - b.place || a.s - b.s || a.i - b.i)
        .map((item) => item.id);
      assert.deepEqual(
        merged.map((item) => item.id),
        expected,
        `seed ${seed}`,
      );
    }
  });
});
