import { hash } from 'node:crypto';
import { lstatSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Indexing } from '../../shared/wire/common.ts';
import { classifyRoomFolder, classifySeatFile, classifyStoreName, isSecretName, seatFilePath, STORE_FILES, type NameKind, type StoreFileName } from '../../shared/sac/layout.ts';
import type { RoomFiles } from '../../shared/sac/seat.ts';
import { awaitsWriter, createSeatFileReading, noteSeatFileChanged, noteSeatFileUnreadable, readSeatFile, type SeatFileReading } from '../../shared/sac/seatFile.ts';
import { readStoreFiles, STORE_FILE_OF, type StoreFacts, type StoreFileInput } from '../../shared/sac/storeFiles.ts';
import { describeError } from '../watch/describeError.ts';
import { readAppended, type AppendMark } from '../watch/appendRead.ts';
import { listFolder } from '../watch/listFolder.ts';
import { allowedPath, readStoreFile } from './storeOpen.ts';

// The file-system shell of a set-agent-comm store: lists the root, `channels/` and each room,
// watches them, reads seat files from the offset the core remembers (appends only, up to the
// last `\n`), times a pending tail into a torn write, and reads the store's JSON files whole.
// It never writes, never opens a name the core's allowlist refuses (secrets above all), and holds
// facts and offsets: a text is read again from disk when someone asks for it.

/** A tail or a header without a body is pending this long after the file's mtime; then torn. */
export const PENDING_WINDOW_MS = 10_000;
/** Listings and sizes are looked at again this often, in case a watcher event was lost. */
const RECONCILE_MS = 10_000;
const ROOT_POLL_MS = 1_000;
/** The first scan gives the event loop back this often. */
const SCAN_SLICE_MS = 8;

export type SeatFileState = {
  room: string;
  seat: string;
  /** `channels/<room>/<seat>.md`, relative to the root. */
  relative: string;
  reading: SeatFileReading;
  mark: AppendMark | null;
  mtimeMs: number;
  tornTimer: NodeJS.Timeout | null;
};

type RoomState = { room: string; files: Map<string, SeatFileState>; watcher: FSWatcher | null; files_: RoomFiles | null };

/** What changed, told at once; the source gathers these into notices. */
export type SacChange = { rooms: string[]; store: boolean };

type SacReaderStatus = { state: 'present' | 'missing' | 'unreadable'; why: string | null; indexing: Indexing };

export type SacReader = {
  root: string;
  status(): SacReaderStatus;
  store(): StoreFacts;
  /** Every room with its seat files, in room name order. */
  rooms(): RoomFiles[];
  room(room: string): RoomFiles | null;
  seatFile(room: string, seat: string): SeatFileState | null;
  /** Names directly in the root that are neither store files nor `channels` nor secrets. */
  strays(): string[];
  version(): number;
  /** Bumped when a room or a seat file comes or goes (not when one grows): what is listed of the store is kept while it holds. */
  layout(): number;
  /** A page found a file no longer as read: it is changed after read from now on. */
  noteChanged(room: string, seat: string, why: string): void;
  start(): Promise<void>;
  close(): Promise<void>;
};

type ReaderOptions = {
  root: string;
  onChange(change: SacChange): void;
  onStatus(): void;
  onError?: (message: string) => void;
  reconcileMs?: number;
};

const ABSENT: StoreFileInput = { state: 'absent' };

export function createSacReader(options: ReaderOptions): SacReader {
  const root = options.root;
  /** Per store file, a digest of what was read: enough to tell a change, and no text. */
  const digests = new Map<StoreFileName, string>();
  const allAbsent = Object.fromEntries(STORE_FILES.map((name) => [name, ABSENT])) as Record<StoreFileName, StoreFileInput>;
  let facts: StoreFacts = readStoreFiles(allAbsent);
  const rooms = new Map<string, RoomState>();
  let strays: string[] = [];
  let state: SacReaderStatus['state'] = 'missing';
  let why: string | null = null;
  let indexing: Indexing = { state: 'waiting', files: 0 };
  let version = 0;
  let layout = 0;
  let closed = false;
  let rootWatcher: FSWatcher | null = null;
  let channelsWatcher: FSWatcher | null = null;
  let reconcileTimer: NodeJS.Timeout | null = null;
  let rootPoll: NodeJS.Timeout | null = null;
  const errorsTold = new Set<string>();

  const tellError = (message: string) => {
    if (errorsTold.has(message)) return;
    errorsTold.add(message);
    options.onError?.(message);
  };
  const changed = (change: SacChange) => {
    version++;
    options.onChange(change);
  };
  const setStatus = (next: SacReaderStatus['state'], nextWhy: string | null, nextIndexing: Indexing = indexing) => {
    if (next === state && nextWhy === why && nextIndexing.state === indexing.state && nextIndexing.files === indexing.files) return;
    state = next;
    why = nextWhy;
    indexing = nextIndexing;
    version++;
    options.onStatus();
  };

  // ——— store files ———

  function readStoreFileNow(name: StoreFileName): boolean {
    const read = readStoreFile(root, name);
    const input: StoreFileInput = read.state === 'read' ? { state: 'read', bytes: read.bytes } : read;
    const digest = read.state === 'read' ? `read:${hash('sha1', read.bytes, 'hex')}` : read.state === 'unreadable' ? `unreadable:${read.why}` : 'absent';
    if (digests.get(name) === digest) return false;
    digests.set(name, digest);
    // Only this file's facts are read again; the bytes are dropped once read.
    const key = (Object.keys(STORE_FILE_OF) as (keyof StoreFacts)[]).find((candidate) => STORE_FILE_OF[candidate] === name)!;
    facts = { ...facts, [key]: readStoreFiles({ ...allAbsent, [name]: input })[key] };
    return true;
  }

  // ——— seat files ———

  function readSeat(room: RoomState, seat: string): boolean {
    if (closed) return false;
    let file = room.files.get(seat);
    const relative = seatFilePath(room.room, seat);
    if (file === undefined) {
      file = { room: room.room, seat, relative, reading: createSeatFileReading(room.room, seat), mark: null, mtimeMs: 0, tornTimer: null };
      room.files.set(seat, file);
      layout++;
    }
    const before = file.reading;
    if (before.problem?.code === 'changed-after-read') return false;
    const read = readAppended(allowedPath(root, relative), before.offset, file.mark, Number.MAX_SAFE_INTEGER);
    switch (read.type) {
      case 'read': {
        const passed = Date.now() - read.mtimeMs >= PENDING_WINDOW_MS;
        file.mtimeMs = read.mtimeMs;
        file.reading = readSeatFile(before, read.bytes, before.offset, { pendingWindowPassed: passed });
        if (file.reading.problem === null) file.mark = read.mark(file.reading.offset);
        break;
      }
      case 'changed':
        file.reading = noteSeatFileChanged(before, read.why);
        break;
      case 'missing':
        if (before.size === 0 && before.items.length === 0 && file.mark === null) {
          room.files.delete(seat);
          layout++;
          return true;
        }
        file.reading = noteSeatFileChanged(before, 'the file was removed after it was read; sac never removes a seat file');
        break;
      case 'not-a-file':
        file.reading = file.mark === null ? noteSeatFileUnreadable(before, read.what) : noteSeatFileChanged(before, `now ${read.what}`);
        break;
      case 'unreadable':
        file.reading = noteSeatFileUnreadable(before, read.why);
        break;
    }
    scheduleTornCheck(room, file);
    return file.reading !== before;
  }

  function scheduleTornCheck(room: RoomState, file: SeatFileState): void {
    if (file.tornTimer !== null) clearTimeout(file.tornTimer);
    file.tornTimer = null;
    if (closed || !awaitsWriter(file.reading)) return;
    // A future mtime says nothing of the age: it is looked at again after a whole window.
    const wait = Math.min(PENDING_WINDOW_MS, Math.max(0, file.mtimeMs + PENDING_WINDOW_MS - Date.now())) + 25;
    file.tornTimer = setTimeout(() => {
      file.tornTimer = null;
      if (rooms.get(room.room) !== room || room.files.get(file.seat) !== file) return;
      if (readSeat(room, file.seat)) roomChanged(room);
    }, wait);
    file.tornTimer.unref?.();
  }

  function roomChanged(room: RoomState): void {
    room.files_ = null;
    changed({ rooms: [room.room], store: false });
  }

  // ——— listings ———

  function kindOf(path: string): NameKind | null {
    try {
      const stat = lstatSync(path);
      return stat.isSymbolicLink() ? 'link' : stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : 'other';
    } catch {
      return null;
    }
  }

  /** Lists a room folder; returns whether anything a reader sees changed. */
  function listRoom(room: RoomState, statSizes: boolean): boolean {
    const folder = join(root, 'channels', room.room);
    let entries;
    try {
      entries = listFolder(folder);
    } catch (error) {
      tellError(`sac: room ${room.room} could not be listed: ${describeError(error as NodeJS.ErrnoException)}`);
      return false;
    }
    let any = false;
    const present = new Set<string>();
    for (const entry of entries) {
      if (entry.bytes !== undefined) continue;
      const kind: NameKind = entry.isFile() ? 'file' : entry.isDirectory() ? 'folder' : 'other';
      const name = classifySeatFile(entry.name, kind === 'other' ? (kindOf(join(folder, entry.name)) ?? 'other') : kind);
      if (name.role !== 'seat-file') continue;
      present.add(name.seat);
      const known = room.files.get(name.seat);
      if (known === undefined) any = readSeat(room, name.seat) || any;
      else if (statSizes && shouldReread(known, join(folder, entry.name))) any = readSeat(room, name.seat) || any;
    }
    for (const seat of room.files.keys()) if (!present.has(seat)) any = readSeat(room, seat) || any;
    return any;
  }

  function shouldReread(file: SeatFileState, path: string): boolean {
    if (file.reading.problem?.code === 'changed-after-read') return false;
    try {
      const stat = lstatSync(path);
      return stat.size !== file.reading.size || stat.mtimeMs !== file.mtimeMs || file.reading.problem !== null;
    } catch {
      return true;
    }
  }

  function watchRoom(room: RoomState): void {
    try {
      room.watcher = watch(join(root, 'channels', room.room), { persistent: false }, (_event, name) => {
        if (closed) return;
        const seatName = typeof name === 'string' ? classifySeatFile(name, 'file') : null;
        if (seatName === null) {
          if (listRoom(room, true)) roomChanged(room);
          return;
        }
        if (seatName.role !== 'seat-file') return;
        if (readSeat(room, seatName.seat)) roomChanged(room);
      });
      room.watcher.on('error', () => {
        room.watcher?.close();
        room.watcher = null;
        listChannels();
      });
    } catch (error) {
      tellError(`sac: room ${room.room} cannot be watched (${describeError(error as NodeJS.ErrnoException)}); it is read every ${RECONCILE_MS / 1000} s`);
    }
  }

  function dropRoom(room: RoomState): void {
    room.watcher?.close();
    for (const file of room.files.values()) if (file.tornTimer !== null) clearTimeout(file.tornTimer);
    rooms.delete(room.room);
    layout++;
  }

  /** Lists `channels/`; new rooms are read whole, gone ones (archived) leave the view. */
  function listChannels(readNew = true): string[] {
    const folder = join(root, 'channels');
    const found = new Set<string>();
    let entries;
    try {
      entries = kindOf(folder) === 'folder' ? listFolder(folder) : [];
    } catch (error) {
      tellError(`sac: channels/ could not be listed: ${describeError(error as NodeJS.ErrnoException)}`);
      return [];
    }
    for (const entry of entries) {
      if (entry.bytes !== undefined) continue;
      const kind: NameKind = entry.isDirectory() ? 'folder' : entry.isFile() ? 'file' : (kindOf(join(folder, entry.name)) ?? 'other');
      const name = classifyRoomFolder(entry.name, kind);
      if (name.role === 'room') found.add(name.room);
    }
    const touched: string[] = [];
    for (const room of [...rooms.values()]) {
      if (!found.has(room.room)) {
        dropRoom(room);
        touched.push(room.room);
      }
    }
    for (const name of [...found].sort()) {
      if (rooms.has(name)) continue;
      const room: RoomState = { room: name, files: new Map(), watcher: null, files_: null };
      rooms.set(name, room);
      layout++;
      watchRoom(room);
      if (readNew) listRoom(room, false);
      touched.push(name);
    }
    if (readNew && touched.length > 0) changed({ rooms: touched, store: false });
    return touched;
  }

  function listRoot(): boolean {
    let entries;
    try {
      entries = listFolder(root);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      setStatus(code === 'ENOENT' ? 'missing' : 'unreadable', describeError(error as NodeJS.ErrnoException));
      return false;
    }
    const next: string[] = [];
    for (const entry of entries) {
      // A secret's name is not listed either: it says which secrets exist.
      if (isSecretName(entry.name)) continue;
      // A writer's temporary is there for a moment, before it is renamed into place.
      if (/\.tmp\.\d+$/.test(entry.name)) continue;
      const kind: NameKind = entry.isDirectory() ? 'folder' : entry.isFile() ? 'file' : (kindOf(join(root, entry.name)) ?? 'other');
      const role = classifyStoreName(entry.name, kind).role;
      if (role === 'not-read' && !entry.name.startsWith('.')) next.push(entry.name);
    }
    next.sort();
    const strayChanged = next.join('\0') !== strays.join('\0');
    strays = next;
    return strayChanged;
  }

  function watchRoot(): void {
    try {
      rootWatcher = watch(root, { persistent: false }, (_event, name) => {
        if (closed) return;
        if (typeof name === 'string' && isSecretName(name)) return;
        if (name === 'channels') {
          watchChannels();
          listChannels();
          return;
        }
        const store = STORE_FILES.find((file) => file === name);
        if (store !== undefined) {
          if (readStoreFileNow(store)) changed({ rooms: [], store: true });
          return;
        }
        if (listRoot()) changed({ rooms: [], store: false });
      });
      rootWatcher.on('error', () => {
        rootWatcher?.close();
        rootWatcher = null;
        void lookForRoot();
      });
    } catch (error) {
      tellError(`sac: ${root} cannot be watched (${describeError(error as NodeJS.ErrnoException)}); it is read every ${RECONCILE_MS / 1000} s`);
    }
  }

  function watchChannels(): void {
    channelsWatcher?.close();
    channelsWatcher = null;
    try {
      channelsWatcher = watch(join(root, 'channels'), { persistent: false }, () => {
        if (!closed) listChannels();
      });
      channelsWatcher.on('error', () => {
        channelsWatcher?.close();
        channelsWatcher = null;
      });
    } catch {
      // No channels/ yet: the root's watcher tells when it comes.
    }
  }

  /** Everything looked at again: what a lost event would have told. */
  function reconcile(): void {
    if (closed) return;
    if (kindOf(root) !== 'folder') {
      void lookForRoot();
      return;
    }
    let store = false;
    for (const name of STORE_FILES) store = readStoreFileNow(name) || store;
    const strayChanged = listRoot();
    if (channelsWatcher === null) watchChannels();
    const touched = new Set(listChannels());
    for (const room of rooms.values()) {
      if (room.watcher === null) watchRoom(room);
      if (listRoom(room, true)) {
        room.files_ = null;
        touched.add(room.room);
      }
    }
    if (store || strayChanged || touched.size > 0) changed({ rooms: [...touched], store });
  }

  async function scan(): Promise<void> {
    setStatus('present', null, { state: 'scanning', files: 0 });
    for (const name of STORE_FILES) readStoreFileNow(name);
    listRoot();
    watchRoot();
    watchChannels();
    listChannels(false);
    let files = 0;
    let sliceStart = performance.now();
    for (const room of [...rooms.values()]) {
      if (closed) return;
      const folder = join(root, 'channels', room.room);
      let entries;
      try {
        entries = listFolder(folder);
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (entry.bytes !== undefined) continue;
        const name = classifySeatFile(entry.name, entry.isFile() ? 'file' : entry.isDirectory() ? 'folder' : (kindOf(join(folder, entry.name)) ?? 'other'));
        if (name.role !== 'seat-file' || room.files.has(name.seat)) continue;
        readSeat(room, name.seat);
        files++;
        if (performance.now() - sliceStart > SCAN_SLICE_MS) {
          indexing = { state: 'scanning', files };
          await yieldToLoop();
          if (closed) return;
          sliceStart = performance.now();
        }
      }
    }
    setStatus('present', null, { state: 'ready', files });
    // What came while the scan read is read now.
    reconcile();
    const every = options.reconcileMs ?? RECONCILE_MS;
    reconcileTimer = setInterval(reconcile, every);
    reconcileTimer.unref?.();
  }

  async function lookForRoot(): Promise<void> {
    if (closed || rootPoll !== null) return;
    if (reconcileTimer !== null) clearInterval(reconcileTimer);
    reconcileTimer = null;
    rootWatcher?.close();
    rootWatcher = null;
    channelsWatcher?.close();
    channelsWatcher = null;
    if (rooms.size > 0) {
      const gone = [...rooms.keys()];
      for (const room of [...rooms.values()]) dropRoom(room);
      changed({ rooms: gone, store: false });
    }
    const kind = kindOf(root);
    if (kind === 'folder') return scan();
    setStatus(kind === null ? 'missing' : 'unreadable', kind === null ? 'the folder does not exist (yet)' : 'not a folder', { state: 'waiting', files: 0 });
    rootPoll = setInterval(() => {
      if (kindOf(root) !== 'folder') return;
      if (rootPoll !== null) clearInterval(rootPoll);
      rootPoll = null;
      void scan().then(() => changed({ rooms: [...rooms.keys()], store: true }));
    }, ROOT_POLL_MS);
    rootPoll.unref?.();
  }

  return {
    root,
    status: () => ({ state, why, indexing }),
    store: () => facts,
    rooms() {
      return [...rooms.values()].sort((a, b) => (a.room < b.room ? -1 : a.room > b.room ? 1 : 0)).map(roomFiles);
    },
    room(name) {
      const room = rooms.get(name);
      return room === undefined ? null : roomFiles(room);
    },
    seatFile: (room, seat) => rooms.get(room)?.files.get(seat) ?? null,
    strays: () => strays,
    version: () => version,
    layout: () => layout,
    noteChanged(roomName, seat, changedWhy) {
      const room = rooms.get(roomName);
      const file = room?.files.get(seat);
      if (room === undefined || file === undefined || file.reading.problem?.code === 'changed-after-read') return;
      file.reading = noteSeatFileChanged(file.reading, changedWhy);
      roomChanged(room);
    },
    async start() {
      await lookForRoot();
    },
    async close() {
      closed = true;
      if (reconcileTimer !== null) clearInterval(reconcileTimer);
      if (rootPoll !== null) clearInterval(rootPoll);
      rootWatcher?.close();
      channelsWatcher?.close();
      for (const room of [...rooms.values()]) dropRoom(room);
    },
  };
}

/** A room's files as the core takes them; rebuilt only when the room changed. */
function roomFiles(room: RoomState): RoomFiles {
  room.files_ ??= { room: room.room, files: [...room.files.values()].map((file) => file.reading) };
  return room.files_;
}
