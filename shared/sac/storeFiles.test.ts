import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCursors, readFocus, readMembers, readPresence, readRegistry, readRooms, readStoreFiles, type StoreFileInput } from './storeFiles.ts';
import { EXAMPLE_STORE } from './testing/exampleStore.ts';
import { bytesOf } from './testing/sacWriter.ts';

const read = (text: string): StoreFileInput => ({ state: 'read', bytes: bytesOf(text) });
const example = (name: string): StoreFileInput => read(EXAMPLE_STORE[name]!);

describe('the store’s JSON files as sac writes them', () => {
  it('registry.json gives each agent’s project and each seat’s full session, writers, rooms, lastSeen and the host its agent is filed under', () => {
    const registry = readRegistry(example('registry.json'));
    assert.equal(registry.state, 'read');
    if (registry.state !== 'read') return;
    assert.deepEqual(registry.invalid, []);
    assert.deepEqual(
      registry.facts.agents.map((agent) => [agent.agent, agent.project]),
      [
        ['web-app', '/home/dev/projects/web-app'],
        ['api-service', '/home/dev/projects/api-service'],
      ],
    );
    assert.deepEqual(registry.facts.seats[0], {
      seat: 'web-app#3f9c1a20',
      agent: 'web-app',
      session: '3f9c1a20-1111-2222-3333-444455556666',
      owner: 101,
      writers: [{ pid: 8690, at: '2026-11-30T17:18:53.872+00:00' }],
      rooms: ['team', 'dm-api-service-c4e10000-web-app-3f9c1a20'],
      firstSeen: '2026-11-30T17:18:53.143+00:00',
      lastSeen: '2026-11-30T17:18:53.872+00:00',
      remote: false,
      host: 'vm',
    });
    assert.equal(registry.facts.seats.length, 3);
  });

  it('members.json, rooms.json, focus.json, presence.json and cursors.json read as their facts', () => {
    const store = readStoreFiles({
      'registry.json': example('registry.json'),
      'members.json': example('members.json'),
      'rooms.json': example('rooms.json'),
      'focus.json': example('focus.json'),
      'presence.json': example('presence.json'),
      'cursors.json': example('cursors.json'),
    });
    assert.deepEqual(store.members.state === 'read' && store.members.facts.seats[2], { seat: 'web-app#7b02e5d1', rooms: ['team'], left: [] });
    assert.deepEqual(store.rooms.state === 'read' && store.rooms.facts.rooms.map((room) => [room.room, room.pair]), [
      ['team', null],
      ['dm-api-service-c4e10000-web-app-3f9c1a20', ['api-service#c4e10000', 'web-app#3f9c1a20']],
    ]);
    assert.deepEqual(store.focus.state === 'read' && store.focus.facts.seats, [
      { seat: 'web-app#3f9c1a20', text: 'reworking the checkout form', files: ['src/checkout/', 'src/lib/cart.ts'], phase: 'apply', ts: '2026-11-30T17:18:53.402+00:00' },
    ]);
    assert.deepEqual(store.presence.state === 'read' && store.presence.facts.seats, [
      { seat: 'web-app#7b02e5d1', quiet: true, since: '2026-11-30T17:18:54.039+00:00', until: '2026-11-30T19:18:54.038+00:00' },
    ]);
    assert.deepEqual(store.cursors.state === 'read' && store.cursors.facts.cursors, [
      { key: 'team::web-app#3f9c1a20', read: [{ writer: 'api-service#c4e10000', time: '2026-11-30T17:18:53.590+00:00' }] },
      { key: 'team::api-service#c4e10000', read: [] },
      { key: 'team::web-app#7b02e5d1', read: [] },
    ]);
  });

  it('members.json in its first shape, a bare list of rooms, still reads', () => {
    const members = readMembers(read('{"web-app#3f9c1a20": ["team"]}'));
    assert.deepEqual(members.state === 'read' && members.facts.seats, [{ seat: 'web-app#3f9c1a20', rooms: ['team'], left: [] }]);
  });

  it('an absent file is absent: nothing was declared in it', () => {
    assert.deepEqual(readPresence({ state: 'absent' }), { state: 'absent' });
  });
});

describe('a JSON file that does not parse is unknown, never empty', () => {
  it('a file cut short, an empty file, a file that is not UTF-8 and a byte-order mark are each unknown, with why', () => {
    const cases: [StoreFileInput, RegExp][] = [
      [read('{"agents": {"web-app": {'), /registry.json is not JSON/],
      [read(''), /registry.json is empty, which sac never writes/],
      [{ state: 'read', bytes: new Uint8Array([0x7b, 0xff, 0x7d]) }, /registry.json is not UTF-8/],
      [read('\uFEFF{"agents": {}}'), /registry.json is not JSON/],
    ];
    for (const [input, why] of cases) {
      const registry = readRegistry(input);
      assert.equal(registry.state, 'unknown');
      assert.equal(registry.state === 'unknown' && registry.cause, 'corrupt');
      assert.match(registry.state === 'unknown' ? registry.why : '', why);
    }
  });

  it('JSON that is not sac’s shape is unknown', () => {
    assert.equal(readRegistry(read('[]')).state, 'unknown');
    assert.equal(readRegistry(read('{"seats": {}}')).state, 'unknown');
    assert.equal(readFocus(read('null')).state, 'unknown');
  });

  it('a file the reader could not read is unknown, for that reason', () => {
    assert.deepEqual(readCursors({ state: 'unreadable', why: 'permission denied' }), {
      state: 'unknown',
      cause: 'unreadable',
      why: 'cursors.json could not be read: permission denied',
    });
  });

  it('one record not as sac writes it costs that record, named by its key, and not the file', () => {
    const registry = readRegistry(read('{"agents": {"web-app": {"seats": {"web-app#1": {"rooms": "team"}, "web-app#2": {"session": "s2"}}}, "bad": 5}}'));
    assert.equal(registry.state, 'read');
    if (registry.state !== 'read') return;
    assert.deepEqual(registry.facts.seats.map((seat) => seat.seat), ['web-app#2']);
    assert.deepEqual(
      registry.invalid.map((record) => record.key),
      ['agents.web-app.seats.web-app#1', 'agents.bad'],
    );
  });

  it('a pair that is not a list of two seats is no room of two, as sac reads it, and is named', () => {
    const rooms = readRooms(read('{"dm-x": {"by": "a", "at": "2026-11-30T17:18:54.116+00:00", "pair": ["a"]}}'));
    assert.equal(rooms.state === 'read' && rooms.facts.rooms[0]!.pair, null);
    assert.deepEqual(rooms.state === 'read' && rooms.invalid, [{ key: 'dm-x.pair', why: 'not a list of two seats: not a room of two' }]);
  });

  it('a record keyed __proto__ is a record like any other', () => {
    const registry = readRegistry(read('{"agents": {"__proto__": {"project": "/p", "seats": {"__proto__": {"session": "s", "writers": {"12": "2026-11-30T17:18:53.872+00:00"}}}}}}'));
    assert.deepEqual(registry.state === 'read' && registry.facts.seats.map((seat) => [seat.agent, seat.seat, seat.session]), [['__proto__', '__proto__', 's']]);
    assert.deepEqual(registry.state === 'read' && registry.facts.agents.map((agent) => agent.project), ['/p']);
    const cursors = readCursors(read('{"__proto__": {"__proto__": "2026-11-30T17:18:53.872+00:00"}}'));
    assert.deepEqual(cursors.state === 'read' && cursors.facts.cursors, [{ key: '__proto__', read: [{ writer: '__proto__', time: '2026-11-30T17:18:53.872+00:00' }] }]);
  });

  it('a writer whose pid is not a number is kept with no pid', () => {
    const registry = readRegistry(read('{"agents": {"a": {"seats": {"a#1": {"writers": {"abc": "2026-11-30T17:18:53.872+00:00"}}}}}}'));
    assert.deepEqual(registry.state === 'read' && registry.facts.seats[0]!.writers, [{ pid: null, at: '2026-11-30T17:18:53.872+00:00' }]);
  });
});
