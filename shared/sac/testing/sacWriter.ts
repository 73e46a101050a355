import { composeAppendedEntry, type AppendedEntry as SentEntry } from '../appendedEntry.ts';

// Seat files as set-agent-comm's `send` writes them, entry after entry, for the core's tests: the
// bytes are the core's own account of sac's append (appendedEntry.ts), which the demo's writer
// writes too.

export type AppendedEntry = SentEntry;

/** The bytes one `send` appends to a file that holds `existing` bytes, as text. */
export function appendedBytes(existing: number, entry: AppendedEntry): string {
  return composeAppendedEntry(existing, entry);
}

/** A whole seat file: these entries sent one after the other. */
export function writtenFile(entries: readonly AppendedEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  let file = new Uint8Array(0);
  for (const entry of entries) {
    const next = encoder.encode(appendedBytes(file.length, entry));
    const grown = new Uint8Array(file.length + next.length);
    grown.set(file);
    grown.set(next, file.length);
    file = grown;
  }
  return file;
}

export function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
