import { hash } from 'node:crypto';
import { fstatSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { readInto } from './safeOpen.ts';

// A thread that reads a large write-once file whole and parses it, off the event loop. The main
// thread opens the file through the safe open (links, secrets, containment) and hands over the
// open descriptor: nothing here opens a path. The parser is a pure core function, named by its
// module and export. What it made is posted in slices, so that taking it in costs the event loop
// a slice at a time, never the whole value at once.

export type WholeReadRequest = { fd: number; name: string; parser: { module: string; name: string }; digest: string | null };

/** A value's long lists are sent apart, this many items a message. */
const SLICE_ITEMS = 2_000;
/** Where a list sent apart stood in the value: its id, taken back by the receiver. */
export const SLICED = '\u0000sliced';

export type WholeReadMessage =
  | { type: 'slice'; id: number; items: unknown[] }
  /** `cpuMs`: what the read and parse cost this thread. */
  | { type: 'done'; digest: string; unchanged: boolean; value: unknown; cpuMs: number }
  | { type: 'failed'; why: string };

if (parentPort !== null) {
  const port = parentPort;
  port.once('message', async (request: WholeReadRequest) => {
    const cpuAt = process.threadCpuUsage();
    const cpuMs = () => {
      const used = process.threadCpuUsage(cpuAt);
      return (used.user + used.system) / 1000;
    };
    try {
      const stat = fstatSync(request.fd);
      const bytes = Buffer.allocUnsafe(stat.size);
      const read = bytes.subarray(0, readInto(request.fd, bytes, 0));
      const digest = hash('sha1', read, 'hex');
      if (digest === request.digest) {
        port.postMessage({ type: 'done', digest, unchanged: true, value: null, cpuMs: cpuMs() } satisfies WholeReadMessage);
        return;
      }
      const parser = (await import(request.parser.module)) as Record<string, (name: string, input: { state: 'read'; bytes: Uint8Array }) => unknown>;
      const value = parser[request.parser.name]!(request.name, { state: 'read', bytes: read });
      let next = 0;
      const sliced = sliceLists(value, 0, (items) => {
        const id = next++;
        for (let at = 0; at < items.length; at += SLICE_ITEMS) port.postMessage({ type: 'slice', id, items: items.slice(at, at + SLICE_ITEMS) } satisfies WholeReadMessage);
        return id;
      });
      port.postMessage({ type: 'done', digest, unchanged: false, value: sliced, cpuMs: cpuMs() } satisfies WholeReadMessage);
    } catch (error) {
      port.postMessage({ type: 'failed', why: (error as Error).message } satisfies WholeReadMessage);
    }
  });
}

/** The value with each long list (within a few levels) replaced by `{ [SLICED]: id }`, its items sent by `send`. */
function sliceLists(value: unknown, depth: number, send: (items: unknown[]) => number): unknown {
  if (Array.isArray(value)) return value.length > SLICE_ITEMS ? { [SLICED]: send(value) } : value;
  if (typeof value !== 'object' || value === null || depth > 3) return value;
  const copy: Record<string, unknown> = {};
  // Defined, never assigned: a key named `__proto__` stays a key.
  for (const [key, field] of Object.entries(value)) Object.defineProperty(copy, key, { value: sliceLists(field, depth + 1, send), enumerable: true, writable: true, configurable: true });
  return copy;
}
