import type { EntryName } from '../../shared/record/entryName.ts';
import { compareEntryNames, parseEntryName } from '../../shared/record/entryName.ts';
import type { Conclusion } from '../../shared/record/observation.ts';
import type { FileFact, SessionFold, SessionFolder } from '../../shared/record/session.ts';
import { createSessionFolder } from '../../shared/record/session.ts';

/** What the index holds of one file: the reader's conclusion plus when the file last changed. */
export type FileState = FileFact & Conclusion & { mtimeMs: number };

type SessionState = {
  sessionId: string;
  files: Map<string, FileState>;
  /** Why the folder could not be read, or null. */
  folderProblem: string | null;
  /** The fold, computed on demand and dropped whenever a file of the session changes. */
  fold: SessionFold | null;
  /**
   * The files with an entry's name, in session order; sorted once, on the first fold, and then
   * kept in order as files come and go, so that a live session is not sorted again on every
   * write (a 100,000-entry session took 25–115 ms to fold from folder order, 18 ms in order).
   */
  ordered: FileState[] | null;
  /**
   * The fold so far, file by file along `ordered`, and the first position in `ordered` that
   * changed since: the next fold goes back only that far. Folding a 100,000-entry session
   * again for every write took ~22 ms and left megabytes of items to collect each time.
   */
  folder: SessionFolder | null;
  changedFrom: number;
  /** Files that fold as strays: no entry's name, or not a regular file. */
  strays: number;
};

const isStray = (file: FileState) => file.entryName === null || file.evidence === 'stray';

/** Where `file` is, or would go, in files sorted by session order. */
function positionOf(ordered: FileState[], file: FileState): number {
  const name = file.entryName!;
  let low = 0;
  let high = ordered.length;
  // Live files are the newest: look at the end first.
  if (high > 0 && compareEntryNames(ordered[high - 1]!.entryName!, name) < 0) return high;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareEntryNames(ordered[middle]!.entryName!, name) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The files with an entry's name in session order, sorted again if the order was lost. */
function orderedFiles(session: SessionState): FileState[] {
  if (session.ordered === null) {
    const ordered: FileState[] = [];
    for (const file of session.files.values()) if (file.entryName !== null) ordered.push(file);
    ordered.sort((a, b) => compareEntryNames(a.entryName!, b.entryName!));
    session.ordered = ordered;
    session.folder = null;
  }
  return session.ordered;
}

/** A session's fold, refolding only from the first position that changed. */
function foldOf(session: SessionState): SessionFold {
  const ordered = orderedFiles(session);
  let from = 0;
  if (session.folder === null) session.folder = createSessionFolder(session.sessionId);
  else from = session.folder.rewind(session.changedFrom);
  for (let at = from; at < ordered.length; at++) session.folder.add(ordered[at]!);
  session.changedFrom = Infinity;
  const strays: FileState[] = [];
  if (session.strays > 0) for (const file of session.files.values()) if (isStray(file)) strays.push(file);
  return session.folder.fold(strays, session.folderProblem);
}

export type RecordIndex = ReturnType<typeof createRecordIndex>;

/**
 * The in-memory state of the record: per session, what the reader concluded of each file. It
 * does no I/O; the watcher feeds it and the HTTP routes read it. `onSessionChanged` is told of
 * every session whose state changed, and `onStraysChanged` of any change to the files directly
 * in the record directory, so that clients can be notified.
 */
export function createRecordIndex(onSessionChanged: (sessionId: string) => void, onStraysChanged: () => void = () => {}) {
  const sessions = new Map<string, SessionState>();
  /** Files directly in the record directory: not in a session folder, so not entries. */
  const strays = new Map<string, number>();
  const strings = new Map<string, string>();

  function ensureSession(sessionId: string): SessionState {
    let session = sessions.get(sessionId);
    if (session === undefined) {
      session = { sessionId, files: new Map(), folderProblem: null, fold: null, ordered: null, folder: null, changedFrom: Infinity, strays: 0 };
      sessions.set(sessionId, session);
    }
    return session;
  }

  /** Counts every change, so that what is built from the index can tell it is still current. */
  let version = 0;

  function touch(session: SessionState): void {
    version++;
    session.fold = null;
    onSessionChanged(session.sessionId);
  }

  /** Takes a file's previous state out of the session's order and counts. */
  function forget(session: SessionState, previous: FileState): void {
    if (isStray(previous)) session.strays--;
    if (session.ordered !== null && previous.entryName !== null) {
      const at = positionOf(session.ordered, previous);
      if (session.ordered[at] === previous) {
        session.ordered.splice(at, 1);
        changedAt(session, at);
      } else {
        session.ordered = null; // not where it should be: sort again on the next fold
      }
    }
  }

  /** Puts a file with an entry's name in its place in the session's order. */
  function place(session: SessionState, state: FileState): void {
    if (session.ordered === null) return;
    const at = positionOf(session.ordered, state);
    session.ordered.splice(at, 0, state);
    changedAt(session, at);
  }

  function changedAt(session: SessionState, at: number): void {
    session.changedFrom = Math.min(session.changedFrom, at);
  }

  /**
   * Entries repeat strings by the thousand: the session id, the cwd, the peer, and the time that
   * the name already holds. One copy of each is enough (about 150 bytes a file).
   */
  function intern(session: SessionState, conclusion: Conclusion, entryName: EntryName | null): Conclusion {
    const facts = conclusion.facts;
    if (facts === null) return conclusion;
    if (facts.sessionId === session.sessionId) facts.sessionId = session.sessionId;
    if (entryName !== null && facts.at === entryName.at) facts.at = entryName.at;
    if (facts.cwd !== null) facts.cwd = internString(facts.cwd);
    if (facts.kind === 'message' && facts.peerAs !== null) facts.peerAs = internString(facts.peerAs);
    return conclusion;
  }

  function internString(value: string): string {
    const known = strings.get(value);
    if (known !== undefined) return known;
    strings.set(value, value);
    return value;
  }

  return {
    hasSession: (sessionId: string) => sessions.has(sessionId),
    version: () => version,
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
        forget(session, previous);
        touch(session);
        return;
      }
      if (previous !== undefined && sameConclusion(previous, conclusion)) {
        // Same evidence, so nothing to tell; the time still matters for the pending window.
        previous.mtimeMs = mtimeMs;
        return;
      }
      const known = previous?.entryName ?? entryName ?? parseEntryName(name);
      const state: FileState = { ...intern(session, conclusion, known), name, entryName: known, mtimeMs };
      session.files.set(name, state);
      if (isStray(state)) session.strays++;
      if (previous === undefined) {
        if (state.entryName !== null) place(session, state);
      } else if (session.ordered !== null && state.entryName !== null && state.entryName === previous.entryName) {
        // The same file seen again: it keeps its place.
        if (isStray(previous)) session.strays--;
        const at = positionOf(session.ordered, previous);
        if (session.ordered[at] === previous) {
          session.ordered[at] = state;
          changedAt(session, at);
        } else {
          session.ordered = null;
        }
      } else {
        forget(session, previous);
        if (state.entryName !== null) place(session, state);
      }
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
      session.fold ??= foldOf(session);
      return session.fold;
    },

    strays: () => [...strays.keys()].sort(),
    putStray(name: string, size: number | null): void {
      if (strays.get(name) === (size ?? undefined)) return;
      version++;
      if (size === null) strays.delete(name);
      else strays.set(name, size);
      onStraysChanged();
    },
  };
}

/** The same fingerprint means the same bytes, hence the same facts. */
function sameConclusion(a: Conclusion, b: Conclusion): boolean {
  return a.evidence === b.evidence && a.why === b.why && a.size === b.size && a.fingerprint === b.fingerprint && a.touched === b.touched;
}
