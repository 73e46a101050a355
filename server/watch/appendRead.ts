import { closeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { describeError } from './describeError.ts';
import { openSafely, readInto, type FileRead, type OpenRules } from './safeOpen.ts';

// Reading an append-only file (a spex segment, a set-agent-comm seat file) from where the last
// read stopped. The writer only appends, so bytes already read never change: a file that is
// shorter than what was read, that is another file under the same name, or whose bytes already
// read differ, was changed by something else, and is said to be changed after reading (never
// read again as new lines). What is compared, and when:
// - at each read of appended bytes, the window of CHECK_BYTES before the offset: an append costs
//   its own bytes, not the file's;
// - when the file was written without growing (its size as at the last read, its change time
//   moved: a write in place, which the writer never makes), every byte read, against a fingerprint
//   of them taken as they were read. A chmod or a touch moves the change time too: the bytes are
//   compared, found the same, and the file is read on.
// A rewrite further back than the window, made together with an append that grows the file, is not
// seen until the next write that adds nothing; docs/stores.md says so.

/** What a reader remembers of an append-only file between reads: a place, never its text. */
export type AppendMark = {
  /** The file's identity when first read: a new file under the name is a replacement. */
  dev: number;
  ino: number;
  /** Where the next read begins. */
  offset: number;
  /** A fingerprint of the up to CHECK_BYTES bytes just before `offset`. */
  check: number;
  /** The file's size and change time at the read that left this mark: a write that adds nothing moves the second alone. */
  size: number;
  ctimeMs: number;
  /** A fingerprint of the file's bytes before `verified`, taken as they were read (`verified` 0: none yet). */
  verified: number;
  whole: number;
};

/** A read of the one shape every read has; bytes read come with the mark they leave. */
type AppendedRead = Exclude<FileRead, { type: 'bytes' }> | (Extract<FileRead, { type: 'bytes' }> & { mark: (offset: number) => AppendMark });

const CHECK_BYTES = 256;
/** Bytes already read are compared whole in pieces of this size, never one buffer the file's size. */
const VERIFY_PIECE_BYTES = 1024 * 1024;

/**
 * Reads `path` from `from` on (at most `maxBytes`), after checking that what `known` says was
 * read is still there as it was read. `from` may be before `known.offset` (a core reads a pending
 * tail again) but never after it. Never throws. With `scratch`, bytes that fit in it are read into
 * it rather than into a buffer of their own: the caller is done with them (and with `mark`)
 * before it reads again, and a scan of a thousand files then leaves no buffer a file for the collector.
 */
export function readAppended(path: string | Buffer, rules: OpenRules, from: number, known: AppendMark | null, maxBytes: number, scratch?: Buffer): AppendedRead {
  const opened = openSafely(path, rules);
  if (opened.type !== 'open') return opened;
  const { fd, stat } = opened;
  try {
    const size = stat.size;
    const mtimeMs = stat.mtimeMs;
    if (known !== null) {
      if (stat.ino !== known.ino || stat.dev !== known.dev) {
        return { type: 'changed', why: 'another file now has this name: the writer only appends to one', size, mtimeMs };
      }
      if (size < known.offset) return { type: 'changed', why: `the file is shorter (${size} bytes) than the ${known.offset} bytes already read; the writer only appends`, size, mtimeMs };
    }
    // Written without growing: every byte read is compared with what was read, before anything else.
    let whole = known === null ? null : { verified: known.verified, digest: known.whole };
    if (known !== null && known.verified > 0 && size === known.size && stat.ctimeMs !== known.ctimeMs) {
      const digest = fingerprintRead(fd, known);
      if (digest === null) return { type: 'changed', why: CHANGED, size, mtimeMs };
      whole = { verified: known.offset, digest };
    }
    const checkFrom = known === null ? from : Math.min(from, Math.max(0, known.offset - CHECK_BYTES));
    const length = Math.max(0, Math.min(size, from + maxBytes) - checkFrom);
    const buffer = scratch !== undefined && length <= scratch.length ? scratch.subarray(0, length) : Buffer.allocUnsafe(length);
    const bytes = buffer.subarray(0, readInto(fd, buffer, checkFrom));
    if (known !== null && known.offset > 0) {
      const window = bytes.subarray(known.offset - Math.min(known.offset, CHECK_BYTES) - checkFrom, known.offset - checkFrom);
      if (fingerprint(window) !== known.check) return { type: 'changed', why: CHANGED, size, mtimeMs };
      // The bytes in hand go back to the start: the fingerprint of what was read is compared too.
      if (checkFrom === 0 && whole !== null && whole.verified > 0 && whole.verified <= bytes.length && fingerprint(bytes.subarray(0, whole.verified)) !== whole.digest) {
        return { type: 'changed', why: CHANGED, size, mtimeMs };
      }
    }
    const identity = { dev: stat.dev, ino: stat.ino };
    const ctimeMs = stat.ctimeMs;
    return {
      type: 'bytes',
      bytes: bytes.subarray(from - checkFrom),
      size,
      mtimeMs,
      identity,
      // The caller says how far it consumed (a pending tail is read again next time).
      mark: (offset: number) => {
        const end = offset - checkFrom;
        let check: number;
        if (known !== null && offset === known.offset) check = known.check;
        else check = end <= 0 || end > bytes.length ? 0 : fingerprint(bytes.subarray(Math.max(0, end - CHECK_BYTES), end));
        // Every byte up to the offset is in hand (a first read, or a file read from its start): their
        // fingerprint is taken, the one later compared when the file is written without growing.
        const fromStart = checkFrom === 0 && end > 0 && end <= bytes.length && offset > (whole?.verified ?? 0);
        const verified = fromStart ? offset : (whole?.verified ?? 0);
        const digest = fromStart ? fingerprint(bytes.subarray(0, end)) : (whole?.digest ?? 0);
        return { dev: identity.dev, ino: identity.ino, offset, check, size, ctimeMs, verified, whole: digest };
      },
    };
  } catch (error) {
    return { type: 'unreadable', why: describeError(error as NodeJS.ErrnoException), size: stat.size };
  } finally {
    closeSync(fd);
  }
}

const CHANGED = 'bytes already read are no longer as they were read; the writer only appends';

/**
 * Whether a file read from its start (`bytes`, or the mark its first read left) begins with the
 * bytes another mark says were read: a file under a new name that holds what another held.
 */
export function beginsAsRead(known: AppendMark, read: { bytes: Uint8Array } | { mark: AppendMark }): boolean {
  if (known.verified === 0) return false;
  if ('mark' in read) return read.mark.verified === known.verified && read.mark.whole === known.whole;
  return read.bytes.length >= known.verified && fingerprint(read.bytes.subarray(0, known.verified)) === known.whole;
}

/**
 * The fingerprint of the bytes before `known.offset`, read again in pieces; null when those before
 * `known.verified` are not the bytes that were read.
 */
function fingerprintRead(fd: number, known: AppendMark): number | null {
  const piece = Buffer.allocUnsafe(Math.min(VERIFY_PIECE_BYTES, known.offset));
  let digest = 0;
  let at = 0;
  while (at < known.offset) {
    // A piece ends where the fingerprint taken ends, so it is compared there.
    const until = at < known.verified ? known.verified : known.offset;
    const read = readInto(fd, piece.subarray(0, Math.min(piece.length, until - at)), at);
    if (read === 0) return null;
    digest = fingerprint(piece.subarray(0, read), digest);
    at += read;
    if (at === known.verified && digest !== known.whole) return null;
  }
  return digest;
}

/**
 * A CRC-32 of the bytes, continued from `from`: it tells a write in place from the bytes as read
 * (a chance in four billion of missing one by accident), at 5–6 GB/s where SHA-1 ran at 1.8, for
 * every byte a first scan reads (a spex home of 321 MB: 56 ms against 180). Not a cryptographic
 * hash, unlike the record's fingerprint, which the export trusts as the bytes that parsed: here
 * nothing is trusted by it, and whoever could forge one could as well append what they like.
 */
function fingerprint(bytes: Uint8Array, from = 0): number {
  return crc32(bytes, from);
}
