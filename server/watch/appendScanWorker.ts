import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { readAppended } from './appendRead.ts';
import { createReadScratch } from './safeOpen.ts';
import { createSecretFiles } from './secretFiles.ts';
import type { AppendScanLine, AppendScanMessage, AppendScanReading, AppendScanned, AppendScanWork } from './appendScan.ts';

// A first-scan thread (started by appendScan.ts): starts up and loads the kind's core while the
// thread that started it lists the files, then takes the files of the line it is handed from its
// end, one at a time, while the thread that started it takes them from the front; reads each whole
// through the safe open, with the same rules (within the root, no link followed, never a secret,
// by name or by inode), has the kind's pure core make its reading, and hands readings over in
// batches, their buffers transferred. A file it cannot read, or whose reading the core declines
// (a tail still being written), is handed back unread: the main thread reads it by its own rules.

const CLAIMED_BY_THREAD = 2;
/** Files are handed over together: a message costs the receiving thread a turn of its event loop. */
const HAND_OVER_FILES = 32;

type Reader = (bytes: Uint8Array) => AppendScanReading | null;

/** The line, once the thread that started this one has listed it. */
function receiveLine(port: MessagePort): Promise<AppendScanLine> {
  return new Promise((resolve) => port.once('message', resolve));
}

async function runAppendScan(work: AppendScanWork, port: MessagePort): Promise<void> {
  const lineComing = receiveLine(port);
  const reader = ((await import(work.reader.module)) as Record<string, Reader>)[work.reader.name]!;
  const scratch = createReadScratch();
  const line = await lineComing;
  // Looked at once the line is listed: a secret made meanwhile is known by its inode too.
  const rules = { root: work.root, secrets: createSecretFiles([{ root: work.root, prefixes: work.secretPrefixes }]) };
  rules.secrets.look();
  const claims = new Int32Array(line.claims);
  let files: AppendScanned[] = [];
  let moved: ArrayBuffer[] = [];
  const post = (message: AppendScanMessage, transfer: ArrayBuffer[]) => port.postMessage(message, transfer);
  const handOver = () => {
    if (files.length > 0) post({ type: 'files', files }, moved);
    files = [];
    moved = [];
  };
  for (let index = line.paths.length - 1; index >= 0; index--) {
    // The main thread has it, and every file before it: the line is done.
    if (Atomics.compareExchange(claims, index, 0, CLAIMED_BY_THREAD) !== 0) break;
    const read = readAppended(line.paths[index]!, rules, 0, null, Number.MAX_SAFE_INTEGER, scratch);
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
if (parentPort !== null && workerData !== undefined) void runAppendScan(workerData as AppendScanWork, parentPort);
