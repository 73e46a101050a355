import { spawn } from 'node:child_process';
import { closeSync, openSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { appendEvent, appendToTimeline, spexSessionFolder, writeSessionJson } from '../../server/demo/spexAppend.ts';
import { toCommandLine } from './commandLine.ts';

// A real writer process for spex homes: it appends as spex's writer does (one O_APPEND write per
// line, 12-digit segments rolling at a bound, session.json renamed into place), from another
// process, so a reader under test meets real concurrency and lines seen half written.
// Protocol: one JSON command per stdin line, one JSON ack per stdout line; `{"ready":true}` first.

const where = { project: z.string().min(1), sessionId: z.string().min(1) };
const placement = { bound: z.number().int().positive().optional(), legacy: z.boolean().optional() };

const commandSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('session'), id: z.string(), ...where, value: z.record(z.string(), z.unknown()) }),
  /** One event: its JSON and a newline, in one write. */
  z.object({ op: z.literal('event'), id: z.string(), ...where, ...placement, event: z.record(z.string(), z.unknown()) }),
  /** Any bytes, in one write (a line cut short, bad UTF-8, a line's second half). */
  z.object({ op: z.literal('bytes'), id: z.string(), ...where, ...placement, base64: z.base64() }),
  /** Bytes written over a file of the session (relative to its folder) at `at`, its size kept where they fit: a write in place, which spex never makes. */
  z.object({ op: z.literal('overwrite'), id: z.string(), ...where, file: z.string(), at: z.number().int().nonnegative(), base64: z.base64() }),
  /** Back-dates a file of the session (relative to its folder). */
  z.object({ op: z.literal('age'), id: z.string(), ...where, file: z.string(), mtime: z.iso.datetime() }),
  z.object({ op: z.literal('exit'), id: z.string() }),
]);
export type SpexWriterCommand = z.infer<typeof commandSchema>;
type Ack = { ok: true; id: string; segment?: string } | { ok: false; id: string | null; error: string };

async function runSpexWriter(home: string): Promise<void> {
  const reply = (line: Ack | { ready: true }) => process.stdout.write(toCommandLine(line));
  reply({ ready: true });
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let command: SpexWriterCommand;
    try {
      command = commandSchema.parse(JSON.parse(line));
    } catch (error) {
      reply({ ok: false, id: null, error: (error as Error).message.slice(0, 500) });
      continue;
    }
    if (command.op === 'exit') {
      reply({ ok: true, id: command.id });
      break;
    }
    try {
      const folder = spexSessionFolder(home, command.project, command.sessionId);
      const options = 'bound' in command || 'legacy' in command ? { ...(command.bound !== undefined ? { bound: command.bound } : {}), ...(command.legacy !== undefined ? { legacy: command.legacy } : {}) } : {};
      switch (command.op) {
        case 'session':
          writeSessionJson(folder, command.value);
          reply({ ok: true, id: command.id });
          break;
        case 'event':
          reply({ ok: true, id: command.id, segment: appendEvent(folder, command.event, options) });
          break;
        case 'bytes':
          reply({ ok: true, id: command.id, segment: appendToTimeline(folder, Buffer.from(command.base64, 'base64'), options) });
          break;
        case 'overwrite': {
          const fd = openSync(join(folder, command.file), 'r+');
          try {
            writeSync(fd, Buffer.from(command.base64, 'base64'), 0, undefined, command.at);
          } finally {
            closeSync(fd);
          }
          reply({ ok: true, id: command.id });
          break;
        }
        case 'age': {
          const at = new Date(command.mtime);
          utimesSync(join(folder, command.file), at, at);
          reply({ ok: true, id: command.id });
          break;
        }
      }
    } catch (error) {
      reply({ ok: false, id: command.id, error: (error as Error).message });
    }
  }
  lines.close();
}

type Request = SpexWriterCommand extends infer C ? (C extends { id: string } ? Omit<C, 'id'> : never) : never;

export type SpexWriter = {
  send(command: Request): Promise<{ segment?: string }>;
  kill(): Promise<void>;
};

const SCRIPT = fileURLToPath(import.meta.url);

/** Spawns a spex writer over `home` and resolves once it is ready. */
export async function startSpexWriter(home: string): Promise<SpexWriter> {
  const child = spawn(process.execPath, [SCRIPT, home], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  child.stdin.on('error', () => {});
  const waiting = new Map<string, { resolve: (ack: { segment?: string }) => void; reject: (error: Error) => void }>();
  let onReady: () => void = () => {};
  let onFail: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    onFail = reject;
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      const why = new Error(`spex writer exited (${code ?? child.signalCode})${stderr ? `: ${stderr.trim()}` : ''}`);
      onFail(why);
      for (const waiter of waiting.values()) waiter.reject(why);
      waiting.clear();
      resolve();
    }),
  );
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Ack | { ready: true };
    if ('ready' in message) return onReady();
    const waiter = message.id === null ? undefined : waiting.get(message.id);
    if (waiter === undefined) return;
    waiting.delete(message.id!);
    if (message.ok) waiter.resolve(message);
    else waiter.reject(new Error(`spex writer refused: ${message.error}`));
  });
  await ready;
  let next = 1;
  return {
    send(command) {
      const id = `w${next++}`;
      const ack = new Promise<{ segment?: string }>((resolve, reject) => waiting.set(id, { resolve, reject }));
      child.stdin.write(toCommandLine({ ...command, id }));
      return ack;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

if (import.meta.main) {
  const home = process.argv[2];
  if (home === undefined) {
    process.stderr.write('usage: node spexWriter.ts <spexHome>\n');
    process.exit(2);
  }
  await runSpexWriter(home);
  process.exit(0);
}
