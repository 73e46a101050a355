import { join, sep } from 'node:path';
import { classifyRoomFolder, classifySeatFile, isSecretName, mayOpen, seatFilePath, type NameKind } from '../../shared/sac/layout.ts';
import type { RoomFiles } from '../../shared/sac/seat.ts';
import { awaitsWriter, createSeatFileReading, noteSeatFileChanged, noteSeatFileUnreadable, noteSeatFileWithheld, readSeatFile, type SeatFileReading } from '../../shared/sac/seatFile.ts';
import { readAppended, type AppendMark } from '../watch/appendRead.ts';
import { createReadScratch } from '../watch/safeOpen.ts';
import { listStoreFolder, type FolderEntry } from '../watch/listFolder.ts';
import type { PendingTails } from '../watch/pendingTails.ts';
import { statPath, type OpenRules } from '../watch/safeOpen.ts';
import { createFirstScanLine, type FirstScanReader, type InLine } from './sacFirstScan.ts';
import { createSeatIdentities, type SeatIdentities } from './seatIdentities.ts';
import { allowedPath } from './storeOpen.ts';

// The rooms of a set-agent-comm store (`channels/<room>/<seat>.md`) and what is read of each seat
// file: appends from the offset the core remembers, a pending tail timed from the reader's first
// look at it, files the reader will not read (the same file as a secret, a name that is not
// UTF-8) listed with why, and a room that stops being a folder kept, changed after reading.

export type SeatFileState = {
  room: string;
  seat: string;
  /** `channels/<room>/<seat>.md`, relative to the root. */
  relative: string;
  reading: SeatFileReading;
  mark: AppendMark | null;
  mtimeMs: number;
  /** Why it is listed and never read (its name is not UTF-8, or not one sac writes); null when it is read. */
  withheld: string | null;
};

export type RoomState = {
  room: string;
  folder: string;
  files: Map<string, SeatFileState>;
  /** Bumped whenever a file of the room is read, comes or goes: what is made of the room is made again. */
  version: number;
  made: { version: number; files: RoomFiles } | null;
  /** Why the room's folder is no longer read (it became a link): its files are changed after reading. */
  lost: string | null;
};

export type RoomsContext = {
  root: string;
  rules: OpenRules;
  pending: PendingTails;
  watch(folder: string): void;
  unwatchUnder(folder: string): void;
  /** A room or a seat file came or went: what is listed of the store changed. */
  onLayout(): void;
  /** A first scan reads its seat files on a second thread too once there are this many of them. */
  scanThreadFrom: number;
  onError(message: string): void;
  /** Told of each seat file of a first scan's line: read here, read by the scan thread, or left by it to be read here. */
  onFirstScanRead?: (relative: string, by: FirstScanReader) => void;
};


/** Why a file or a folder whose name is not UTF-8 is listed and not read: sac writes only UTF-8 names. */
const NAME_NOT_UTF8 = 'its name is not valid UTF-8 (shown with the bytes escaped), so it is no seat file sac wrote';
const NAME_NOT_SACS = 'its name holds characters sac never writes in a seat’s name';

export function createSacRooms(context: RoomsContext) {
  const { root } = context;
  const channels = join(root, 'channels');
  const rooms = new Map<string, RoomState>();
  const scratch = createReadScratch();
  const firstScanLine = createFirstScanLine({ ...context, readSeat: (room, seat) => readSeat(room, seat), otherNameOf: (file, mark) => identities.otherNameOf(file, mark, { mark }) });
  /** Names under channels/ that are listed and never read. */
  let strays: string[] = [];
  /** The names of retired rooms (`channels/.archive/<room>`): listed, never read. */
  let archived: ReadonlySet<string> = new Set();

  /** The seat file's state, new (nothing read) if the room had none by that name. */
  function addSeat(room: RoomState, seat: string, entry?: FolderEntry): SeatFileState {
    const known = room.files.get(seat);
    if (known !== undefined) return known;
    const relative = seatFilePath(room.room, seat);
    const withheld = entry?.bytes !== undefined ? NAME_NOT_UTF8 : mayOpen(relative) ? null : NAME_NOT_SACS;
    const file: SeatFileState = { room: room.room, seat, relative, reading: createSeatFileReading(room.room, seat), mark: null, mtimeMs: 0, withheld };
    room.files.set(seat, file);
    room.version++;
    context.onLayout();
    return file;
  }

  // A file the store no longer holds (its room dropped, the store read afresh) claims nothing.
  const identities = createSeatIdentities((file) => rooms.get(file.room)?.files.get(file.seat) === file);

  /** Reads what was appended to a seat file; says whether anything a reader sees changed. */
  function readSeat(room: RoomState, seat: string, entry?: FolderEntry): boolean {
    const file = addSeat(room, seat, entry);
    const relative = file.relative;
    const before = file.reading;
    if (before.problem?.code === 'changed-after-read') return false;
    if (file.withheld !== null) {
      file.reading = noteSeatFileWithheld(before, file.withheld);
    } else if (room.lost !== null) {
      file.reading = file.mark === null ? noteSeatFileWithheld(before, room.lost) : noteSeatFileChanged(before, room.lost);
    } else {
      readAppendedBytes(file, before, context, scratch, identities);
    }
    if (!awaitsWriter(file.reading)) context.pending.settle(relative);
    if (file.reading === before) return false;
    room.version++;
    return true;
  }

  /** A seat file that is gone: forgotten if nothing was ever read of it, else changed after reading. */
  function dropSeatIfNeverRead(room: RoomState, seat: string): boolean {
    const file = room.files.get(seat)!;
    if (file.reading.size === 0 && file.reading.problem === null && file.mark === null) {
      room.files.delete(seat);
      context.pending.settle(file.relative);
      room.version++;
      context.onLayout();
      return true;
    }
    return readSeat(room, seat);
  }

  /**
   * Lists a room folder, reading every seat file in it (`all`) or only those new or changed; says
   * whether anything changed. With `line`, the files to read are put in it rather than read.
   */
  function* listRoom(room: RoomState, all: boolean, line?: InLine[]): Generator<void, boolean> {
    if (room.lost !== null) return false;
    // Watched before it is listed: what comes in between is told by its watch.
    context.watch(room.folder);
    const listing = listStoreFolder(room.folder, root);
    if (listing.type !== 'listed') return listing.type === 'refused' ? loseRoom(room, `replaced (${listing.why})`) : false;
    let any = false;
    const present = new Set<string>();
    for (const entry of listing.entries) {
      // A secret's name is not listed either: it says which secrets exist.
      if (isSecretName(entry.name)) continue;
      const name = classifySeatFile(entry.name, kindOf(entry, room.folder));
      if (name.role !== 'seat-file') continue;
      present.add(name.seat);
      const known = room.files.get(name.seat);
      if (line !== undefined) {
        const file = addSeat(room, name.seat, entry);
        // A file the reader will not read is told so at once: it is never handed to a thread.
        if (file.withheld !== null) readSeat(room, name.seat, entry);
        // A line long enough for a scan thread starts it now: it starts up while the rest is listed.
        else if (line.push({ room, file }) >= context.scanThreadFrom) firstScanLine.startThread();
        any = true;
        // Putting a store's files in line is a turn of the event loop too: requests come between.
        yield;
      } else if (known === undefined || all || hasMoved(known, join(room.folder, entry.name))) {
        any = readSeat(room, name.seat, entry) || any;
        yield;
      }
    }
    for (const seat of [...room.files.keys()]) if (!present.has(seat)) any = dropSeatIfNeverRead(room, seat) || any;
    return any;
  }

  /** The room's folder is no longer one the reader reads: what was read of it is kept, changed after reading. */
  function loseRoom(room: RoomState, why: string): boolean {
    room.lost = `the room’s folder was ${why} after it was read; sac writes in a folder`;
    context.unwatchUnder(room.folder);
    for (const seat of room.files.keys()) readSeat(room, seat);
    room.version++;
    return true;
  }

  /**
   * Lists `channels/`: new rooms, gone ones (archived), and what is not read there; returns the
   * rooms that changed. A first scan puts the new rooms' seat files in its `line`, to be read on
   * both threads (readLine), rather than reading them.
   */
  function* listChannels(readNew: boolean, line?: InLine[]): Generator<void, string[]> {
    context.watch(channels);
    const listing = listStoreFolder(channels, root);
    const found = new Map<string, FolderEntry>();
    const notRead: string[] = [];
    if (listing.type === 'listed') {
      for (const entry of listing.entries) {
        if (isSecretName(entry.name)) continue;
        const kind = kindOf(entry, channels);
        const name = classifyRoomFolder(entry.name, kind);
        if (name.role === 'room' && entry.bytes === undefined) found.set(name.room, entry);
        else if (name.role === 'room' || kind === 'link') notRead.push(`channels/${entry.name}`);
      }
    }
    strays = notRead.sort();
    const archive = listing.type === 'listed' ? listing.entries.find((entry) => entry.name === '.archive') : undefined;
    archived = archive !== undefined && kindOf(archive, channels) === 'folder' ? listArchived(root, join(channels, archive.name)) : new Set();
    const touched: string[] = [];
    for (const room of [...rooms.values()]) {
      if (found.has(room.room) || room.lost !== null) continue;
      const entry = listing.type === 'listed' ? listing.entries.find((candidate) => candidate.name === room.room) : undefined;
      // Still there, but no longer a folder: kept, and said to have changed. Gone (archived): it leaves.
      if (entry !== undefined && room.files.size > 0) loseRoom(room, entry.isSymbolicLink() ? 'replaced by a link, not followed,' : 'replaced by something else');
      else dropRoom(room);
      touched.push(room.room);
    }
    for (const name of [...found.keys()].sort()) {
      if (rooms.has(name)) continue;
      const room: RoomState = { room: name, folder: join(channels, name), files: new Map(), version: 0, made: null, lost: null };
      rooms.set(name, room);
      context.onLayout();
      if (readNew) yield* listRoom(room, true, line);
      touched.push(name);
    }
    return touched;
  }

  function dropRoom(room: RoomState): void {
    context.unwatchUnder(room.folder);
    for (const file of room.files.values()) context.pending.settle(file.relative);
    rooms.delete(room.room);
    context.onLayout();
  }

  return {
    rooms,
    strays: () => strays,
    archived: () => archived,
    listChannels,
    listRoom,
    handOverLine: firstScanLine.handOver,
    readLine: firstScanLine.readLine,
    stopThread: firstScanLine.stopThread,
    readSeat,
    /** The room whose folder is `folder`, if it is one. */
    roomOf(folder: string): RoomState | null {
      const at = folder.lastIndexOf(sep);
      return folder.slice(0, at) === channels ? (rooms.get(folder.slice(at + 1)) ?? null) : null;
    },
    fileOf: (relative: string) => findSeatFile(rooms, relative),
    noteChanged(room: RoomState, file: SeatFileState, why: string): boolean {
      if (file.reading.problem?.code === 'changed-after-read') return false;
      file.reading = noteSeatFileChanged(file.reading, why);
      room.version++;
      return true;
    },
    forgetAll(): string[] {
      const gone = [...rooms.keys()];
      for (const room of [...rooms.values()]) dropRoom(room);
      strays = [];
      archived = new Set();
      return gone;
    },
    count(): number {
      let files = 0;
      for (const room of rooms.values()) files += room.files.size;
      return files;
    },
  };
}

/** Reads what was appended to a seat file into its reading: bytes, or what kept them from being read. */
function readAppendedBytes(
  file: SeatFileState,
  before: SeatFileReading,
  context: RoomsContext,
  scratch: Buffer,
  identities: SeatIdentities,
): void {
  const read = readAppended(allowedPath(context.root, file.relative), context.rules, before.offset, file.mark, Number.MAX_SAFE_INTEGER, scratch);
  switch (read.type) {
    case 'bytes': {
      // A first read: is it a file already read under another name?
      const other = file.mark === null ? identities.otherNameOf(file, read.identity, { bytes: read.bytes }) : null;
      if (other !== null) return identities.withhold(file, before, other);
      file.mtimeMs = read.mtimeMs;
      let reading = readSeatFile(before, read.bytes, before.offset);
      // What waits for its writer is timed from the reader's first look at it there.
      if (awaitsWriter(reading) && context.pending.look(file.relative, String(reading.offset), read.mtimeMs)) {
        reading = readSeatFile(before, read.bytes, before.offset, { pendingWindowPassed: true });
      }
      file.reading = reading;
      if (reading.problem === null) file.mark = read.mark(reading.offset);
      return;
    }
    case 'changed':
      file.reading = noteSeatFileChanged(before, read.why);
      return;
    case 'missing':
      file.reading = before.size === 0 && file.mark === null ? before : noteSeatFileChanged(before, 'the file was removed after it was read; sac never removes a seat file');
      return;
    case 'refused':
      if (read.refusal === 'secret') file.reading = noteSeatFileWithheld(before, 'it is the same file (device and inode) as a secret of a store read here');
      else file.reading = file.mark === null ? noteSeatFileUnreadable(before, read.why) : noteSeatFileChanged(before, `now ${read.why}`);
      return;
    case 'unreadable':
      file.reading = noteSeatFileUnreadable(before, read.why);
      return;
  }
}

/** Whether a seat file's size or mtime moved since it was read, or it had a problem worth looking at again. */
function hasMoved(file: SeatFileState, path: string): boolean {
  if (file.reading.problem?.code === 'changed-after-read') return false;
  const stat = statPath(path);
  return stat === null || stat.size !== file.reading.size || stat.mtimeMs !== file.mtimeMs || file.reading.problem !== null;
}

/** The room and seat a relative path (`channels/<room>/<seat>.md`) names: a pending tail's retry. */
function findSeatFile(rooms: ReadonlyMap<string, RoomState>, relative: string): { room: RoomState; seat: string } | null {
  const [, roomName, name] = relative.split('/');
  const room = roomName === undefined ? undefined : rooms.get(roomName);
  const seat = name?.slice(0, -'.md'.length);
  return room === undefined || seat === undefined || !room.files.has(seat) ? null : { room, seat };
}

/**
 * The rooms retired to the archive, by their folders' names only, as `sac rooms --archived` lists
 * them: what a room sac's records still name became. Nothing in them is read. The archive changes
 * only as a room leaves `channels/` or comes back to it, so it is listed with `channels/`.
 */
function listArchived(root: string, folder: string): ReadonlySet<string> {
  const listing = listStoreFolder(folder, root);
  if (listing.type !== 'listed') return new Set();
  return new Set(listing.entries.filter((entry) => entry.bytes === undefined && kindOf(entry, folder) === 'folder').map((entry) => entry.name));
}

/** A room's files as the core takes them; made again only when the room changed. */
export function filesOf(room: RoomState): RoomFiles {
  if (room.made === null || room.made.version !== room.version) room.made = { version: room.version, files: { room: room.room, files: [...room.files.values()].map((file) => file.reading) } };
  return room.made.files;
}

/** What a listed name is; its path is made only when the listing did not say (a first scan lists thousands). */
function kindOf(entry: FolderEntry, folder: string): NameKind {
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  // A file system that does not say a name's type in its listing: asked of the name itself.
  return statPath(join(folder, entry.name))?.kind ?? 'other';
}
