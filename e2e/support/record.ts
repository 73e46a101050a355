import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startWriter, type Writer } from '../../tools/writer/writerClient.ts';

// A temporary record written by a real writer process, as a session's plugin writes it. Never a
// real record directory: each test file gets its own under the system's temp folder.

export async function makeRecordDir(label: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const parent = await mkdtemp(path.join(tmpdir(), `rec-e2e-${label}-`));
  const dir = path.join(parent, 'record');
  // Made before the command starts, as a person's record is: a record directory that appears
  // later is a case of its own (see the report on watching a late directory).
  await mkdir(dir);
  return { dir, remove: () => rm(parent, { recursive: true, force: true }) };
}

/** Every file and folder under `dir`: name, size, mtime and sha256. Equal lists, untouched record. */
export async function fingerprint(dir: string): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (folder: string) => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      const info = await stat(full);
      const relative = path.relative(dir, full);
      if (entry.isDirectory()) {
        lines.push(`dir ${relative} ${info.mtimeMs}`);
        await walk(full);
      } else {
        const hash = createHash('sha256').update(await readFile(full)).digest('hex');
        lines.push(`file ${relative} ${info.size} ${info.mtimeMs} ${hash}`);
      }
    }
  };
  await walk(dir);
  return lines.sort();
}

export type PeerAs = { as?: string; sessionId?: string };

/** One session's writing: a sequence that counts up as the plugin's does, restarting at a start entry. */
export class SessionWriting {
  readonly sessionId: string;
  readonly cwd: string;
  seq = 0;
  private readonly writer: Writer;

  constructor(writer: Writer, cwd: string, sessionId: string = randomUUID()) {
    this.writer = writer;
    this.cwd = cwd;
    this.sessionId = sessionId;
  }

  /** Writes an entry; `fields` override or add to the kind's usual fields. Returns the file name. */
  async write(entry: Record<string, unknown>, options: { seq?: number; chunkBytes?: number; chunkDelayMs?: number; stallAfterBytes?: number } = {}) {
    const seq = options.seq ?? ++this.seq;
    this.seq = seq;
    const at = new Date().toISOString();
    const ack = await this.writer.send({ op: 'write', sessionId: this.sessionId, seq, entry: { sessionId: this.sessionId, at, cwd: this.cwd, ...entry }, ...options });
    return path.basename(ack.file ?? '');
  }

  start(inbound = 'accept', extra: Record<string, unknown> = {}) {
    this.seq = 0;
    return this.write({ kind: 'start', host: 'claude-code', version: '2.1.314', inbound, ...extra });
  }

  sent(peer: PeerAs, text: string | Record<string, unknown>, result: { isQueued: boolean; reason?: string } = { isQueued: true }, options = {}) {
    const textFields = typeof text === 'string' ? { text } : text;
    return this.write({ kind: 'message', side: 'sent', peer, ...textFields, ...result }, options);
  }

  received(peer: PeerAs | undefined, text: string | Record<string, unknown>, outcome = 'consumed', options = {}) {
    const textFields = typeof text === 'string' ? { text } : text;
    const envelope = { origin: { kind: 'peer', from: peer?.as ?? null } };
    return this.write({ kind: 'message', side: 'received', ...(peer !== undefined ? { peer } : {}), envelope, ...textFields, outcome }, options);
  }

  chain(parent: string, part: number, brief: string) {
    return this.write({ kind: 'chain', parent, part, brief });
  }

  /** Bytes as they are, e.g. a file cut short, back-dated so that the reader has given up on it. */
  async raw(name: string, bytes: string | Buffer, mtime?: Date) {
    await this.writer.send({
      op: 'raw',
      path: `${this.sessionId}/${name}`,
      bytes: Buffer.from(bytes).toString('base64'),
      ...(mtime !== undefined ? { mtime: mtime.toISOString() } : {}),
    });
  }
}

export { startWriter, type Writer };
