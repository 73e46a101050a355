import { parentPort, workerData } from 'node:worker_threads';
import { createReadScratch, readAppended } from './appendRead.ts';
import { createSecretFiles } from './secretFiles.ts';
import type { AppendScanMessage, AppendScanReading, AppendScanned, AppendScanShare } from './appendScan.ts';

// A first-scan thread (started by appendScan.ts): takes the files of the line from its end, one
// at a time, while the thread that started it takes them from the front; reads each whole
// through the safe open, with the same rules (within the root, no link followed, never a secret,
// by name or by inode), has the kind's pure core make its reading, and hands readings over in
// batches, their buffers transferred. A file it cannot read, or whose reading the core declines
// (a tail still being written), is handed back unread: the main thread reads it by its own rules.

const CLAIMED_BY_THREAD = 2;
/** Files are handed over together: a message costs the receiving thread a turn of its event loop. */
const HAND_OVER_FILES = 32;

async function runAppendScan(share: AppendScanShare, post: (message: AppendScanMessage, moved: ArrayBuffer[]) => void): Promise<void> {
  const claims = new Int32Array(share.claims);
  const rules = { root: share.root, secrets: createSecretFiles(share.root, share.secretNames) };
  rules.secrets.look();
  const reader = ((await import(share.reader.module)) as Record<string, (bytes: Uint8Array) => AppendScanReading | null>)[share.reader.name]!;
  const scratch = createReadScratch();
  let files: AppendScanned[] = [];
  let moved: ArrayBuffer[] = [];
  const handOver = () => {
    if (files.length > 0) post({ type: 'files', files }, moved);
    files = [];
    moved = [];
  };
  for (let index = share.paths.length - 1; index >= 0; index--) {
    // The main thread has it, and every file before it: the line is done.
    if (Atomics.compareExchange(claims, index, 0, CLAIMED_BY_THREAD) !== 0) break;
    const read = readAppended(share.paths[index]!, rules, 0, null, Number.MAX_SAFE_INTEGER, scratch);
    const reading = read.type === 'bytes' ? reader(read.bytes) : null;
    if (read.type !== 'bytes' || reading === null) {
      files.push({ index, read: null });
    } else {
      files.push({ index, read: { value: reading.value, mark: read.mark(reading.offset), mtimeMs: read.mtimeMs } });
      moved.push(...reading.transfer);
    }
    if (files.length >= HAND_OVER_FILES) handOver();
  }
  handOver();
  post({ type: 'done' }, []);
}

// Run as a first-scan thread.
if (parentPort !== null && workerData !== undefined) {
  const port = parentPort;
  void runAppendScan(workerData as AppendScanShare, (message, moved) => port.postMessage(message, moved));
}
