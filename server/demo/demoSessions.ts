import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { textFields, writeEntryFile } from './entryFile.ts';

// The demo's sessions and how each writes its entries, exactly as the plugin does: each session
// writes only into its own folder, with its own sequence per mod load (rule.oneWriter,
// rule.startEntry), and names the other party only as the host gave it (rule.peerAsSeen).

export type DemoSession = {
  id: string;
  cwd: string;
  /** The name the host knows this session by, as in `peer.as` of a send by name. */
  name: string;
  /** The process id in its socket address, `uds:/tmp/cc-socks/<pid>.sock`. */
  pid: number;
  /** The host's crossSessionInbound setting: accept, hold or refuse. */
  inbound: string;
  /** recordText: metadata sessions write a text's length and hash in place of the text. */
  recordText: 'text' | 'metadata';
  /** The last sequence number written in the current mod load. */
  seq: number;
};

export type Peer = { as: string; sessionId?: string };
type SendResult = { isQueued: true } | { isQueued: false; reason: string };
type ReceiveOutcome = 'queued' | 'consumed' | 'rejected' | 'unknown';
/** Slow writes show a reader a pending, half-written file before it becomes an entry. */
export type Pace = { chunkBytes?: number; chunkDelayMs?: number };

const HOST = 'claude-code';
const HOST_VERSION = '2.1.314';
export const REFUSED_REASON = 'recipient refuses inbound messages (crossSessionInbound=refuse)';

export function createDemoSession(
  cwd: string,
  name: string,
  pid: number,
  inbound = 'accept',
  recordText: 'text' | 'metadata' = 'text',
): DemoSession {
  return { id: randomUUID(), cwd, name, pid, inbound, recordText, seq: 0 };
}

export function socketOf(session: DemoSession): string {
  return `uds:/tmp/cc-socks/${session.pid}.sock`;
}

export function projectOf(session: DemoSession): string {
  return path.posix.basename(session.cwd);
}

/** A mod load: the sequence restarts at 1 (rule.startEntry). */
export async function writeStart(recordDir: string, session: DemoSession, at: Date): Promise<string> {
  session.seq = 0;
  return writeNext(recordDir, session, {
    kind: 'start',
    sessionId: session.id,
    at: at.toISOString(),
    cwd: session.cwd,
    host: HOST,
    version: HOST_VERSION,
    inbound: session.inbound,
  });
}

/** What the sender's mod saw: the peer as given and the host's result, nothing more (rule.deliveryResult). */
export async function writeSent(
  recordDir: string,
  session: DemoSession,
  at: Date,
  peer: Peer,
  text: string,
  result: SendResult,
  pace: Pace = {},
): Promise<string> {
  const entry = {
    kind: 'message',
    sessionId: session.id,
    at: at.toISOString(),
    side: 'sent',
    peer,
    ...textFields(text, session.recordText),
    ...result,
    cwd: session.cwd,
  };
  return writeNext(recordDir, session, entry, pace);
}

/** The receiver sees the sender's socket address and the host's envelope (rule.envelopeKept). */
export function receivedEntry(session: DemoSession, at: Date, from: DemoSession, text: string, outcome: ReceiveOutcome) {
  return {
    kind: 'message',
    sessionId: session.id,
    at: at.toISOString(),
    side: 'received',
    peer: { as: socketOf(from) },
    envelope: { origin: { kind: 'peer', from: socketOf(from), name: from.name } },
    ...textFields(text, session.recordText),
    outcome,
    cwd: session.cwd,
  };
}

export async function writeReceived(
  recordDir: string,
  session: DemoSession,
  at: Date,
  from: DemoSession,
  text: string,
  outcome: ReceiveOutcome,
  pace: Pace = {},
): Promise<string> {
  return writeNext(recordDir, session, receivedEntry(session, at, from, text, outcome), pace);
}

export async function writeChain(
  recordDir: string,
  session: DemoSession,
  at: Date,
  parent: DemoSession,
  part: number,
  brief: string,
): Promise<string> {
  const entry = { kind: 'chain', sessionId: session.id, at: at.toISOString(), parent: parent.id, part, brief, cwd: session.cwd };
  return writeNext(recordDir, session, entry);
}

/** What the receiver's downstream does with a message, as the host's inbound setting implies. */
export function chooseOutcome(receiver: DemoSession, random: () => number): ReceiveOutcome {
  if (receiver.inbound === 'hold') return 'queued';
  return random() < 0.9 ? 'consumed' : 'unknown';
}

async function writeNext(recordDir: string, session: DemoSession, entry: object, pace: Pace = {}): Promise<string> {
  session.seq += 1;
  return writeEntryFile(recordDir, session.id, entry, { seq: session.seq, ...pace });
}
