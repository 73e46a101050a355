import { closeSync } from 'node:fs';
import { hash } from 'node:crypto';
import { describeError } from './describeError.ts';
import { openSafely, readInto, type FileRead, type OpenRules } from './safeOpen.ts';

// Reading an append-only file (a spex segment, a set-agent-comm seat file) from where the last
// read stopped. The writer only appends, so bytes already read never change: a file that is
// shorter than what was read, that is another file under the same name, or whose last bytes
// before the offset differ, was changed by something else, and is said to be changed after
// reading (never read again as new lines). Only the window before the offset is compared at each
// read, so an append costs its own bytes, not the file's: a change further back is not seen.

/** What a reader remembers of an append-only file between reads: a place, never its text. */
export type AppendMark = {
  /** The file's identity when first read: a new file under the name is a replacement. */
  dev: number;
  ino: number;
  /** Where the next read begins. */
  offset: number;
  /** A fingerprint of the up to CHECK_BYTES bytes just before `offset`. */
  check: string;
};

/** A read of the one shape every read has; bytes read come with the mark they leave. */
type AppendedRead = Exclude<FileRead, { type: 'bytes' }> | (Extract<FileRead, { type: 'bytes' }> & { mark: (offset: number) => AppendMark });

const CHECK_BYTES = 256;
/** Reads of up to this many bytes (a spex segment is bounded at 4 MiB) go through a reader's one scratch buffer. */
const SCRATCH_BYTES = 8 * 1024 * 1024;

/**
 * A buffer a reader reads appends into, again and again, where each read would otherwise take a
 * buffer of its own: a first scan of thousands of files then leaves the collector no buffer a
 * file, and touches no fresh memory a file. One per reader; its bytes are valid until its next read.
 */
export function createReadScratch(): Buffer {
  return Buffer.allocUnsafe(SCRATCH_BYTES);
}

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
    const checkFrom = known === null ? from : Math.min(from, Math.max(0, known.offset - CHECK_BYTES));
    const length = Math.max(0, Math.min(size, from + maxBytes) - checkFrom);
    const buffer = scratch !== undefined && length <= scratch.length ? scratch.subarray(0, length) : Buffer.allocUnsafe(length);
    const bytes = buffer.subarray(0, readInto(fd, buffer, checkFrom));
    if (known !== null && known.offset > 0) {
      const window = bytes.subarray(known.offset - Math.min(known.offset, CHECK_BYTES) - checkFrom, known.offset - checkFrom);
      if (fingerprint(window) !== known.check) {
        return { type: 'changed', why: 'bytes already read are no longer as they were read; the writer only appends', size, mtimeMs };
      }
    }
    const identity = { dev: stat.dev, ino: stat.ino };
    return {
      type: 'bytes',
      bytes: bytes.subarray(from - checkFrom),
      size,
      mtimeMs,
      identity,
      // The caller says how far it consumed (a pending tail is read again next time).
      mark: (offset: number) => {
        if (known !== null && offset === known.offset) return known;
        const end = offset - checkFrom;
        const window = end <= 0 || end > bytes.length ? null : bytes.subarray(Math.max(0, end - CHECK_BYTES), end);
        return { dev: identity.dev, ino: identity.ino, offset, check: window === null ? '' : fingerprint(window) };
      },
    };
  } catch (error) {
    return { type: 'unreadable', why: describeError(error as NodeJS.ErrnoException), size: stat.size };
  } finally {
    closeSync(fd);
  }
}

function fingerprint(bytes: Uint8Array): string {
  return bytes.length === 0 ? '' : hash('sha1', bytes, 'hex');
}
