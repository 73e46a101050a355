import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectDegraded, describeReason } from './degraded.ts';
import { classifyRoomFolder, classifySeatFile, classifyStoreName, mayOpen, STORE_FILES, type NameKind, type StoreFileName } from './layout.ts';
import { foldRoom } from './room.ts';
import { foldSeat, groupSeatsByProject, listSeats, type RoomFiles } from './seat.ts';
import { createSeatFileReading, readSeatFile } from './seatFile.ts';
import { readStoreFiles, type StoreFileInput } from './storeFiles.ts';
import { EXAMPLE_STORE } from './testing/exampleStore.ts';
import { bytesOf } from './testing/sacWriter.ts';
import { onExampleHost } from './testing/machine.ts';

// A reader over a store that holds secrets: it lists names, asks the layout functions, and
// opens only what they allow. Every secret holds a canary; no output of the core may hold one.

const RELAY_SECRET = 'CANARY-relay-secret-5f1d0c';
const HTTP_TOKEN = 'CANARY-http-token-9a7e42';
const TEMP_SECRET = 'CANARY-relay-temporary-77b1';
const LINKED_SECRET = 'CANARY-through-a-link-3c3c';
const BODY_SECRET = 'CANARY-pasted-into-a-body-e0e0';
const CANARIES = [RELAY_SECRET, HTTP_TOKEN, TEMP_SECRET, LINKED_SECRET, BODY_SECRET];

type Node = { kind: NameKind; text?: string };

/** The store as a file system would list it: path → what is there. */
const STORE: ReadonlyMap<string, Node> = new Map<string, Node>([
  ['relays.json', { kind: 'file', text: JSON.stringify({ relay: 'https://comm.example.com', secret: RELAY_SECRET }) }],
  ['http-tokens.json', { kind: 'file', text: JSON.stringify({ 'web-app': { token: HTTP_TOKEN } }) }],
  ['relays.json.tmp.4242', { kind: 'file', text: JSON.stringify({ secret: TEMP_SECRET }) }],
  ['registry.json', { kind: 'file', text: EXAMPLE_STORE['registry.json']! }],
  ['members.json', { kind: 'file', text: EXAMPLE_STORE['members.json']! }],
  ['rooms.json', { kind: 'file', text: EXAMPLE_STORE['rooms.json']! }],
  ['focus.json', { kind: 'file', text: EXAMPLE_STORE['focus.json']! }],
  ['presence.json', { kind: 'file', text: EXAMPLE_STORE['presence.json']! }],
  ['cursors.json', { kind: 'file', text: EXAMPLE_STORE['cursors.json']! }],
  ['nudges.json', { kind: 'file', text: '{}' }],
  ['channels', { kind: 'folder' }],
  ['channels/team', { kind: 'folder' }],
  ['channels/team/api-service#c4e10000.md', { kind: 'file', text: EXAMPLE_STORE['channels/team/api-service#c4e10000.md']! }],
  ['channels/team/web-app#3f9c1a20.md', { kind: 'file', text: `${EXAMPLE_STORE['channels/team/web-app#3f9c1a20.md']!}\n## 2026-11-30T17:19:00.000+00:00 — FACT\nthe token is ${BODY_SECRET}\n` }],
  // A link named like a seat file, whose target is a secret: never followed.
  ['channels/team/leak#00000000.md', { kind: 'link', text: `## 2026-11-30T17:19:00.000+00:00 — FACT\n${LINKED_SECRET}\n` }],
  ['channels/team/relays.json', { kind: 'file', text: RELAY_SECRET }],
  ['channels/.archive', { kind: 'folder' }],
  ['channels/.archive/old', { kind: 'folder' }],
  ['channels/.archive/old/web-app#3f9c1a20.md', { kind: 'file', text: `## 2026-11-30T17:00:00.000+00:00 — FACT\n${RELAY_SECRET}\n` }],
]);

function list(folder: string): { name: string; kind: NameKind }[] {
  const prefix = folder === '' ? '' : `${folder}/`;
  return [...STORE.entries()]
    .filter(([path]) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
    .map(([path, node]) => ({ name: path.slice(prefix.length), kind: node.kind }));
}

/** Reads the store as a reader must: asks before it opens anything, and records what it opened. */
function readStore() {
  const opened: string[] = [];
  const open = (path: string): Uint8Array => {
    assert.ok(mayOpen(path), `the reader was allowed to open ${path}`);
    opened.push(path);
    return bytesOf(STORE.get(path)!.text!);
  };
  const inputs = Object.fromEntries(STORE_FILES.map((file) => [file, { state: 'absent' } as StoreFileInput])) as Record<StoreFileName, StoreFileInput>;
  const rooms: RoomFiles[] = [];
  for (const top of list('')) {
    const name = classifyStoreName(top.name, top.kind);
    if (name.role === 'store-file' && mayOpen(top.name)) inputs[name.file] = { state: 'read', bytes: open(top.name) };
    if (name.role !== 'channels') continue;
    for (const folder of list('channels')) {
      const room = classifyRoomFolder(folder.name, folder.kind);
      if (room.role !== 'room') continue;
      const files = [];
      for (const entry of list(`channels/${room.room}`)) {
        const seatFile = classifySeatFile(entry.name, entry.kind);
        const path = `channels/${room.room}/${entry.name}`;
        if (seatFile.role !== 'seat-file' || !mayOpen(path)) continue;
        files.push(readSeatFile(createSeatFileReading(room.room, seatFile.seat), open(path), 0));
      }
      rooms.push({ room: room.room, files });
    }
  }
  return { opened, store: readStoreFiles(inputs), rooms };
}

describe('secrets never enter the core', () => {
  it('a reader that asks the layout opens no secret, no link and no retired room', () => {
    const { opened } = readStore();
    assert.deepEqual(opened.sort(), [
      'channels/team/api-service#c4e10000.md',
      'channels/team/web-app#3f9c1a20.md',
      'cursors.json',
      'focus.json',
      'members.json',
      'presence.json',
      'registry.json',
      'rooms.json',
    ]);
  });

  it('no canary from relays.json, http-tokens.json, a temporary of them, a link or a body text is in any output of the core', () => {
    const { store, rooms } = readStore();
    const now = Date.parse('2026-11-30T17:20:00.000+00:00');
    const outputs: unknown[] = [store, rooms];
    for (const room of rooms) outputs.push(foldRoom(room.room, room.files, store.rooms));
    const seats = listSeats(rooms, store);
    outputs.push(seats, groupSeatsByProject(seats, store.registry));
    for (const seat of seats) outputs.push(foldSeat(seat, rooms, store, now, onExampleHost([[8690, 'running']])));
    const reasons = collectDegraded(rooms.flatMap((room) => room.files), store);
    outputs.push(reasons, reasons.map(describeReason));
    const everything = JSON.stringify(outputs);
    assert.ok(everything.includes('web-app#3f9c1a20'), 'the outputs are not empty');
    for (const canary of CANARIES) assert.ok(!everything.includes(canary), canary);
  });
});
