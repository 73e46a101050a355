import { SECRET_FILES } from '../../shared/sac/layout.ts';
import { adoptSeatFileReading, type PackedSeatFileReading } from '../../shared/sac/seatFile.ts';
import { startAppendScan, type AppendScan, type AppendScanThread, type AppendScanned } from '../watch/appendScan.ts';
import type { AppendMark } from '../watch/appendRead.ts';
import type { RoomState, RoomsContext, SeatFileState } from './sacRooms.ts';
import { allowedPath } from './storeOpen.ts';

// A first scan's line of seat files, read on two threads: this one from the front, a scan thread
// (server/watch/appendScan.ts) from the end, until they meet.

/** A seat file in the line a first scan reads. */
export type InLine = { room: RoomState; file: SeatFileState };

export type FirstScanReader = 'main' | 'thread' | 'left by thread';

type FirstScanContext = Pick<RoomsContext, 'root' | 'pending' | 'scanThreadFrom' | 'onError' | 'onFirstScanRead'> & {
  /** Reads a seat file here, as the rooms read any: what a thread left, or what was not handed to one. */
  readSeat(room: RoomState, seat: string): boolean;
  /** The seat file read before under another name that this one is (sacRooms.ts), else null: it is claimed. */
  otherNameOf(file: SeatFileState, mark: AppendMark): string | null;
};

export function createFirstScanLine(context: FirstScanContext) {
  const { root } = context;
  /** The scan thread, started once a line grew long enough, before the line is read. */
  let thread: AppendScanThread | null = null;
  /** Whether this line's thread was started (or failed to start): it is started once a line. */
  let threadTried = false;
  /** A line handed to its thread and not yet read here: the thread has been reading it meanwhile. */
  let handed: { line: InLine[]; scan: AppendScan | null; started: AppendScanThread | null } | null = null;

  /**
   * Starts the scan thread for a line being listed that is long enough for one
   * (`scanThreadFrom`): it starts up while the rest is listed and the store's files are read.
   */
  function startThread(): void {
    if (threadTried) return;
    threadTried = true;
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    thread = startAppendScan(
      { root, secretPrefixes: SECRET_FILES, reader: { module: new URL(`../../shared/sac/seatFile${ext}`, import.meta.url).href, name: 'packSeatFileReading' } },
      context.onError,
    );
  }

  /**
   * Hands a listed line to its scan thread, when it is long enough for one: the thread reads it
   * from its end from now on, while this thread still reads the store's own files. Returns the
   * scan, or null when this thread reads the line alone.
   */
  function handOver(line: InLine[]): AppendScan | null {
    if (handed?.line === line) return handed.scan;
    // Another line's thread, never read: it ends (a line is read once, by the walk that listed it).
    void handed?.started?.stop();
    if (line.length >= context.scanThreadFrom) startThread();
    const scan = line.length >= context.scanThreadFrom && thread !== null ? thread.read(line.map(({ file }) => allowedPath(root, file.relative))) : null;
    handed = { line, scan, started: thread };
    thread = null;
    threadTried = false;
    return scan;
  }

  /**
   * Reads a first scan's seat files: from the front of the line on this thread, in slices, and,
   * once the line is long enough, from its end on a scan thread (server/watch/appendScan.ts),
   * whose readings are adopted as they come. A file read here meanwhile (a watch told of it) is
   * newer than the thread's reading of it, which is dropped; whatever the thread left is read here.
   */
  function* readLine(line: InLine[]): Generator<Promise<unknown> | void> {
    const scan = handOver(line);
    const started = handed!.started;
    handed = null;
    const done = new Uint8Array(line.length);
    const adopt = (scanned: AppendScanned[]) => {
      for (const { index, read } of scanned) {
        if (read !== null && adoptReading(line[index]!, read)) done[index] = 1;
        context.onFirstScanRead?.(line[index]!.file.relative, read === null ? 'left by thread' : 'thread');
      }
    };
    const readHere = (index: number) => {
      context.readSeat(line[index]!.room, line[index]!.file.seat);
      done[index] = 1;
      context.onFirstScanRead?.(line[index]!.file.relative, 'main');
    };
    try {
      let at = 0;
      for (; at < line.length; at++) {
        if (scan !== null) {
          adopt(scan.take());
          if (!scan.claim(at)) break;
        }
        readHere(at);
        yield;
      }
      // The thread took the rest of the line: its readings are waited for, between answers.
      while (scan !== null && at < line.length && !scan.ended) {
        yield scan.arrival();
        adopt(scan.take());
      }
      if (scan !== null) adopt(scan.take());
      for (let index = at; index < line.length; index++) {
        if (done[index] === 1) continue;
        readHere(index);
        yield;
      }
    } finally {
      // A thread started for a line that was not read on it (it was cut short) ends too.
      void started?.stop();
    }
  }

  /** Takes a scan thread's reading of a file, unless it was read here meanwhile; says whether the file is done. */
  function adoptReading({ room, file }: InLine, read: NonNullable<AppendScanned['read']>): boolean {
    if (file.mark !== null || file.reading.size !== 0 || file.reading.problem !== null) return true;
    if (file.withheld !== null || room.lost !== null) return false;
    // Another name for a file read already: read here, where it is withheld and says whose it is.
    if (context.otherNameOf(file, read.mark) !== null) return false;
    file.reading = adoptSeatFileReading(room.room, file.seat, read.value as PackedSeatFileReading);
    file.mark = read.mark;
    file.mtimeMs = read.mtimeMs;
    room.version++;
    context.pending.settle(file.relative);
    return true;
  }

  /** Ends a thread started for a line that will not be read (the scan was cut short while listing, or before the line was read). */
  function stopThread(): void {
    void thread?.stop();
    void handed?.started?.stop();
    thread = null;
    handed = null;
    threadTried = false;
  }

  return { startThread, handOver, readLine, stopThread };
}
