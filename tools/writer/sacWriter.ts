import { spawn } from 'node:child_process';
import { mkdir, open, rename, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { appendSacEntry, declareSacFocus, declareSacQuiet, joinSacRoom, writeSacJson } from '../../server/demo/sacWrite.ts';
import { toCommandLine } from './commandLine.ts';

// A real writer process for tests of the sac reader: it writes a set-agent-comm store the way
// sac's CLI does (appends to seat files, JSON renamed into place), from another process, so the
// reader meets real concurrency, entries cut mid-write and files it did not expect. Protocol: one
// JSON command per stdin line, one JSON ack per stdout line; `{"ready":true}` first.

const id = z.union([z.string(), z.number()]);
const segment = z.string().min(1).refine((name) => !name.includes('/') && name !== '.' && name !== '..', 'one path segment');

const sendCommand = z.object({
  op: z.literal('send'),
  id,
  room: segment,
  seat: segment,
  ts: z.string(),
  type: z.string(),
  text: z.string(),
  to: z.array(z.string()).optional(),
  re: z.string().optional(),
  pieceBytes: z.number().int().positive().optional(),
  pieceDelayMs: z.number().nonnegative().optional(),
  stopAfterBytes: z.number().int().nonnegative().optional(),
});
/** An entry whose body is `bodyBytes` of text made here: a 100 MB body never crosses the pipe. */
const bigCommand = z.object({ op: z.literal('big'), id, room: segment, seat: segment, ts: z.string(), type: z.string(), bodyBytes: z.number().int().positive(), marker: z.string() });
/** sac's `focus`: what the seat says it is on, and the files it holds. */
const focusCommand = z.object({ op: z.literal('focus'), id, seat: segment, text: z.string(), files: z.array(z.string()).optional(), phase: z.string().optional(), ts: z.string() });
/** sac's `quiet [--for …]`: not to be woken; delivery is unaffected. */
const quietCommand = z.object({ op: z.literal('quiet'), id, seat: segment, since: z.string(), until: z.string().optional() });
/**
 * What sac's bridge does with an entry pulled from a relay: appended to the remote writer's file
 * (`<agent>@<host>#<id>`) in the local room, when it arrives, with the time it was written there.
 */
const relayCommand = z.object({ op: z.literal('relay'), id, room: segment, seat: segment.refine((seat) => seat.includes('@'), 'a remote seat: <agent>@<host>#<id>'), ts: z.string(), type: z.string(), text: z.string(), to: z.array(z.string()).optional(), re: z.string().optional() });
const joinCommand = z.object({ op: z.literal('join'), id, room: segment, seat: segment });
const jsonCommand = z.object({ op: z.literal('json'), id, name: segment, value: z.unknown() });
/** Any bytes at a path under the root, whole, appended or (`at`) written over it in place; optionally dated back. */
const rawCommand = z.object({ op: z.literal('raw'), id, path: z.string().min(1), bytes: z.base64(), append: z.boolean().optional(), at: z.number().int().nonnegative().optional(), mtime: z.iso.datetime().optional() });
/** sac's `retire`: the room's folder moves under `channels/.archive/`. */
const archiveCommand = z.object({ op: z.literal('archive'), id, room: segment });
const exitCommand = z.object({ op: z.literal('exit'), id: id.optional() });

export const sacWriterCommandSchema = z.discriminatedUnion('op', [sendCommand, relayCommand, focusCommand, quietCommand, bigCommand, joinCommand, jsonCommand, rawCommand, archiveCommand, exitCommand]);
export type SacWriterCommand = z.infer<typeof sacWriterCommandSchema>;
type Ack = { ok: true; id: string | number | null } | { ok: false; id: string | number | null; error: string };

async function run(root: string, command: Exclude<SacWriterCommand, { op: 'exit' }>): Promise<void> {
  switch (command.op) {
    case 'send':
      await appendSacEntry(root, command.room, command.seat, { ts: command.ts, type: command.type, text: command.text, to: command.to, re: command.re }, command);
      return;
    case 'relay':
      await appendSacEntry(root, command.room, command.seat, { ts: command.ts, type: command.type, text: command.text, to: command.to, re: command.re });
      return;
    case 'focus':
      return declareSacFocus(root, command.seat, command);
    case 'quiet':
      return declareSacQuiet(root, command.seat, command);
    case 'big': {
      const line = `${command.marker} ${'x'.repeat(1000)}\n`;
      const lines = Math.ceil(command.bodyBytes / line.length);
      const folder = path.join(root, 'channels', command.room);
      await mkdir(folder, { recursive: true });
      const handle = await open(path.join(folder, `${command.seat}.md`), 'a');
      try {
        const { size } = await handle.stat();
        await handle.write(`${size > 0 ? '\n' : ''}## ${command.ts} — ${command.type}\n`);
        const block = line.repeat(1000);
        for (let i = 0; i < lines; i += 1000) await handle.write(i + 1000 <= lines ? block : line.repeat(lines - i));
      } finally {
        await handle.close();
      }
      return;
    }
    case 'join':
      return joinSacRoom(root, command.room, command.seat);
    case 'json':
      return writeSacJson(root, command.name, command.value);
    case 'raw': {
      const file = inside(root, command.path);
      await mkdir(path.dirname(file), { recursive: true });
      if (command.at !== undefined) {
        // A write in place, which sac never makes: the file keeps its size where the bytes fit.
        const handle = await open(file, 'r+');
        try {
          await handle.write(Buffer.from(command.bytes, 'base64'), 0, undefined, command.at);
        } finally {
          await handle.close();
        }
      } else {
        await writeFile(file, Buffer.from(command.bytes, 'base64'), { flag: command.append === true ? 'a' : 'w' });
      }
      if (command.mtime !== undefined) await utimes(file, new Date(command.mtime), new Date(command.mtime));
      return;
    }
    case 'archive': {
      await mkdir(path.join(root, 'channels', '.archive'), { recursive: true });
      await rename(path.join(root, 'channels', command.room), path.join(root, 'channels', '.archive', command.room));
      return;
    }
  }
}

function inside(root: string, relative: string): string {
  const file = path.resolve(root, relative);
  const within = path.relative(root, file);
  if (path.isAbsolute(relative) || within === '' || within.startsWith('..')) throw new Error(`path leaves the store: ${relative}`);
  return file;
}

export async function runSacWriter(root: string): Promise<void> {
  const reply = (line: Ack | { ready: true }) => process.stdout.write(toCommandLine(line));
  reply({ ready: true });
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      reply({ ok: false, id: null, error: 'not JSON' });
      continue;
    }
    const parsed = sacWriterCommandSchema.safeParse(value);
    if (!parsed.success) {
      reply({ ok: false, id: null, error: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') });
      continue;
    }
    const command = parsed.data;
    if (command.op === 'exit') {
      reply({ ok: true, id: command.id ?? null });
      break;
    }
    try {
      await run(path.resolve(root), command);
      reply({ ok: true, id: command.id });
    } catch (error) {
      reply({ ok: false, id: command.id, error: (error as Error).message });
    }
  }
  lines.close();
}

export type SacWriterRequest = SacWriterCommand extends infer C ? (C extends { id?: unknown } ? Omit<C, 'id'> : never) : never;

export type SacWriter = { send(command: SacWriterRequest): Promise<void>; close(): Promise<void>; pid: number };

/** Spawns a sac writer over `root`; resolves once it is ready. */
export async function startSacWriter(root: string): Promise<SacWriter> {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [script, root], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  child.stdin.on('error', () => {});
  const waiting = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  let readyResolve: () => void = () => {};
  let readyReject: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => ((readyResolve = resolve), (readyReject = reject)));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      const why = new Error(`sac writer exited (${code ?? child.signalCode}) ${stderr.trim()}`);
      readyReject(why);
      for (const waiter of waiting.values()) waiter.reject(why);
      waiting.clear();
      resolve();
    }),
  );
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: Ack | { ready: true };
    try {
      message = JSON.parse(line) as Ack | { ready: true };
    } catch {
      return;
    }
    if ('ready' in message) return readyResolve();
    const key = JSON.stringify(message.id);
    const waiter = waiting.get(key);
    if (waiter === undefined) return;
    waiting.delete(key);
    if (message.ok) waiter.resolve();
    else waiter.reject(new Error(`sac writer refused ${key}: ${message.error}`));
  });
  await ready;
  let next = 1;
  return {
    pid: child.pid ?? -1,
    send(command) {
      const commandId = `s${next++}`;
      const done = new Promise<void>((resolve, reject) => waiting.set(JSON.stringify(commandId), { resolve, reject }));
      child.stdin.write(toCommandLine({ ...command, id: commandId }));
      return done;
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

if (import.meta.main) {
  const root = process.argv[2];
  if (root === undefined) {
    process.stderr.write('usage: node sacWriter.ts <sac root>\n');
    process.exit(2);
  }
  await runSacWriter(root);
  process.exit(0);
}
