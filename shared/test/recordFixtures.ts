import { readEntry } from '../record/entry.ts';
import { parseEntryName } from '../record/entryName.ts';
import { concludeObservation } from '../record/observation.ts';
import type { KnownFile, StrayFile } from '../record/knownFile.ts';

// Builders for tests of the pure core: entries as the plugin writes them, and files as the
// shell would report them after reading those bytes.

export const SESSION = 'a1a1a1a1-0000-4000-8000-000000000001';
export const OTHER = 'b2b2b2b2-0000-4000-8000-000000000002';
export const CWD = '/home/dev/projects/web-app';

export function nameAt(second: number, seq: number, ms = 0): string {
  const s = String(second).padStart(2, '0');
  return `2026-11-20T0900${s}.${String(ms).padStart(3, '0')}Z-${seq}.json`;
}

export function isoAt(second: number, ms = 0): string {
  return `2026-11-20T09:00:${String(second).padStart(2, '0')}.${String(ms).padStart(3, '0')}Z`;
}

export function startEntry(second: number, extra: Record<string, unknown> = {}) {
  return { kind: 'start', sessionId: SESSION, at: isoAt(second), cwd: CWD, host: 'claude-code', version: '2.1.314', inbound: 'accept', ...extra };
}

export function sentEntry(second: number, text: string, extra: Record<string, unknown> = {}) {
  return { kind: 'message', sessionId: SESSION, at: isoAt(second), side: 'sent', peer: { as: 'uds:/tmp/cc-socks/4242.sock' }, text, isQueued: true, cwd: CWD, ...extra };
}

export function receivedEntry(second: number, text: string, extra: Record<string, unknown> = {}) {
  return {
    kind: 'message',
    sessionId: SESSION,
    at: isoAt(second),
    side: 'received',
    peer: { as: 'uds:/tmp/cc-socks/1717.sock' },
    envelope: { origin: { kind: 'peer', from: 'uds:/tmp/cc-socks/1717.sock', name: 'api-service' } },
    text,
    outcome: 'consumed',
    cwd: CWD,
    ...extra,
  };
}

export function bytesOf(value: unknown): Uint8Array {
  return new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
}

/** The file as the shell reports it after reading `content` (an entry object or raw text). */
export function fileOf(name: string, content: unknown, options: { changedAt?: number; now?: number } = {}): KnownFile {
  const bytes = bytesOf(content);
  const reading = readEntry(bytes);
  const now = options.now ?? Date.now();
  const changedAt = options.changedAt ?? now - 60_000;
  return concludeObservation(
    null,
    { name, entryName: parseEntryName(name), mtimeMs: changedAt },
    reading.outcome === 'entry'
      ? { type: 'entry', facts: reading.facts, fingerprint: 1, size: bytes.length, changedAt }
      : reading.outcome === 'invalid'
        ? { type: 'invalid', why: reading.why, fingerprint: 1, size: bytes.length }
        : { type: 'unparsed', why: reading.why, size: bytes.length, changedAt },
    now,
  )!;
}

export function strayOf(name: string, size = 3): StrayFile {
  return { name, entryName: null, evidence: 'stray', why: 'not an entry file name', size, facts: null, fingerprint: null, mtimeMs: 0 };
}
