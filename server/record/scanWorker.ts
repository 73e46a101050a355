import { readdirSync } from 'node:fs';
import { sep } from 'node:path';
import { Worker, parentPort, workerData } from 'node:worker_threads';
import { parseEntryName, type EntryName } from '../../shared/record/entryName.ts';
import type { Observation } from '../../shared/record/observation.ts';
import { lookAtFile } from './lookAtFile.ts';
import { describeError } from './readRecordFile.ts';

// A second core for the first scan. Reading an entry is mostly work in JavaScript (decoding,
// parsing, validating, fingerprinting), done once per file on one thread; this worker looks at
// the session folders and posts what it saw, and the watcher concludes from it as from its own
// looks, leaving the main thread free to answer and to watch. It reads, and never writes.

export type ScannedFile = { name: string; entryName: EntryName | null; seen: Observation; mtimeMs: number | null };

export type ScanMessage =
  /** One session folder: its files, or why it could not be listed. */
  | { type: 'folder'; sessionId: string; problem: string | null; gone: boolean; files: ScannedFile[] }
  | { type: 'done' };

export type ScanWork = { recordDir: string; sessionIds: string[] };

export type ScanInWorker = {
  /** Resolves with the folders the worker did not report: all of them if it could not run. */
  done: Promise<string[]>;
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
  let worker: Worker;
  try {
    // The scan's garbage is short-lived and small: a small young generation keeps the worker's
    // heap from adding to the process's peak (bench at 100k: 376 MB peak RSS without, 345 with).
    worker = new Worker(new URL(`./scanWorker${ext}`, import.meta.url), { workerData: work, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
  } catch (error) {
    onError(`scan worker: ${(error as Error).message}`);
    return { done: Promise.resolve([...unreported]), terminate: async () => {} };
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
    worker.on('exit', () => resolve([...unreported]));
  });
  return {
    done,
    async terminate() {
      stopped = true;
      await worker.terminate();
    },
  };
}

/** Looks at every file of the given session folders, posting each folder as it is done. */
export function scanFolders(work: ScanWork, post: (message: ScanMessage) => void): void {
  for (const sessionId of work.sessionIds) {
    const folder = `${work.recordDir}${sep}${sessionId}`;
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      const gone = err.code === 'ENOENT' || err.code === 'ENOTDIR';
      post({ type: 'folder', sessionId, problem: gone ? null : describeError(err), gone, files: [] });
      continue;
    }
    const files: ScannedFile[] = [];
    for (const name of names) {
      const entryName = parseEntryName(name);
      const { seen, mtimeMs } = lookAtFile(`${folder}${sep}${name}`, entryName);
      files.push({ name, entryName, seen, mtimeMs });
    }
    post({ type: 'folder', sessionId, problem: null, gone: false, files });
  }
  post({ type: 'done' });
}

// Run as the worker: started by scanInWorker with its share of the folders.
if (parentPort !== null && workerData !== undefined) {
  const port = parentPort;
  scanFolders(workerData as ScanWork, (message) => port.postMessage(message));
}
