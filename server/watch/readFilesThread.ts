import { parentPort } from 'node:worker_threads';
import { makeJsonText } from './jsonText.ts';
import { readWhole, type FileRead, type OpenRules } from './safeOpen.ts';
import { yieldToMainThread } from './threadPriority.ts';

// A thread that reads a batch of whole files through the one safe open (safeOpen.ts: no link
// followed, a regular file only, within the root, within the size), so that an export's opens,
// fstats, reads and closes (most of its time on the event loop) run beside the loop rather than
// on it: the loop escapes and sends one batch while this thread reads the next. It reads, and
// never writes. A store with secrets is never read here: the rules sent name a root and a size.
//
// Asked for JSON (`asJson`), it also does each file's work the export did on the loop: the kind's
// fingerprint of the bytes (a module of the kind's, loaded by its place, as appendScanWorker.ts
// loads a reader), and the bytes made a JSON string value (jsonText.ts), so that the loop
// compares two numbers and copies.

/** A kind's function of a file's bytes, by its module's place and its name. */
type FingerprintBy = { module: string; name: string };

export type ReadFilesRequest = { type: 'read-files'; paths: string[]; rules: Pick<OpenRules, 'root' | 'maxBytes'>; asJson?: { fingerprint: FingerprintBy } };

/**
 * A read as safeOpen gives it, its bytes moved into the reply's one buffer at `[at, at + length)`;
 * asked for JSON, those are the JSON text of the bytes (jsonText.ts, latin1), and `json` says
 * whether it is their base64 and gives their fingerprint.
 */
export type FileReadAt =
  | Exclude<FileRead, { type: 'bytes' }>
  | (Omit<Extract<FileRead, { type: 'bytes' }>, 'bytes'> & { at: number; length: number; json?: { base64: boolean; fingerprint: number } });

export type ReadFilesReply = { type: 'read-files'; reads: FileReadAt[]; buffer: ArrayBuffer };

type Fingerprint = (bytes: Uint8Array) => number;
const fingerprints = new Map<string, Promise<Fingerprint>>();

function loadFingerprint(by: FingerprintBy): Promise<Fingerprint> {
  const key = `${by.module}#${by.name}`;
  let loading = fingerprints.get(key);
  if (loading === undefined) {
    loading = import(by.module).then((module: Record<string, Fingerprint>) => {
      const fingerprint = module[by.name];
      if (typeof fingerprint !== 'function') throw new Error(`${by.module} has no function ${by.name}`);
      return fingerprint;
    });
    fingerprints.set(key, loading);
  }
  return loading;
}

async function readFiles(request: ReadFilesRequest): Promise<{ reply: ReadFilesReply; transfer: ArrayBuffer[] }> {
  const fingerprint = request.asJson === undefined ? null : await loadFingerprint(request.asJson.fingerprint);
  const reads = request.paths.map((path) => {
    const read = readWhole(path, request.rules);
    if (read.type !== 'bytes' || fingerprint === null) return { read, json: null };
    return { read, json: { ...makeJsonText(read.bytes), fingerprint: fingerprint(read.bytes) } };
  });
  let total = 0;
  for (const { read, json } of reads) if (read.type === 'bytes') total += json === null ? read.bytes.length : json.json.length;
  const buffer = new ArrayBuffer(total);
  const into = Buffer.from(buffer);
  let at = 0;
  const placed = reads.map(({ read, json }): FileReadAt => {
    if (read.type !== 'bytes') return read;
    const { bytes, ...rest } = read;
    const from = at;
    if (json === null) {
      into.set(bytes, at);
      at += bytes.length;
      return { ...rest, at: from, length: bytes.length };
    }
    at += into.write(json.json, at, 'latin1');
    return { ...rest, at: from, length: at - from, json: { base64: json.base64, fingerprint: json.fingerprint } };
  });
  return { reply: { type: 'read-files', reads: placed, buffer }, transfer: [buffer] };
}

if (parentPort !== null) {
  // Two batches are read side by side on the lane's two threads: as the main thread's equals they
  // took the CPU from it while it answered others (a 404 beside an export at p95 54–83 ms, not 12–31).
  yieldToMainThread();
  const port = parentPort;
  port.on('message', (request: ReadFilesRequest) => {
    readFiles(request).then(
      ({ reply, transfer }) => port.postMessage(reply, transfer),
      (error: unknown) => port.postMessage({ type: 'failed', message: (error as Error).message }),
    );
  });
  port.postMessage({ type: 'ready' });
}
