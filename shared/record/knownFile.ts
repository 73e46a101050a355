import type { EntryFacts } from './entry.ts';
import type { EntryName } from './entryName.ts';
import type { EvidenceState, Touch } from '../evidence.ts';

// What the reader holds of one file of a session folder, from its looks at it: the one model
// of a file that the conclusion step makes, the index keeps, the fold orders and a page shows.
// The index holds one per file, for a million files: the fields are few, and always in this order.

type FileOf<Name extends EntryName | null> = {
  /** The file name as found on disk. */
  name: string;
  /** Time and sequence from the name; null for a file whose name is not an entry's. */
  entryName: Name;
  evidence: EvidenceState;
  /** Why the file is not an entry (pending, damaged, invalid, unreadable, stray), in one line. */
  why: string | null;
  size: number;
  /** The facts of the entry as first read; kept when the file later changes or disappears. */
  facts: EntryFacts | null;
  /** The fingerprint of the first complete JSON read; null until the file parsed once. */
  fingerprint: number | null;
  /** When the file last changed (epoch ms), as last seen. */
  mtimeMs: number;
  /**
   * When the reader first saw the file not parsing, on the reader's own clock: the pending
   * window runs from then, whatever the file's mtime says. Set only while it never parsed.
   */
  pendingSince?: number;
  /**
   * The latest thing seen to happen to the file after it was read. Kept when the file comes back
   * as it was read: the episode is evidence that something touched the record.
   */
  touched?: Touch;
};

/** A file with an entry's name: it has a place in the session's order unless it is no file. */
export type NamedFile = FileOf<EntryName>;

/** A file whose name is not an entry's: listed, never read, and last in its session. */
export type StrayFile = FileOf<null>;

export type KnownFile = NamedFile | StrayFile;

/** The file a look was taken at: its name, and its mtime then (or as last known). */
export type FileSeen = { name: string; entryName: EntryName | null; mtimeMs: number };

/** Files that take a place in the session's order; the rest are strays, which come last. */
export function isInOrder(file: KnownFile): file is NamedFile {
  return file.entryName !== null && file.evidence !== 'stray';
}
