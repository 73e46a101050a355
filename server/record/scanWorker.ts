import { sep } from 'node:path';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { parseEntryName, type EntryName } from '../../shared/record/entryName.ts';
import { readEntryFacts, type EntryReading } from '../../shared/record/entryFacts.ts';
import { describeError } from '../watch/describeError.ts';
import { listFolder, pathIn, type FolderEntry } from '../watch/listFolder.ts';
import { yieldToMainThread } from '../watch/threadPriority.ts';
import { lookAtFile, lookAtRead } from './lookAtFile.ts';
import { readRecordFile } from './readRecordFile.ts';
import { createLooksPacker, type ScannedFile } from './scanLooks.ts';
import type { FolderLooked, ScanShare, ScanThreadMessage } from './scanPool.ts';

// A scan thread (started by scanPool.ts): takes the next session folder in line until none is
// left, looks at each of its files, and hands the folder over packed. A folder asked for (a write
// in it waits for its notice) is looked at between two files of the folder in hand, and handed
// over at once on its own. It loads the schemas only when an entry is not in the form the plugin
// writes (a few in a record, if any): a thread that needs none of them starts in a fraction of
// the time. It reads, and never writes.

/**
 * Entries up to this size are read into one buffer kept for the purpose, not one a file. Not the
 * readers' 8 MiB `createReadScratch`: with it each scan thread kept the pages its few large
 * entries touched, and the 100k scan peaked 8–11 MB higher (190–193 against 180–182 MB).
 */
const SCRATCH_BYTES = 1 << 20;
/** Folders in line are handed over together once they hold this many files. */
const HAND_OVER_FILES = 1_000;
/**
 * Entries only the schemas can read, left to the thread that concludes (which has them loaded)
 * before this thread loads them itself: loading zod cost a thread ~100 ms, for a record that may
 * hold a few such entries or none; a record of nothing else is read here all the same.
 */
const LEFT_TO_CONCLUDE = 64;

/** The files an asked folder's packer is made for at first: a session's folder holds a few hundred. */
const ASKED_FILES = 256;

type Schemas = typeof import('../../shared/record/entry.ts');
type Batch = { packer: ReturnType<typeof createLooksPacker>; folders: FolderLooked[] };

function createScanThread(share: ScanShare, post: (message: ScanThreadMessage, moved: ArrayBuffer[]) => void) {
  const next = new Int32Array(share.queue, 0, 1);
  const claims = new Int32Array(share.queue, 4);
  const scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  /** The folders looked at in line, not handed over yet; and an asked folder's look, handed over at once. */
  const inLine: Batch = { packer: createLooksPacker(HAND_OVER_FILES * 2), folders: [] };
  const asked: Batch = { packer: createLooksPacker(ASKED_FILES), folders: [] };

  function handOver(batch: Batch): void {
    if (batch.folders.length === 0) return;
    const looks = batch.packer.take();
    post({ type: 'folders', folders: batch.folders, looks }, [looks.numbers.buffer as ArrayBuffer, looks.ends.buffer as ArrayBuffer]);
    batch.folders = [];
  }
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  let schemas: Schemas | null = null;
  let left = 0;

  /**
   * Looks at one file; null when its entry is not in the plugin's form and the schemas are not
   * loaded yet (then it is looked at again once they are: a look a file is not worth a wait).
   */
  function look(path: string | Buffer, entryName: EntryName | null): Pick<ScannedFile, 'seen' | 'mtimeMs'> | null {
    if (entryName === null) return lookAtFile(path, null, failUnread);
    const read = readRecordFile(path, scratch);
    let reading: EntryReading | null = null;
    if (read.type === 'bytes') {
      const first = readEntryFacts(read.bytes);
      if (first.outcome !== 'unchecked') reading = first;
      else if (schemas === null) return null;
      else reading = schemas.checkEntry(first.kind, first.value, first.source);
    }
    return lookAtRead(read, () => reading!);
  }

  async function lookAtFolder(sessionId: string, soon: boolean): Promise<void> {
    const batch = soon ? asked : inLine;
    const folder = `${share.recordDir}${sep}${sessionId}`;
    let listed: FolderEntry[];
    try {
      listed = listFolder(folder);
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      const gone = err.code === 'ENOENT' || err.code === 'ENOTDIR';
      batch.folders.push({ sessionId, problem: gone ? null : describeError(err), gone, soon, files: 0 });
      if (soon) handOver(asked);
      return;
    }
    const { packer } = batch;
    for (const entry of listed) {
      // An ask that came meanwhile is answered before this folder's next file: a folder of 200
      // files took a scan thread the CPU left to it for up to half a second, its notice with it.
      if (!soon && asksCame()) await answerAsks(sessionId);
      const entryName = entry.bytes === undefined ? parseEntryName(entry.name) : null;
      const path = pathIn(folder, entry);
      let seen = look(path, entryName);
      if (seen === null && left++ >= LEFT_TO_CONCLUDE) {
        schemas = (await import(new URL(`../../shared/record/entry${ext}`, import.meta.url).href)) as Schemas;
        seen = look(path, entryName)!;
      }
      packer.add({ name: entry.name, entryName, seen: seen?.seen ?? null, mtimeMs: seen?.mtimeMs ?? null });
    }
    batch.folders.push({ sessionId, problem: null, gone: false, soon, files: listed.length });
    // An asked folder's notice waits for it: it goes at once.
    if (soon) handOver(asked);
    else if (packer.count >= HAND_OVER_FILES) handOver(inLine);
  }

  /** The asks that came, each answered in turn: one look at a time, with one scratch buffer. */
  let answering = Promise.resolve();
  const begun = new Int32Array(share.asksBegun);
  const sent = new Int32Array(share.asksSent);
  let received = 0;
  /** Asks received and not answered yet, in the order they were sent. */
  const waiting: string[] = [];
  const answer = (sessionId: string) =>
    (answering = answering.then(() => {
      // Counted before the folder is listed: an ask made after this is not answered by this look.
      Atomics.add(begun, share.thread, 1);
      return lookAtFolder(sessionId, true);
    }));
  /** Whether an ask was sent that is not received yet: a look at shared memory, no more, between two files. */
  const asksCame = () => Atomics.load(sent, share.thread) !== received;
  /**
   * Answers the asks that came, in the order they were sent. An asked look must come after the
   * folder's look in line: for a folder looked at in line and not handed over yet, those looked
   * at in line go first. In the middle of a folder (`inHand`), they cannot (the folder in hand is
   * packed with them): such an ask waits for the folder in hand to end, as does one for the folder
   * in hand, and the asks after it with it (they begin in turn, as counted in `begun`).
   */
  async function answerAsks(inHand: string | null = null): Promise<void> {
    for (let ask = receiveMessageOnPort(share.asks); ask !== undefined; ask = receiveMessageOnPort(share.asks)) {
      received++;
      waiting.push(ask.message as string);
    }
    while (waiting.length > 0) {
      const sessionId = waiting[0]!;
      if (sessionId === inHand || inLine.folders.some((folder) => folder.sessionId === sessionId)) {
        if (inHand !== null) return;
        handOver(inLine);
      }
      waiting.shift();
      await answer(sessionId);
    }
  }

  return {
    async run(): Promise<void> {
      if (share.startedAsEqual) yieldToMainThread();
      for (;;) {
        await answerAsks();
        const at = Atomics.add(next, 0, 1);
        if (at >= share.sessionIds.length) break;
        // Taken already: asked of a thread out of turn.
        if (Atomics.compareExchange(claims, at, 0, share.thread + 1) !== 0) continue;
        await lookAtFolder(share.sessionIds[at]!, false);
      }
      handOver(inLine);
      post({ type: 'done' }, []);
      // Asks are answered until the scan ends and the thread with it.
      share.asks.on('message', (sessionId: string) => void answer(sessionId));
    },
  };
}

/** A stray is stat'ed, never read. */
function failUnread(): never {
  throw new Error('a stray is never read');
}

// Run as a scan thread.
if (parentPort !== null && workerData !== undefined) {
  const port = parentPort;
  void createScanThread(workerData as ScanShare, (message, moved) => port.postMessage(message, moved)).run();
}
