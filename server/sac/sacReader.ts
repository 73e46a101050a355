import { join, sep } from 'node:path';
import type { PendingWindow } from '../../shared/evidence.ts';
import type { Indexing } from '../../shared/wire/common.ts';
import { STORE_FILES, classifyStoreName, isSecretName, type NameKind, type StoreFileName } from '../../shared/sac/layout.ts';
import type { RoomFiles } from '../../shared/sac/seat.ts';
import { STORE_FILE_OF, readStoreFile, readStoreFiles, type StoreFacts, type StoreFileInput } from '../../shared/sac/storeFiles.ts';
import { listStoreFolder } from '../watch/listFolder.ts';
import { createPendingTails } from '../watch/pendingTails.ts';
import { createSettledReads } from '../watch/settledReads.ts';
import type { Stirred } from '../watch/stirBatch.ts';
import { createStoreWatch, type StoreWalker } from '../watch/storeWatch.ts';
import { createSacRooms, filesOf, type SeatFileState } from './sacRooms.ts';
import type { FirstScanReader, InLine } from './sacFirstScan.ts';
import { storeRules } from './storeOpen.ts';
import type { OpenRules } from '../watch/safeOpen.ts';

// The file-system shell of a set-agent-comm store: the shared watch loop (server/watch/
// storeWatch.ts) over the root, `channels/` and each room (sacRooms.ts); seat files read from the
// offset the core remembers (appends only, up to the last `\n`); the store's JSON files read whole
// once a rewrite settles, a large one off the event loop (server/watch/settledReads.ts). It never
// writes, never opens a name the core's allowlist refuses nor a file that is a secret under another
// name, and holds facts and offsets: a text is read again from disk when someone asks for it.

export type { SeatFileState };

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
  /** Names that are neither store files nor rooms nor secrets, directly in the root or in `channels/`: listed, never read. */
  strays(): string[];
  /** The names of the rooms retired to `channels/.archive/`: listed, never read. */
  archived(): ReadonlySet<string>;
  version(): number;
  /** Bumped when a room or a seat file comes or goes (not when one grows): what is listed of the store is kept while it holds. */
  layout(): number;
  /** A page found a file no longer as read: it is changed after read from now on. */
  noteChanged(room: string, seat: string, why: string): void;
  start(): Promise<void>;
  close(): Promise<void>;
};

type ReaderOptions = PendingWindow & {
  root: string;
  onChange(change: SacChange): void;
  onStatus(): void;
  onError?: (message: string) => void;
  reconcileMs?: number;
  /** A first scan reads seat files on a second thread too once there are this many (SCAN_THREAD_FROM). */
  scanThreadFrom?: number;
  /** Told of each seat file a first scan reads, and by which thread (a test's window on the scan thread). */
  onFirstScanRead?: (relative: string, by: FirstScanReader) => void;
};

/** Listings and sizes are looked at again at least this often, in case a watcher event was lost. */
const RECONCILE_MS = 10_000;
/**
 * A first scan of fewer seat files reads them all on the main thread: a scan thread takes longer
 * to start (~0.1 s of a core) than this thread takes to read them, and would find the line read.
 */
const SCAN_THREAD_FROM = 64;
const ABSENT: StoreFileInput = { state: 'absent' };
/** A writer's temporary (`<file>.tmp.<pid>`): there for a moment, before it is renamed into place. */
const TEMPORARY = /\.tmp\.\d+$/;
const KEY_OF = new Map((Object.keys(STORE_FILE_OF) as (keyof StoreFacts)[]).map((key) => [STORE_FILE_OF[key], key]));

export function createSacReader(options: ReaderOptions): SacReader {
  const root = options.root;
  const rules = storeRules(root);
  const channels = join(root, 'channels');
  const allAbsent = Object.fromEntries(STORE_FILES.map((name) => [name, ABSENT])) as Record<StoreFileName, StoreFileInput>;
  let facts: StoreFacts = readStoreFiles(allAbsent);
  let rootStrays: string[] = [];
  let version = 0;
  let layout = 0;

  const tell = (change: SacChange) => {
    version++;
    // What the first scan reads is told once, when it is done.
    if (!watch.scanning()) options.onChange(change);
  };
  const storeFiles = createSettledReads({
    rules,
    parse: (name, input) => readStoreFile(name as StoreFileName, input),
    parser: { module: new URL(`../../shared/sac/storeFiles${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href, name: 'readStoreFile' },
    onRead(name, value) {
      facts = { ...facts, [KEY_OF.get(name as StoreFileName)!]: value };
      tell({ rooms: [], store: true });
    },
    onError: (message) => options.onError?.(`sac: ${message}`),
  });
  const pending = createPendingTails((relative) => {
    const found = rooms.fileOf(relative);
    if (found !== null && rooms.readSeat(found.room, found.seat)) tell({ rooms: [found.room.room], store: false });
  }, options.pendingWindowMs);
  const rooms = createSacRooms({
    root,
    rules,
    pending,
    watch: (folder) => watch.watch(folder),
    unwatchUnder: (folder) => watch.unwatchUnder(folder),
    onLayout: () => layout++,
    scanThreadFrom: options.scanThreadFrom ?? SCAN_THREAD_FROM,
    onError: (message) => options.onError?.(`sac: ${message}`),
    ...(options.onFirstScanRead !== undefined ? { onFirstScanRead: options.onFirstScanRead } : {}),
  });

  /** Lists the root: what is in it that is not read. Says whether that changed. */
  function listRoot(): boolean {
    watch.watch(root);
    const listing = listStoreFolder(root, root);
    if (listing.type !== 'listed') return false;
    const next: string[] = [];
    for (const entry of listing.entries) {
      // A secret's name is not listed either: it says which secrets exist.
      if (isSecretName(entry.name) || TEMPORARY.test(entry.name)) continue;
      const kind: NameKind = entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'folder' : entry.isFile() ? 'file' : 'other';
      if (classifyStoreName(entry.name, kind).role === 'not-read' && !entry.name.startsWith('.')) next.push(entry.name);
    }
    next.sort();
    const changed = next.join('\0') !== rootStrays.join('\0');
    rootStrays = next;
    return changed;
  }

  const taking: TakeContext = { root, channels, rules, rooms, storeFiles, listRoot, tell };

  const walker: StoreWalker = {
    *walk() {
      rules.secrets?.look();
      const strays = listRoot();
      // A first scan lists the rooms' seat files in a line first, then reads the store's files,
      // then the line: a scan thread started for a long line starts up while the rest is listed,
      // and is handed the line as soon as it is listed, to read from its end while the store's
      // files are read here.
      const line: InLine[] | undefined = watch.scanning() ? [] : undefined;
      try {
        const touched = new Set(yield* rooms.listChannels(true, line));
        if (line !== undefined) rooms.handOverLine(line);
        // The first scan reads them now (ready means read); a reconcile only asks, as an event would.
        for (const name of STORE_FILES) {
          if (line === undefined) {
            storeFiles.touch(join(root, name), name);
            continue;
          }
          const reading = storeFiles.readNow(join(root, name), name);
          if (reading !== null) yield reading;
        }
        if (line !== undefined) yield* rooms.readLine(line);
        // A room listChannels found new it has just listed and read whole: it is not listed twice.
        for (const room of [...rooms.rooms.values()]) if (!touched.has(room.room) && (yield* rooms.listRoom(room, false))) touched.add(room.room);
        if (strays || touched.size > 0) tell({ rooms: [...touched], store: false });
      } finally {
        // A scan cut short while listing leaves no thread waiting for its line.
        rooms.stopThread();
      }
    },
    take: (stirred, scanning) => takeStirred(taking, stirred, scanning),
    forget() {
      facts = readStoreFiles(allAbsent);
      rootStrays = [];
      const gone = rooms.forgetAll();
      tell({ rooms: gone, store: true });
    },
    count: () => rooms.count(),
    beforeReady() {
      // Everything the scan read is told at once: whatever was made of the store before is made again.
      version++;
      options.onChange({ rooms: [...rooms.rooms.keys()], store: true });
    },
  };

  const watch = createStoreWatch({
    root,
    walker,
    onStatus: options.onStatus,
    reconcileMs: options.reconcileMs ?? RECONCILE_MS,
    ...(options.onError !== undefined ? { onError: (message: string) => options.onError!(`sac: ${message}`) } : {}),
  });

  return {
    root,
    status: () => watch.status(),
    store: () => facts,
    rooms: () => [...rooms.rooms.values()].sort((a, b) => (a.room < b.room ? -1 : a.room > b.room ? 1 : 0)).map(filesOf),
    room(name) {
      const room = rooms.rooms.get(name);
      return room === undefined ? null : filesOf(room);
    },
    seatFile: (room, seat) => rooms.rooms.get(room)?.files.get(seat) ?? null,
    strays: () => [...rootStrays, ...rooms.strays()],
    archived: () => rooms.archived(),
    version: () => version,
    layout: () => layout,
    noteChanged(roomName, seat, why) {
      const room = rooms.rooms.get(roomName);
      const file = room?.files.get(seat);
      if (room !== undefined && file !== undefined && rooms.noteChanged(room, file, why)) tell({ rooms: [roomName], store: false });
    },
    start: () => watch.start(),
    async close() {
      storeFiles.close();
      pending.close();
      await watch.close();
    },
  };
}

/** What taking the watches' news works with: the reader's parts, and how it tells a change. */
type TakeContext = {
  root: string;
  channels: string;
  rules: OpenRules;
  rooms: ReturnType<typeof createSacRooms>;
  storeFiles: ReturnType<typeof createSettledReads>;
  /** Lists the root again; whether what is in it and not read changed. */
  listRoot: () => boolean;
  tell: (change: SacChange) => void;
};

/** What the watches saw: store files, `channels/`, a room, and the root's own names; what waits for the scan. */
function takeStirred(context: TakeContext, stirred: Stirred, scanning: boolean): Stirred | void {
  const { root, channels, rules, rooms, storeFiles, listRoot, tell } = context;
  const left: Stirred = new Map();
  const touched = new Set<string>();
  let store = false;
  for (const [folder, names] of stirred) {
    const room = rooms.roomOf(folder);
    if (room !== null) {
      let list = false;
      for (const name of names) {
        const seat = name !== null && name.endsWith('.md') && !name.includes(sep) ? name.slice(0, -'.md'.length) : null;
        if (seat === null || !room.files.has(seat)) list = true;
        else if (rooms.readSeat(room, seat)) touched.add(room.room);
      }
      if (list && drain(rooms.listRoom(room, false))) touched.add(room.room);
    } else if (scanning) {
      left.set(folder, names);
    } else if (folder === channels) {
      for (const name of drain(rooms.listChannels(true))) touched.add(name);
    } else if (folder === root) {
      for (const name of names) {
        const file = STORE_FILES.find((candidate) => candidate === name);
        // A writer's temporary, written in pieces: its rename into place is what is read.
        if (name !== null && TEMPORARY.test(name)) continue;
        if (name !== null && isSecretName(name)) rules.secrets?.look();
        else if (file !== undefined) storeFiles.touch(join(root, file), file);
        else if (name !== 'channels') store = listRoot() || store;
        // The root's names are told only by a listing: every store file may have changed.
        if (name === null) for (const each of STORE_FILES) storeFiles.touch(join(root, each), each);
        if (name === null || name === 'channels') for (const touchedRoom of drain(rooms.listChannels(true))) touched.add(touchedRoom);
      }
    }
  }
  if (touched.size > 0 || store) tell({ rooms: [...touched], store: false });
  return left.size > 0 ? left : undefined;
}

/** Runs a walk of the rooms in one go (an event's listing); its result. */
function drain<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}
