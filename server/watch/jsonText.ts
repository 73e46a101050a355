import { isUtf8 } from 'node:buffer';

// A store's bytes as a JSON string value, made one way wherever they are made: on the event loop
// a slice at a time (server/export/chunkWriter.ts) or on a reading thread a file at a time
// (readFilesThread.ts). Each byte is read as the latin1 character of its value, so JSON.stringify
// escapes `"`, `\` and those below 0x20 and writes every other byte (0x80 and above too) back as it
// was: written out as latin1, the string is the bytes, escaped, whatever slice they were cut in.

/**
 * `bytes` as a JSON string, quotes included, one character a byte: written as latin1, it is
 * their UTF-8 escaped as JSON, when they are UTF-8.
 */
export function escapeJsonBytes(bytes: Uint8Array): string {
  return JSON.stringify(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
}

/**
 * A text's bytes ready to send as a JSON string value, quotes included, one character a byte:
 * their escaping when they are UTF-8, else their base64 (a JSON string that needs no escape).
 */
export function makeJsonText(bytes: Uint8Array): { base64: boolean; json: string } {
  if (isUtf8(bytes)) return { base64: false, json: escapeJsonBytes(bytes) };
  return { base64: true, json: `"${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}"` };
}

/** The bytes a JSON text (makeJsonText's, written as latin1) was made of: the same bytes exactly. */
export function readJsonText(json: Uint8Array, base64: boolean): Buffer {
  const text = Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('latin1');
  return base64 ? Buffer.from(text.slice(1, -1), 'base64') : Buffer.from(JSON.parse(text) as string, 'latin1');
}
