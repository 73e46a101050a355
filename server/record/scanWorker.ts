import { sep } from 'node:path';
import { MessageChannel, MessagePort, Worker, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { parseEntryName, type EntryName } from '../../shared/record/entryName.ts';
import type { Observation } from '../../shared/record/observation.ts';
import { listFolder, pathIn, type FolderEntry } from '../watch/listFolder.ts';
import { lookAtFile } from './lookAtFile.ts';
import { describeError } from '../watch/describeError.ts';

// A second core for the first scan. Reading an entry is mostly work in JavaScript (decoding,
// parsing, validating, fingerprinting), done once per file on one thread; this worker looks at
// the session folders and posts what it saw, and the watcher concludes from it as from its own
// looks, leaving the main thread free to answer and to watch. It reads, and never writes.

type ScannedFile = { name: string; entryName: EntryName | null; seen: Observation; mtimeMs: number | null };

export type ScanMessage =
  /** One session folder: its files, or why it could not be listed; `soon` when it was asked for. */
  | { type: 'folder'; sessionId: string; problem: string | null; gone: boolean; files: ScannedFile[]; soon: boolean }
  | { type: 'done' };

type ScanWork = { recordDir: string; sessionIds: string[]; asks?: MessagePort };

export type ScanInWorker = {
  /** Resolves with the folders the worker did not report: all of them if it could not run. */
  done: Promise<string[]>;
  /**
   * Asks for a folder to be looked at before the next one in line (something stirred in it):
   * its look comes with `soon`, taken after the ask, even if the folder was looked at before.
   */
  askSoon(sessionId: string): void;
  terminate(): Promise<void>;
};

/**
 * Starts a worker thread on these session folders; `onFolder` is called for each as it
 * arrives. A worker that fails leaves its unreported folders for the caller to read itself:
 * it can cost time, never files.
 */
export function scanInWorker(work: ScanWork, onFolder: (message: Extract<ScanMessage, { type: 'folder' }>) => void, onError: (message: string) => void): ScanInWorker {
  const unreported = new Set(work.sessionIds);
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const asks = new MessageChannel();
  let worker: Worker;
  try {
    // The scan's garbage is short-lived and small: a small young generation keeps the worker's
    // heap from adding to the process's peak (bench at 100k: 376 MB peak RSS without, 345 with).
    worker = new Worker(new URL(`./scanWorker${ext}`, import.meta.url), {
      workerData: { ...work, asks: asks.port2 },
      transferList: [asks.port2],
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
  } catch (error) {
    onError(`scan worker: ${(error as Error).message}`);
    asks.port1.close();
    return { done: Promise.resolve([...unreported]), askSoon: () => {}, terminate: async () => {} };
  }
  let stopped = false;
  const done = new Promise<string[]>((resolve) => {
    worker.on('message', (message: ScanMessage) => {
      if (stopped) return;
      if (message.type === 'done') {
        void worker.terminate();
        return;
      }
      unreported.delete(message.sessionId);
      onFolder(message);
    });
    worker.on('error', (error) => onError(`scan worker: ${error.message}`));
    worker.on('exit', () => {
      asks.port1.close();
      resolve([...unreported]);
    });
  });
  return {
    done,
    askSoon: (sessionId) => asks.port1.postMessage(sessionId),
    async terminate() {
      stopped = true;
      await worker.terminate();
    },
  };
}

/**
 * Looks at every file of the given session folders, posting each folder as it is done; a folder
 * asked for meanwhile is looked at first, and not again in its turn.
 */
function scanFolders(work: ScanWork, post: (message: ScanMessage) => void): void {
  const lookedSoon = new Set<string>();
  for (const sessionId of work.sessionIds) {
    for (let ask = work.asks && receiveMessageOnPort(work.asks); ask !== undefined; ask = work.asks && receiveMessageOnPort(work.asks)) {
      const asked = ask.message as string;
      lookedSoon.add(asked);
      lookAtFolder(work.recordDir, asked, true, post);
    }
    if (!lookedSoon.has(sessionId)) lookAtFolder(work.recordDir, sessionId, false, post);
  }
  post({ type: 'done' });
}

function lookAtFolder(recordDir: string, sessionId: string, soon: boolean, post: (message: ScanMessage) => void): void {
  const folder = `${recordDir}${sep}${sessionId}`;
  let listed: FolderEntry[];
  try {
    listed = listFolder(folder);
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    const gone = err.code === 'ENOENT' || err.code === 'ENOTDIR';
    post({ type: 'folder', sessionId, problem: gone ? null : describeError(err), gone, files: [], soon });
    return;
  }
  const files: ScannedFile[] = [];
  for (const entry of listed) {
    const entryName = parseEntryName(entry.name);
    const { seen, mtimeMs } = lookAtFile(pathIn(folder, entry), entryName);
    files.push({ name: entry.name, entryName, seen, mtimeMs });
  }
  post({ type: 'folder', sessionId, problem: null, gone: false, files, soon });
}

// Run as the worker: started by scanInWorker with its share of the folders.
if (parentPort !== null && workerData !== undefined) {
  const port = parentPort;
  scanFolders(workerData as ScanWork, (message) => port.postMessage(message));
}
