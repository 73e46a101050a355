import { hash } from 'node:crypto';
import { sep } from 'node:path';
import { readWhole, statPath, type FileRead } from '../watch/safeOpen.ts';

/** Entries larger than this are not read whole; they are reported, not parsed. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/**
 * Reads a record file whole, synchronously, through the one safe open (server/watch/safeOpen.ts):
 * never through a link, never a pipe or a device, never larger than MAX_ENTRY_BYTES, and never
 * outside the record directory, whatever folder on the way was swapped for a link. A record file
 * is `<record>/<session>/<name>`: the record is two folders up. Never throws. With `scratch`, a
 * file that fits is read into it, and its bytes are valid until the next read into it: an export
 * reads 100,000 files, and a buffer for each was garbage that RSS grew by.
 */
export function readRecordFile(path: string | Buffer, scratch?: Buffer): FileRead {
  return readWhole(path, { root: recordOf(path), maxBytes: MAX_ENTRY_BYTES }, scratch);
}

/** Facts about a path without reading it (for strays: never parsed, so never read). */
export function statRecordPath(path: string | Buffer): { size: number; mtimeMs: number; isSymbolicLink: boolean } | null {
  const stat = statPath(path);
  return stat === null ? null : { size: stat.size, mtimeMs: stat.mtimeMs, isSymbolicLink: stat.kind === 'link' };
}

/** The record directory of a file of one of its session folders. */
function recordOf(path: string | Buffer): string {
  if (typeof path === 'string') return path.slice(0, path.lastIndexOf(sep, path.lastIndexOf(sep) - 1));
  const slash = sep.charCodeAt(0);
  return path.subarray(0, path.lastIndexOf(slash, path.lastIndexOf(slash) - 1)).toString();
}

/** Each base64 digit's six bits, by its character code. */
const SEXTETS = (() => {
  const sextets = new Uint8Array(128);
  const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < digits.length; i++) sextets[digits.charCodeAt(i)] = i;
  return sextets;
})();

/**
 * A fingerprint of an entry's bytes, to tell a file that changed after it parsed: the first 48
 * bits of their SHA-1. Trailing white space is left out: a writer may finish with a newline after
 * a reader already parsed the object, and that is the same entry.
 *
 * A cryptographic hash, not a faster one of our own: the export trusts bytes whose fingerprint
 * is the one first taken as the bytes that parsed, and whoever can write to the record could
 * make a text that keeps a plain hash's value and slip it in unseen. The digest is asked for as
 * base64 text, whose first eight digits are those 48 bits, rather than as a Buffer: a Buffer a
 * file was an ArrayBuffer of its own for the collector to track, a hundred thousand of them on a
 * scan thread (1.7 µs a file beside the entry's facts, where the text costs 1.2).
 */
export function fingerprintEntry(bytes: Uint8Array): number {
  let end = bytes.length;
  while (end > 0) {
    const b = bytes[end - 1];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) break;
    end--;
  }
  const digest = hash('sha1', end === bytes.length ? bytes : bytes.subarray(0, end), 'base64');
  let fingerprint = 0;
  for (let at = 0; at < 8; at++) fingerprint = fingerprint * 64 + SEXTETS[digest.charCodeAt(at)]!;
  return fingerprint;
}
