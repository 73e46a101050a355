import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldRoom } from './room.ts';
import { createRoomIndex, updateRoomIndex } from './roomIndex.ts';
import { findRoomSeats, listRoomMembers } from './roster.ts';
import { createSeatFileReading, readSeatFile } from './seatFile.ts';
import type { StoreFacts } from './storeFiles.ts';
import { readExampleFacts } from './testing/exampleFacts.ts';
import { EXAMPLE_STORE } from './testing/exampleStore.ts';
import { bytesOf, writtenFile, type AppendedEntry } from './testing/sacWriter.ts';
import { deriveWakes, type WakeRoom } from './wakes.ts';
import { onExampleHost } from './testing/machine.ts';

const API = 'api-service#c4e10000';
const WEB = 'web-app#3f9c1a20';
const SIBLING = 'web-app#7b02e5d1';
const PAIR = 'dm-api-service-c4e10000-web-app-3f9c1a20';
const NOW = Date.parse('2026-11-30T17:20:00.000+00:00');

const store = readExampleFacts;

const teamFiles = () => [API, WEB].map((seat) => readSeatFile(createSeatFileReading('team', seat), bytesOf(EXAMPLE_STORE[`channels/team/${seat}.md`]!), 0));

function teamIndex() {
  const index = createRoomIndex('team');
  updateRoomIndex(index, teamFiles());
  return index;
}

/** Whom each entry of the example's `team` wakes, in the flow's order. */
function wakesOfTeam(facts: StoreFacts, extra: Partial<WakeRoom> = {}) {
  const fold = foldRoom('team', teamFiles(), facts.rooms);
  const room: WakeRoom = { members: findRoomSeats('team', fold.seats, facts), kind: fold.kind, presence: facts.presence, now: NOW, ...extra };
  return fold.items.map((flow) => deriveWakes(flow, room));
}

describe('a room’s roster', () => {
  it('lists every member of a room, a seat that never wrote a file there included, with why it is one', () => {
    const members = findRoomSeats('team', [API, WEB], store());
    assert.deepEqual(
      members.map((member) => `${member.seat} ${member.because.join('+')}`),
      [`${API} members+registry+file`, `${WEB} members+registry+file`, `${SIBLING} members+registry`],
    );
  });

  it('lists a room of two’s seats before either wrote in it', () => {
    assert.deepEqual(
      findRoomSeats(PAIR, [], store()).map((member) => member.seat),
      [API, WEB],
    );
  });

  it('says of a seat that left that it left, and drops one that left and is declared nowhere else', () => {
    const members = JSON.stringify({ [WEB]: { rooms: ['team'], left: [] }, [API]: { rooms: [], left: ['team'] }, 'gone#1': { rooms: [], left: ['team'] } });
    const seats = findRoomSeats('team', [API], store({ 'members.json': members, 'registry.json': null }));
    assert.deepEqual(
      seats.map((member) => `${member.seat} ${member.left}`),
      [`${API} true`, `${WEB} false`],
    );
  });

  it('counts each member’s unread by sac’s cursor, says caught up at none, and a gone seat’s backlog is not unread', () => {
    const running = onExampleHost([[8690, 'running'], [8620, 'running'], [8701, 'exited']]);
    const later = Date.parse('2026-11-30T19:00:00.000+00:00');
    const cursors = JSON.stringify({ [`team::${WEB}`]: { [API]: '2026-11-30T17:18:53.590+00:00' }, [`team::${SIBLING}`]: { [API]: '2026-11-30T17:18:53.956+00:00', [WEB]: '2026-11-30T17:18:53.872+00:00' }, [`team::${API}`]: {} });
    const members = listRoomMembers('team', teamIndex(), store({ 'cursors.json': cursors }), later, running);
    assert.deepEqual(
      members.map((member) => [member.seat, member.liveness.word, member.reading, member.file]),
      [
        [API, 'gone', { state: 'gone', backlog: 1 }, 'written'],
        [WEB, 'live', { state: 'behind', unread: 1 }, 'written'],
        [SIBLING, 'live', { state: 'caught-up' }, 'none'],
      ],
    );
  });

  it('says a member’s reading is unknown when cursors.json does not parse, never caught up', () => {
    const members = listRoomMembers('team', teamIndex(), store({ 'cursors.json': '{' }), NOW, onExampleHost());
    assert.ok(members.every((member) => member.reading.state === 'unknown'));
  });
});

describe('who an entry wakes, by sac’s rule', () => {
  it('wakes every seat of an agent named in `to`, the writer of the entry a re answers, the one seat named, and nobody for a broadcast FACT', () => {
    const wakes = wakesOfTeam(store({ 'presence.json': null }));
    assert.deepEqual(
      wakes.map((one) => one?.seats.map((seat) => `${seat.seat}:${seat.rule}`)),
      [[`${WEB}:addressed`, `${SIBLING}:addressed`], [], [`${API}:addressed`], [`${WEB}:addressed`]],
    );
  });

  it('never wakes a seat declared quiet at the entry’s time, and says it was passed over', () => {
    const presence = JSON.stringify({ [SIBLING]: { quiet: true, since: '2026-11-30T17:00:00.000+00:00' } });
    const wakes = wakesOfTeam(store({ 'presence.json': presence }));
    assert.deepEqual(wakes[0]!.seats.map((seat) => seat.seat), [WEB]);
    assert.deepEqual(wakes[0]!.quiet, [SIBLING]);
  });

  it('wakes a seat whose quiet began after the entry was written', () => {
    // The example's sibling went quiet at 17:18:54.039, after every entry of `team`.
    assert.deepEqual(wakesOfTeam(store())[0]!.quiet, []);
  });

  it('wakes every member for a broadcast QUESTION, the answered writer for a re with no `to`, and the other seat for anything in a room of two', () => {
    const entry = (ts: string, extra: Partial<AppendedEntry> = {}): AppendedEntry => ({ ts, type: 'FACT', text: 'x', ...extra });
    const files = [
      readSeatFile(createSeatFileReading(PAIR, API), writtenFile([entry('2026-11-30T17:00:00.000+00:00', { type: 'QUESTION' })]), 0),
      readSeatFile(createSeatFileReading(PAIR, WEB), writtenFile([entry('2026-11-30T17:01:00.000+00:00', { type: 'FACT', re: '2026-11-30T17:00:00.000+00:00' })]), 0),
    ];
    const facts = store({ 'presence.json': null });
    const pair = foldRoom(PAIR, files, facts.rooms);
    const asPair: WakeRoom = { members: findRoomSeats(PAIR, pair.seats, facts), kind: pair.kind, presence: facts.presence, now: NOW };
    assert.deepEqual(pair.items.map((flow) => deriveWakes(flow, asPair)!.seats), [[{ seat: WEB, rule: 'broadcast' }], [{ seat: API, rule: 're' }]]);
    const asRoom: WakeRoom = { ...asPair, kind: { kind: 'room' } };
    const fact = foldRoom(PAIR, [readSeatFile(createSeatFileReading(PAIR, API), writtenFile([entry('2026-11-30T17:00:00.000+00:00')]), 0)], facts.rooms);
    assert.deepEqual(deriveWakes(fact.items[0]!, asPair)!.seats, [{ seat: WEB, rule: 'pair' }]);
    assert.deepEqual(deriveWakes(fact.items[0]!, asRoom)!.seats, []);
  });

  it('says of an entry still being written, or cut short, nothing of whom it wakes: sac wakes once its append is done', () => {
    const question = { ts: '2026-11-30T17:00:00.000+00:00', type: 'QUESTION', text: 'who has the cache numbers?' } as const;
    const whole = writtenFile([question, { ...question, ts: '2026-11-30T17:01:00.000+00:00', text: 'anyone? the p95 went up after the change' }]);
    const cut = whole.subarray(0, whole.length - 12);
    const facts = store({ 'presence.json': null });
    const wakesOf = (pendingWindowPassed: boolean) => {
      const fold = foldRoom('team', [readSeatFile(createSeatFileReading('team', API), cut, 0, { pendingWindowPassed })], facts.rooms);
      const room: WakeRoom = { members: findRoomSeats('team', fold.seats, facts), kind: fold.kind, presence: facts.presence, now: NOW };
      return fold.items.map((flow) => [flow.item.evidence, deriveWakes(flow, room)?.seats.map((seat) => seat.seat) ?? null]);
    };
    // The first, whole, wakes the room's other members, as a broadcast question does.
    assert.deepEqual(wakesOf(false), [
      ['parsed', [WEB, SIBLING]],
      ['pending', null],
    ]);
    assert.deepEqual(wakesOf(true), [
      ['parsed', [WEB, SIBLING]],
      ['damaged', null],
    ]);
  });

  it('says whether seats were quiet is unknown when presence.json does not parse', () => {
    assert.match(wakesOfTeam(store({ 'presence.json': '[' }))[0]!.quietUnknown ?? '', /presence\.json/);
  });
});
