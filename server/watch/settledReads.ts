import { hash } from 'node:crypto';
import { closeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { openSafely, readInto, type OpenRules } from './safeOpen.ts';
import { SLICED, type WholeReadMessage, type WholeReadRequest } from './wholeReadWorker.ts';

// Files written whole and renamed into place (a store's JSON files), which a writer may write
// again and again. Each rewrite is not read as it comes: a file is read once it has settled (no
// rewrite for a while), or at the latest a while after its first unread rewrite, and never sooner
// after its last read than a few times what that read cost, so a file rewritten five times a
// second costs a small share of a core however large it is. The last rewrite is always read in
// the end. A large file is read and parsed by a worker thread, off the event loop, and what it
// made is taken in a slice at a time.

/** What was found at a file's name, as a core's parser takes it. */
type WholeInput = { state: 'absent' } | { state: 'unreadable'; why: string } | { state: 'read'; bytes: Uint8Array };

type SettledReadsOptions<T> = {
  rules: OpenRules;
  /** A pure function of the file's name and what was found: run here for a small file. */
  parse(name: string, input: WholeInput): T;
  /** The same function as a worker imports it: its module's URL and its export's name. */
  parser: { module: string; name: string };
  /** What a read made, told only when what was found differs from the last read. */
  onRead(name: string, value: T): void;
  onError?: (message: string) => void;
};

type SettledReads = {
  /** The file at `path` (called `name`) may have changed: it is read once it settles. */
  touch(path: string, name: string): void;
  /** Reads it now, whatever the last read cost: a promise while a worker reads it. */
  readNow(path: string, name: string): Promise<void> | null;
  close(): void;
};

/** Files up to this size are read and parsed here: a worker costs more than they do. */
const READ_HERE_MAX_BYTES = 1024 * 1024;
/** A file larger than this is not read at all: no store writes such a file. */
const MAX_BYTES = 512 * 1024 * 1024;
/** A rewrite settles after this long without another, or what the last read cost. */
const SETTLE_MS = 25;
/** A file that never settles is read at the latest this long after its first unread rewrite, or 10 times what the last read cost. */
const LONGEST_WAIT_MS = 1_000;
/** Between two reads of one file, at least this many times what the last one cost: a fifth of a core at most. */
const COST_SHARE = 4;

type FileState = {
  path: string;
  name: string;
  /** What the last read found: a digest of the bytes, or why there were none. */
  found: string | null;
  /** The CPU the last read took, on the thread that read it: a loaded machine's waits do not count. */
  costMs: number;
  endedAt: number;
  /** The first rewrite not read yet, and the last. */
  touchedFirst: number | null;
  touchedLast: number;
  timer: NodeJS.Timeout | null;
  reading: Promise<void> | null;
};

export function createSettledReads<T>(options: SettledReadsOptions<T>): SettledReads {
  const files = new Map<string, FileState>();
  const workers = new Set<Worker>();
  let closed = false;

  function stateOf(path: string, name: string): FileState {
    let file = files.get(name);
    if (file === undefined) files.set(name, (file = { path, name, found: null, costMs: 0, endedAt: 0, touchedFirst: null, touchedLast: 0, timer: null, reading: null }));
    file.path = path;
    return file;
  }

  function arm(file: FileState): void {
    if (closed || file.touchedFirst === null) return;
    const settled = file.touchedLast + Math.max(SETTLE_MS, file.costMs);
    const latest = file.touchedFirst + Math.max(LONGEST_WAIT_MS, 10 * file.costMs);
    const at = Math.max(Math.min(settled, latest), file.endedAt + COST_SHARE * file.costMs);
    if (file.timer !== null) clearTimeout(file.timer);
    file.timer = setTimeout(() => void run(file), Math.max(0, at - performance.now()));
    file.timer.unref();
  }

  function run(file: FileState): Promise<void> | null {
    if (file.timer !== null) clearTimeout(file.timer);
    file.timer = null;
    file.touchedFirst = null;
    const started = threadCpuMs();
    const finish = (workerCpuMs?: number) => {
      file.costMs = workerCpuMs ?? threadCpuMs() - started;
      file.endedAt = performance.now();
      file.reading = null;
      // Rewritten while it was read: the last rewrite is read too.
      arm(file);
    };
    const reading = read(file);
    if (reading === null) {
      finish();
      return null;
    }
    file.reading = reading.then((workerCpuMs) => finish(workerCpuMs));
    return file.reading;
  }

  /** Reads the file; a promise when a worker does, of the CPU it took the worker. */
  function read(file: FileState): Promise<number | undefined> | null {
    const opened = openSafely(file.path, { ...options.rules, maxBytes: MAX_BYTES });
    if (opened.type !== 'open') {
      const input: WholeInput = opened.type === 'missing' ? { state: 'absent' } : { state: 'unreadable', why: opened.why };
      conclude(file, input.state === 'absent' ? 'absent' : `unreadable:${input.state === 'unreadable' ? input.why : ''}`, () => options.parse(file.name, input));
      return null;
    }
    const { fd, stat } = opened;
    if (stat.size > READ_HERE_MAX_BYTES && !closed) return readInWorker(file, fd).finally(() => closeSync(fd));
    try {
      const bytes = Buffer.allocUnsafe(stat.size);
      const read = bytes.subarray(0, readInto(fd, bytes, 0));
      conclude(file, `read:${hash('sha1', read, 'hex')}`, () => options.parse(file.name, { state: 'read', bytes: read }));
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      conclude(file, `unreadable:${why}`, () => options.parse(file.name, { state: 'unreadable', why }));
    } finally {
      closeSync(fd);
    }
    return null;
  }

  function conclude(file: FileState, found: string, make: () => T): void {
    if (found === file.found || closed) return;
    file.found = found;
    options.onRead(file.name, make());
  }

  function readInWorker(file: FileState, fd: number): Promise<number | undefined> {
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    const worker = new Worker(new URL(`./wholeReadWorker${ext}`, import.meta.url));
    workers.add(worker);
    const slices = new Map<number, unknown[]>();
    return new Promise<number | undefined>((resolve) => {
      let ended = false;
      const end = (cpuMs?: number) => {
        if (ended) return;
        ended = true;
        workers.delete(worker);
        void worker.terminate();
        resolve(cpuMs);
      };
      // Ended by close(), or by a crash: the descriptor is closed all the same.
      worker.on('exit', () => end());
      worker.on('message', (message: WholeReadMessage) => {
        if (message.type === 'slice') {
          const items = slices.get(message.id);
          if (items === undefined) slices.set(message.id, message.items);
          else for (const item of message.items) items.push(item);
          return;
        }
        if (message.type === 'failed') options.onError?.(`${file.name} could not be read: ${message.why}`);
        else if (!message.unchanged) conclude(file, `read:${message.digest}`, () => joinSlices(message.value, slices, 0) as T);
        end(message.type === 'done' ? message.cpuMs : undefined);
      });
      worker.on('error', (error) => {
        options.onError?.(`${file.name} could not be read: ${error.message}`);
        end();
      });
      worker.postMessage({ fd, name: file.name, parser: options.parser, digest: file.found?.startsWith('read:') === true ? file.found.slice(5) : null } satisfies WholeReadRequest);
    });
  }

  return {
    touch(path, name) {
      const file = stateOf(path, name);
      file.touchedLast = performance.now();
      file.touchedFirst ??= file.touchedLast;
      if (file.reading === null) arm(file);
    },
    readNow(path, name) {
      const file = stateOf(path, name);
      return file.reading ?? run(file);
    },
    close() {
      closed = true;
      for (const file of files.values()) if (file.timer !== null) clearTimeout(file.timer);
      for (const worker of workers) void worker.terminate();
      workers.clear();
    },
  };
}

/** CPU time this thread has used, in ms. */
function threadCpuMs(): number {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
}

/** The value a worker sent, each list it sent apart put back in its place. */
function joinSlices(value: unknown, slices: Map<number, unknown[]>, depth: number): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 4) return value;
  if (SLICED in value) return slices.get((value as Record<string, number>)[SLICED]!) ?? [];
  for (const [key, field] of Object.entries(value)) Object.defineProperty(value, key, { value: joinSlices(field, slices, depth + 1), enumerable: true, writable: true, configurable: true });
  return value;
}
