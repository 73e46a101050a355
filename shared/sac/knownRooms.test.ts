import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listKnownRooms } from './knownRooms.ts';
import { readStoreFiles, type StoreFacts } from './storeFiles.ts';
import { bytesOf } from './testing/sacWriter.ts';

const json = (value: unknown) => ({ state: 'read' as const, bytes: bytesOf(JSON.stringify(value)) });
const absent = { state: 'absent' as const };

function storeOf(files: { registry?: unknown; members?: unknown; rooms?: unknown }): StoreFacts {
  return readStoreFiles({
    'registry.json': files.registry === undefined ? absent : json(files.registry),
    'members.json': files.members === undefined ? absent : json(files.members),
    'rooms.json': files.rooms === undefined ? absent : json(files.rooms),
    'focus.json': absent,
    'presence.json': absent,
    'cursors.json': absent,
  });
}

describe('the rooms of a store, as sac’s metadata and its folders know them', () => {
  it('a room of two opened and never written has no folder yet, and is a room all the same', () => {
    const store = storeOf({ rooms: { 'dm-a-b': { by: 'a#1', at: '2026-11-30T16:00:00.000+00:00', pair: ['a#1', 'b#2'] } }, members: { 'a#1': { rooms: ['dm-a-b'], left: [] } } });
    assert.deepEqual(listKnownRooms(['team'], new Set(), store), [
      { room: 'dm-a-b', folder: { state: 'absent' } },
      { room: 'team', folder: { state: 'present' } },
    ]);
  });

  it('a room whose folder was retired to channels/.archive is archived there, while sac’s records still name it', () => {
    const store = storeOf({ registry: { agents: { a: { seats: { 'a#1': { session: 's', rooms: ['retro', 'ops'] } } } } } });
    assert.deepEqual(listKnownRooms(['ops'], new Set(['retro', 'old']), store), [
      { room: 'ops', folder: { state: 'present' } },
      { room: 'retro', folder: { state: 'archived', path: 'channels/.archive/retro' } },
    ]);
  });

  it('a room a seat left is still named by members.json; a store file that cannot be read names none, and a name no folder could have is no room', () => {
    const store = storeOf({ members: { 'a#1': { rooms: ['.archive', '../x', ''], left: ['gone-by'] } } });
    assert.deepEqual(listKnownRooms([], new Set(), store), [{ room: 'gone-by', folder: { state: 'absent' } }]);
    const unreadable = readStoreFiles({ 'registry.json': { state: 'read', bytes: bytesOf('{') }, 'members.json': absent, 'rooms.json': absent, 'focus.json': absent, 'presence.json': absent, 'cursors.json': absent });
    assert.deepEqual(listKnownRooms(['team'], new Set(), unreadable), [{ room: 'team', folder: { state: 'present' } }]);
  });
});
