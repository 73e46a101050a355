import { mkdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { writeEntryFile } from '../../server/demo/entryFile.ts';
import { toCommandLine } from './commandLine.ts';

// A real writer process for tests: it writes the record as a plugin's session would, from another
// process, so a reader under test meets real concurrency, half-written files and a writer killed
// mid-write (rule.oneWriter). Protocol: one JSON command per stdin line, run in order, one JSON ack
// per stdout line. `{"ready":true}` is printed first.

const commandId = z.union([z.string(), z.number()]);

const writeCommand = z.object({
  op: z.literal('write'),
  id: commandId,
  sessionId: z.string().min(1),
  seq: z.number().int().nonnegative(),
  entry: z.record(z.string(), z.unknown()),
  at: z.iso.datetime({ precision: 3 }).optional(),
  chunkBytes: z.number().int().positive().optional(),
  chunkDelayMs: z.number().nonnegative().optional(),
  stallAfterBytes: z.number().int().nonnegative().optional(),
  trailingNewline: z.boolean().optional(),
});

const rawCommand = z.object({
  op: z.literal('raw'),
  id: commandId,
  /** Relative to the record directory; a path that leaves it is refused. */
  path: z.string().min(1),
  bytes: z.base64(),
  /** Back-dates the file, e.g. so that a cut-short file is old enough to count as damaged: it appears already dated. */
  mtime: z.iso.datetime().optional(),
});

const burstCommand = z.object({
  op: z.literal('burst'),
  id: commandId,
  sessionId: z.string().min(1),
  count: z.number().int().positive().max(100_000),
  startSeq: z.number().int().nonnegative(),
  cwd: z.string(),
});

const exitCommand = z.object({ op: z.literal('exit'), id: commandId.optional() });

export const writerCommandSchema = z.discriminatedUnion('op', [writeCommand, rawCommand, burstCommand, exitCommand]);
export type WriterCommand = z.infer<typeof writerCommandSchema>;

export type WriterAck =
  | { ok: true; id: string | number | null; file?: string; stalled?: true; count?: number }
  | { ok: false; id: string | number | null; error: string };

/** Every stdout line is one of these. */
export type WriterLine = WriterAck | { ready: true };

type Reply = (line: WriterLine) => void;

/** Runs the process: reads commands until `exit` or the end of stdin. */
export async function runWriterProcess(recordDir: string): Promise<void> {
  const root = path.resolve(recordDir);
  const reply: Reply = (line) => process.stdout.write(toCommandLine(line));
  // Keeps stalled writes' open files reachable until the process ends (or is killed).
  const lifetime = new AbortController();
  reply({ ready: true });
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const command = parseCommand(line, reply);
    if (command === null) continue;
    if (command.op === 'exit') {
      reply({ ok: true, id: command.id ?? null });
      break;
    }
    try {
      await runCommand(root, command, reply, lifetime.signal);
    } catch (error) {
      reply({ ok: false, id: command.id, error: (error as Error).message });
    }
  }
  lifetime.abort();
  lines.close();
}

function parseCommand(line: string, reply: Reply): WriterCommand | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    reply({ ok: false, id: null, error: 'not JSON' });
    return null;
  }
  const result = writerCommandSchema.safeParse(value);
  if (result.success) return result.data;
  const id = (value as { id?: unknown } | null)?.id;
  const why = result.error.issues.map((issue) => `${issue.path.join('.') || 'command'}: ${issue.message}`).join('; ');
  reply({ ok: false, id: typeof id === 'string' || typeof id === 'number' ? id : null, error: why });
  return null;
}

async function runCommand(
  root: string,
  command: Exclude<WriterCommand, { op: 'exit' }>,
  reply: Reply,
  lifetime: AbortSignal,
): Promise<void> {
  switch (command.op) {
    case 'write':
      return runWrite(root, command, reply, lifetime);
    case 'raw': {
      const file = resolveInside(root, command.path);
      await mkdir(path.dirname(file), { recursive: true });
      const bytes = Buffer.from(command.bytes, 'base64');
      if (command.mtime === undefined) await writeFile(file, bytes);
      else await writeDated(root, file, bytes, new Date(command.mtime));
      return reply({ ok: true, id: command.id, file });
    }
    case 'burst': {
      const file = await writeBurst(root, command);
      return reply({ ok: true, id: command.id, file, count: command.count });
    }
  }
}

/** A stalled write is acked once its bytes are on disk and left hanging, so later commands still run. */
async function runWrite(root: string, command: z.infer<typeof writeCommand>, reply: Reply, lifetime: AbortSignal) {
  const options = {
    seq: command.seq,
    at: command.at,
    chunkBytes: command.chunkBytes,
    chunkDelayMs: command.chunkDelayMs,
    stallAfterBytes: command.stallAfterBytes,
    trailingNewline: command.trailingNewline,
    signal: lifetime,
  };
  if (command.stallAfterBytes === undefined) {
    const file = await writeEntryFile(root, command.sessionId, command.entry, options);
    return reply({ ok: true, id: command.id, file });
  }
  await new Promise<void>((resolve, reject) => {
    const onStalled = (file: string) => {
      reply({ ok: true, id: command.id, file, stalled: true });
      resolve();
    };
    writeEntryFile(root, command.sessionId, command.entry, { ...options, onStalled }).catch(reject);
  });
}

const BURST_TEXTS = [
  'Rebased on main, running the suite again.',
  'Can you check whether /v1/orders still accepts a missing currency?',
  'Merged. Migrations are idempotent now.',
  'Flaky: test/cart.spec.ts timed out once in CI.',
  'Docs for the retry policy are up, see docs/retries.md.',
];

/** Complete, valid message entries as fast as the disk takes them; returns the last file. */
async function writeBurst(root: string, command: z.infer<typeof burstCommand>): Promise<string> {
  let file = '';
  for (let i = 0; i < command.count; i += 1) {
    const at = new Date().toISOString();
    const text = `${BURST_TEXTS[i % BURST_TEXTS.length]} (#${i + 1})`;
    const peer = { as: `uds:/tmp/cc-socks/${4000 + (i % 7)}.sock` };
    const entry =
      i % 2 === 0
        ? { kind: 'message', sessionId: command.sessionId, at, side: 'sent', peer, text, isQueued: true, cwd: command.cwd }
        : {
            kind: 'message',
            sessionId: command.sessionId,
            at,
            side: 'received',
            peer,
            envelope: { origin: { kind: 'peer', from: peer.as } },
            text,
            outcome: 'consumed',
            cwd: command.cwd,
          };
    file = await writeEntryFile(root, command.sessionId, entry, { seq: command.startSeq + i });
  }
  return file;
}

let datedCount = 0;

/**
 * A back-dated file appears whole and already dated: written beside the record directory (where
 * no reader of the record looks), dated, then renamed into place. Written in place and dated
 * after, a reader could meet it new for a moment, and a new file that does not parse is pending
 * for the whole window from that look, where the test meant one long since cut short.
 */
async function writeDated(root: string, file: string, bytes: Buffer, mtime: Date): Promise<void> {
  const beside = path.join(path.dirname(root), `.raw-${process.pid}-${(datedCount += 1)}`);
  try {
    await writeFile(beside, bytes);
    await utimes(beside, mtime, mtime);
    await rename(beside, file);
  } finally {
    await rm(beside, { force: true });
  }
}

/** Test files may be hostile, but they stay inside the record directory. */
function resolveInside(root: string, relative: string): string {
  const file = path.resolve(root, relative);
  const within = path.relative(root, file);
  if (path.isAbsolute(relative) || within === '' || within === '..' || within.startsWith(`..${path.sep}`)) {
    throw new Error(`path leaves the record directory: ${relative}`);
  }
  return file;
}

if (import.meta.main) {
  const recordDir = process.argv[2];
  if (recordDir === undefined) {
    process.stderr.write('usage: node writerProcess.ts <recordDir>\n');
    process.exit(2);
  }
  await runWriterProcess(recordDir);
  process.exit(0);
}
