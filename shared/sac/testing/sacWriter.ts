import { sacEntryBytes } from '../../../server/demo/sacWrite.ts';

// What set-agent-comm's `send` appends to a seat file, written the way its `store.mjs` writes
// it: `\n` unless the file is empty, the header and `\n`, the trimmed body with every line that
// would read as a header pushed one space right, and `\n`, in one write (server/demo/sacWrite.ts
// writes it so for the demo; these are its bytes for the core's tests). For tests only.

export type AppendedEntry = { ts: string; type: string; text: string; to?: string[]; re?: string };

/** The bytes one `send` appends to a file that holds `existing` bytes: the demo's writer's, as text. */
export function appendedBytes(existing: number, entry: AppendedEntry): string {
  return sacEntryBytes(existing, entry).toString('utf8');
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
