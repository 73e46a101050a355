import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { WriterAck, WriterCommand } from './writerProcess.ts';
import { toCommandLine } from './commandLine.ts';

// Drives a writer process (writerProcess.ts) from a test: the record is then written by another
// process, as it is in real use, so the reader under test meets real concurrency.

/** A command as sent; the client fills in an `id` when none is given. */
export type WriterRequest = WriterCommand extends infer C ? (C extends { id?: unknown } ? Omit<C, 'id'> & { id?: string | number } : never) : never;

export type WriterOkAck = Extract<WriterAck, { ok: true }>;

export type Writer = {
  /** Resolves with the ack; rejects when the writer answers ok:false or exits first. */
  send(command: WriterRequest): Promise<WriterOkAck>;
  /** Kills the writer (SIGKILL by default, as a crash would) and resolves with its exit code. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
  /** The exit code, or null when a signal ended it. */
  exited: Promise<number | null>;
  pid: number;
};

// Run from source in development and tests, from dist/ when published.
const WRITER_SCRIPT = fileURLToPath(
  new URL(`./writerProcess${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
);

type Pending = { resolve: (ack: WriterOkAck) => void; reject: (error: Error) => void };

/** Spawns a writer over `recordDir` and resolves once it is ready. Call kill() or send exit when done. */
export async function startWriter(recordDir: string): Promise<Writer> {
  const child = spawn(process.execPath, [WRITER_SCRIPT, recordDir], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdin.on('error', () => {}); // a dead writer's pipe: the pending sends are rejected on exit
  const pending = new Map<string, Pending>();
  const ready = createLatch();
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      const why = new Error(`writer exited (${code ?? child.signalCode})${stderr ? `: ${stderr.trim()}` : ''}`);
      ready.reject(why);
      for (const waiter of pending.values()) waiter.reject(why);
      pending.clear();
      resolve(code);
    });
  });
  child.once('error', (error) => ready.reject(error));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = parseLine(line);
    if (message === null) return;
    if ('ready' in message) return ready.resolve();
    const key = keyOf(message.id);
    const waiter = pending.get(key);
    if (waiter === undefined) return;
    pending.delete(key);
    if (message.ok) waiter.resolve(message);
    else waiter.reject(new Error(`writer refused ${key}: ${message.error}`));
  });
  await ready.promise;

  let nextId = 1;
  return {
    pid: child.pid ?? -1,
    exited,
    send(command) {
      const id = command.id ?? `c${nextId++}`;
      const key = keyOf(id);
      if (pending.has(key)) return Promise.reject(new Error(`command ${key} is already pending`));
      if (child.exitCode !== null || child.signalCode !== null) return Promise.reject(new Error('writer has exited'));
      const ack = new Promise<WriterOkAck>((resolve, reject) => pending.set(key, { resolve, reject }));
      child.stdin.write(toCommandLine({ ...command, id }));
      return ack;
    },
    kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Promise.withResolvers, which the es2023 lib this repo targets does not declare. */
function createLatch(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve = () => {};
  let reject: (error: Error) => void = () => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function parseLine(line: string): WriterAck | { ready: true } | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as WriterAck | { ready: true }) : null;
  } catch {
    return null;
  }
}

/** 1 and "1" are different ids. */
function keyOf(id: string | number | null): string {
  return JSON.stringify(id);
}
