import { classifyRoomFolder } from './layout.ts';
import type { StoreFacts } from './storeFiles.ts';

// The rooms of a store. A room is a folder under `channels/` once someone writes or joins it, but
// sac's metadata may name one before (`sac dm` puts a room of two in rooms.json and both seats'
// books; its folder comes with the first write) and after (`sac rooms --archive` moves the folder
// to `channels/.archive/<room>` and leaves every record). Such a room is listed with where its
// folder is, as `sac rooms` and `--archived` say, never left out as if it were not there.

/** Where a room's folder is: read here, not made yet, or retired to the archive (never read). */
export type RoomFolder = { state: 'present' } | { state: 'absent' } | { state: 'archived'; path: string };

type KnownRoom = { room: string; folder: RoomFolder };

/** The archive's path for a retired room, as sac's `rooms --archive` names it. */
function archivedPath(room: string): string {
  return `channels/.archive/${room}`;
}

/**
 * Every room a folder under `channels/` holds or sac's metadata names (rooms.json, members.json's
 * rooms and left rooms, the registry's rooms of each seat), by name, with where its folder is.
 * `archived` are the names under `channels/.archive/`: only those the metadata names are listed.
 */
export function listKnownRooms(folders: Iterable<string>, archived: ReadonlySet<string>, store: Pick<StoreFacts, 'members' | 'registry' | 'rooms'>): KnownRoom[] {
  const present = new Set(folders);
  const named = new Set<string>();
  if (store.rooms.state === 'read') for (const record of store.rooms.facts.rooms) named.add(record.room);
  if (store.members.state === 'read') {
    for (const record of store.members.facts.seats) for (const room of [...record.rooms, ...record.left]) named.add(room);
  }
  if (store.registry.state === 'read') for (const record of store.registry.facts.seats) for (const room of record.rooms) named.add(room);
  const known: KnownRoom[] = [...present].map((room) => ({ room, folder: { state: 'present' } }));
  for (const room of named) {
    // A name no folder of sac's could have (a dot-name, a path) is a record's text, not a room.
    if (present.has(room) || room.includes('/') || classifyRoomFolder(room, 'folder').role !== 'room') continue;
    known.push({ room, folder: archived.has(room) ? { state: 'archived', path: archivedPath(room) } : { state: 'absent' } });
  }
  return known.sort((a, b) => (a.room < b.room ? -1 : a.room > b.room ? 1 : 0));
}
