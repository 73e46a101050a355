import type { EntryReading } from '../../shared/record/entryFacts.ts';
import type { EntryName } from '../../shared/record/entryName.ts';
import type { Observation } from '../../shared/record/observation.ts';
import type { FileRead } from '../watch/safeOpen.ts';
import { fingerprintEntry } from './entryFingerprint.ts';
import { MAX_ENTRY_BYTES, readRecordFile, statRecordPath } from './readRecordFile.ts';

/** What one look at a file found; `mtimeMs` null when the file could not be stat'ed. */
type Look = { seen: Observation; mtimeMs: number | null; reading: EntryReading | null };

/**
 * How an entry's bytes are read: entry.ts's readEntry, which loads the schemas. A scan thread
 * reads with the schemas only when an entry needs them, and passes its own.
 */
type ReadEntry = (bytes: Buffer) => EntryReading;

/**
 * Looks at one file of a session folder: reads an entry's bytes, or only stats a stray, which
 * is never read (record-format: Layout). Holds no state, so a scan worker can do it too. With
 * `scratch`, an entry that fits in it is read into it: the look keeps none of its bytes.
 */
export function lookAtFile(path: string | Buffer, entryName: EntryName | null, readEntry: ReadEntry, scratch?: Buffer): Look {
  if (entryName === null) {
    const stat = statRecordPath(path);
    return stat === null
      ? { seen: { type: 'gone' }, mtimeMs: null, reading: null }
      : { seen: { type: 'stray', why: 'not an entry file name', size: stat.size }, mtimeMs: stat.mtimeMs, reading: null };
  }
  return lookAtRead(readRecordFile(path, scratch), readEntry);
}

/** What a read of an entry's file found: the same conclusions, from a read already made. */
export function lookAtRead(read: FileRead, readEntry: ReadEntry): Look {
  switch (read.type) {
    case 'bytes': {
      const reading = readEntry(read.bytes);
      const size = read.bytes.length;
      const seen: Observation =
        reading.outcome === 'entry'
          ? { type: 'entry', facts: reading.facts, fingerprint: fingerprintEntry(read.bytes), size, changedAt: read.mtimeMs }
          : reading.outcome === 'invalid'
            ? { type: 'invalid', why: reading.why, fingerprint: fingerprintEntry(read.bytes), size }
            : { type: 'unparsed', why: reading.why, size, changedAt: read.mtimeMs };
      return { seen, mtimeMs: read.mtimeMs, reading };
    }
    case 'refused':
      if (read.refusal === 'too-large') {
        return {
          seen: { type: 'unreadable', why: `too large to read (${read.size} bytes; entries are read up to ${MAX_ENTRY_BYTES} bytes)`, size: read.size ?? 0 },
          mtimeMs: read.mtimeMs,
          reading: null,
        };
      }
      // A link, a folder, a pipe, a file outside the record or another store's secret: never read.
      // The conclusion (shared/record/observation.ts) makes it a stray, or, under an entry's name,
      // that entry unread in its place.
      return { seen: { type: 'stray', why: read.why, size: read.size ?? 0 }, mtimeMs: read.mtimeMs ?? 0, reading: null };
    case 'missing':
      return { seen: { type: 'gone' }, mtimeMs: null, reading: null };
    case 'changed':
    case 'unreadable':
      return { seen: read.size === null ? { type: 'unreadable', why: read.why } : { type: 'unreadable', why: read.why, size: read.size }, mtimeMs: null, reading: null };
  }
}
