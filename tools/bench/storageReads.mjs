import { readFileSync } from 'node:fs';

// What a process had the kernel fetch from storage rather than the page cache so far
// (/proc/<pid>/io's read_bytes, every thread of it counted, readahead included): a run that read
// from disk is told apart from one the page cache served. JavaScript, so that the plain reads and
// the measured processes that load it load no type stripper.

/** The bytes read from storage by the process `pid` (this one by default); null where Linux does not count them, or once it is gone. */
export function readStorageBytes(pid = 'self') {
  try {
    const match = /^read_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return match === null ? null : Number(match[1]);
  } catch {
    return null;
  }
}
