import { DEGRADED_CODES, type DegradedCode, type DegradedReason, type MissingRange } from './degraded.ts';

/** Where the notes were: rewinding to it forgets what was noted since. */
export type NotesMark = { missing: number; files: Map<DegradedCode, number> };

export type DegradedNotes = ReturnType<typeof createDegradedNotes>;

/**
 * The reasons a session's record is incomplete, noted file by file as its fold goes, with the
 * sequence numbers missing between files; rewound to a mark as the fold is.
 */
export function createDegradedNotes() {
  const missing: MissingRange[] = [];
  const reasonFiles = new Map<DegradedCode, string[]>();

  function note(code: DegradedCode, file: string): void {
    const list = reasonFiles.get(code);
    if (list === undefined) reasonFiles.set(code, [file]);
    else list.push(file);
  }

  return {
    note,
    /** Numbers missing between two files of a run: both files are why. */
    noteGap(range: MissingRange & { after: string }): void {
      missing.push(range);
      note('sequence-gap', range.after);
      note('sequence-gap', range.before);
    },
    mark(): NotesMark {
      const files = new Map<DegradedCode, number>();
      for (const [code, noted] of reasonFiles) files.set(code, noted.length);
      return { missing: missing.length, files };
    },
    rewind(mark: NotesMark): void {
      missing.length = mark.missing;
      for (const [code, noted] of reasonFiles) {
        const length = mark.files.get(code);
        if (length === undefined) reasonFiles.delete(code);
        else noted.length = length;
      }
    },
    /**
     * The reasons noted, in the order of DEGRADED_CODES. No start entry, and a folder that could
     * not be read, are reasons with no files of their own.
     */
    reasons(noStart: boolean, folderProblem: string | null): DegradedReason[] {
      const degraded: DegradedReason[] = [];
      for (const code of DEGRADED_CODES) {
        let reasonOf = reasonFiles.get(code);
        if (reasonOf === undefined && ((code === 'no-start' && noStart) || (code === 'unreadable' && folderProblem !== null))) reasonOf = [];
        if (reasonOf === undefined) continue;
        const reason: DegradedReason = { code, files: code === 'sequence-gap' ? [...new Set(reasonOf)] : reasonOf.slice() };
        if (code === 'sequence-gap') reason.missing = missing.slice();
        if (code === 'unreadable' && folderProblem !== null) reason.folder = folderProblem;
        degraded.push(reason);
      }
      return degraded;
    },
  };
}
