import { parentPort } from 'node:worker_threads';
import { readWhole, type FileRead, type OpenRules } from './safeOpen.ts';
import { yieldToMainThread } from './threadPriority.ts';

// A thread that reads a batch of whole files through the one safe open (safeOpen.ts: no link
// followed, a regular file only, within the root, within the size), so that an export's opens,
// fstats, reads and closes (most of its time on the event loop) run beside the loop rather than
// on it: the loop escapes and sends one batch while this thread reads the next. It reads, and
// never writes. A store with secrets is never read here: the rules sent name a root and a size.

export type ReadFilesRequest = { type: 'read-files'; paths: string[]; rules: Pick<OpenRules, 'root' | 'maxBytes'> };

/** A read as safeOpen gives it, its bytes moved into the reply's one buffer at `[at, at + length)`. */
type FileReadAt = Exclude<FileRead, { type: 'bytes' }> | (Omit<Extract<FileRead, { type: 'bytes' }>, 'bytes'> & { at: number; length: number });

export type ReadFilesReply = { type: 'read-files'; reads: FileReadAt[]; buffer: ArrayBuffer };

function readFiles(request: ReadFilesRequest): { reply: ReadFilesReply; transfer: ArrayBuffer[] } {
  const reads = request.paths.map((path) => readWhole(path, request.rules));
  let total = 0;
  for (const read of reads) if (read.type === 'bytes') total += read.bytes.length;
  const buffer = new ArrayBuffer(total);
  const into = new Uint8Array(buffer);
  let at = 0;
  const placed = reads.map((read): FileReadAt => {
    if (read.type !== 'bytes') return read;
    const { bytes, ...rest } = read;
    into.set(bytes, at);
    at += bytes.length;
    return { ...rest, at: at - bytes.length, length: bytes.length };
  });
  return { reply: { type: 'read-files', reads: placed, buffer }, transfer: [buffer] };
}

if (parentPort !== null) {
  // Two batches are read side by side on the lane's two threads: as the main thread's equals they
  // took the CPU from it while it answered others (a 404 beside an export at p95 54–83 ms, not 12–31).
  yieldToMainThread();
  const port = parentPort;
  port.on('message', (request: ReadFilesRequest) => {
    try {
      const { reply, transfer } = readFiles(request);
      port.postMessage(reply, transfer);
    } catch (error) {
      port.postMessage({ type: 'failed', message: (error as Error).message });
    }
  });
  port.postMessage({ type: 'ready' });
}
