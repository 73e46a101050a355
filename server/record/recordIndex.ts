import type { EntryName } from '../../shared/record/entryName.ts';
import { parseEntryName } from '../../shared/record/entryName.ts';
import type { Conclusion } from '../../shared/record/observation.ts';
import type { FileFact, SessionFold } from '../../shared/record/session.ts';
import { foldSession } from '../../shared/record/session.ts';

/** What the index holds of one file: the reader's conclusion plus when the file last changed. */
export type FileState = FileFact & Conclusion & { mtimeMs: number };

type SessionState = {
  sessionId: string;
  files: Map<string, FileState>;
  /** Why the folder could not be read, or null. */
  folderProblem: string | null;
  /** The fold, computed on demand and dropped whenever a file of the session changes. */
  fold: SessionFold | null;
};

export type RecordIndex = ReturnType<typeof createRecordIndex>;

/**
 * The in-memory state of the record: per session, what the reader concluded of each file. It
 * does no I/O; the watcher feeds it and the HTTP routes read it. `onSessionChanged` is told of
 * every session whose state changed, so that clients can be notified.
 */
export function createRecordIndex(onSessionChanged: (sessionId: string) => void) {
  const sessions = new Map<string, SessionState>();
  /** Files directly in the record directory: not in a session folder, so not entries. */
  const strays = new Map<string, number>();
  // Entry names repeat their cwd strings by the thousand; one copy of each is enough.
  const cwds = new Map<string, string>();

  function ensureSession(sessionId: string): SessionState {
    let session = sessions.get(sessionId);
    if (session === undefined) {
      session = { sessionId, files: new Map(), folderProblem: null, fold: null };
      sessions.set(sessionId, session);
    }
    return session;
  }

  function touch(session: SessionState): void {
    session.fold = null;
    onSessionChanged(session.sessionId);
  }

  function intern(conclusion: Conclusion): Conclusion {
    const facts = conclusion.facts;
    if (facts?.cwd == null) return conclusion;
    const known = cwds.get(facts.cwd);
    if (known === undefined) cwds.set(facts.cwd, facts.cwd);
    else facts.cwd = known;
    return conclusion;
  }

  return {
    hasSession: (sessionId: string) => sessions.has(sessionId),
    sessionIds: () => sessions.keys(),
    file: (sessionId: string, name: string): FileState | undefined => sessions.get(sessionId)?.files.get(name),
    files: (sessionId: string): Iterable<FileState> => sessions.get(sessionId)?.files.values() ?? [],
    fileCount(): number {
      let n = 0;
      for (const session of sessions.values()) n += session.files.size;
      return n;
    },

    /** Notes a session folder, which may still be empty. */
    addSession(sessionId: string): void {
      if (!sessions.has(sessionId)) touch(ensureSession(sessionId));
    },

    /** Records a conclusion about a file; null means there is nothing left to show of it. */
    putFile(sessionId: string, name: string, conclusion: Conclusion | null, mtimeMs: number, entryName?: EntryName | null): void {
      const session = ensureSession(sessionId);
      const previous = session.files.get(name);
      if (conclusion === null) {
        if (previous === undefined) return;
        session.files.delete(name);
        touch(session);
        return;
      }
      if (previous !== undefined && sameConclusion(previous, conclusion)) {
        // Same evidence, so nothing to tell; the time still matters for the pending window.
        previous.mtimeMs = mtimeMs;
        return;
      }
      const state: FileState = {
        ...intern(conclusion),
        name,
        entryName: previous?.entryName ?? entryName ?? parseEntryName(name),
        mtimeMs,
      };
      session.files.set(name, state);
      touch(session);
    },

    setFolderProblem(sessionId: string, why: string | null): void {
      const session = ensureSession(sessionId);
      if (session.folderProblem === why) return;
      session.folderProblem = why;
      touch(session);
    },

    fold(sessionId: string): SessionFold | null {
      const session = sessions.get(sessionId);
      if (session === undefined) return null;
      session.fold ??= foldSession(sessionId, session.files.values(), session.folderProblem);
      return session.fold;
    },

    strays: () => [...strays.keys()].sort(),
    putStray(name: string, size: number | null): void {
      if (size === null) strays.delete(name);
      else strays.set(name, size);
    },
  };
}

/** The same fingerprint means the same bytes, hence the same facts. */
function sameConclusion(a: Conclusion, b: Conclusion): boolean {
  return a.evidence === b.evidence && a.why === b.why && a.size === b.size && a.fingerprint === b.fingerprint;
}
