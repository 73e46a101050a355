import { compareEntryNames } from '../../shared/record/entryName.ts';
import type { KnownFile, NamedFile } from '../../shared/record/knownFile.ts';
import { isInOrder } from '../../shared/record/knownFile.ts';
import type { SessionFold, SessionFolding } from '../../shared/record/session.ts';
import { createSessionFold } from '../../shared/record/session.ts';

type SessionState = {
  sessionId: string;
  files: Map<string, KnownFile>;
  /** Why the folder could not be read, or null. */
  folderProblem: string | null;
  /** The fold, computed on demand and dropped whenever a file of the session changes. */
  fold: SessionFold | null;
  /**
   * The files with an entry's name, in session order; sorted once, on the first fold, and then
   * kept in order as files come and go, so that a live session is not sorted again on every
   * write (a 100,000-entry session took 25–115 ms to fold from folder order, 18 ms in order).
   */
  ordered: NamedFile[] | null;
  /**
   * The fold so far, file by file along `ordered`, and the first position in `ordered` that
   * changed since: the next fold goes back only that far. Folding a 100,000-entry session
   * again for every write took ~22 ms and left megabytes of items to collect each time.
   */
  folding: SessionFolding | null;
  changedFrom: number;
  /** How many of its files fold as the session's strays: those whose names are no entry's. */
  strayCount: number;
};

/** Where `file` is, or would go, in files sorted by session order. */
function positionOf(ordered: NamedFile[], file: NamedFile): number {
  const name = file.entryName;
  let low = 0;
  let high = ordered.length;
  // Live files are the newest: look at the end first.
  if (high > 0 && compareEntryNames(ordered[high - 1]!.entryName, name) < 0) return high;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareEntryNames(ordered[middle]!.entryName, name) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The files with an entry's name in session order, sorted again if the order was lost. */
function orderedFiles(session: SessionState): NamedFile[] {
  if (session.ordered === null) {
    const ordered: NamedFile[] = [];
    for (const file of session.files.values()) if (file.entryName !== null) ordered.push(file);
    ordered.sort((a, b) => compareEntryNames(a.entryName, b.entryName));
    session.ordered = ordered;
    session.folding = null;
  }
  return session.ordered;
}

/** A session's fold, refolding only from the first position that changed. */
function foldOf(session: SessionState): SessionFold {
  const ordered = orderedFiles(session);
  let from = 0;
  if (session.folding === null) session.folding = createSessionFold(session.sessionId);
  else from = session.folding.rewind(session.changedFrom);
  for (let at = from; at < ordered.length; at++) session.folding.add(ordered[at]!);
  session.changedFrom = Infinity;
  const strays: KnownFile[] = [];
  if (session.strayCount > 0) for (const file of session.files.values()) if (!isInOrder(file)) strays.push(file);
  return session.folding.fold(strays, session.folderProblem);
}

export type RecordIndex = ReturnType<typeof createRecordIndex>;

/**
 * The in-memory state of the record: per session, what the reader concluded of each file. It
 * does no I/O; the watcher feeds it and the HTTP routes read it. `onSessionChanged` is told of
 * every session whose state changed, and `onLooseFilesChanged` of any change to the loose files
 * (those directly in the record directory), so that clients can be notified.
 */
export function createRecordIndex(
  onSessionChanged: (sessionId: string) => void,
  onLooseFilesChanged: () => void = () => {},
  /** Told of each file whose state changed (not of one that is gone without a trace): the live view lists it. */
  onFileChanged: (sessionId: string, name: string, isNew: boolean) => void = () => {},
) {
  const sessions = new Map<string, SessionState>();
  /** Loose files: directly in the record directory, not in a session folder, so not entries. */
  const looseFiles = new Map<string, number>();
  const strings = new Map<string, string>();

  function ensureSession(sessionId: string): SessionState {
    let session = sessions.get(sessionId);
    if (session === undefined) {
      session = { sessionId, files: new Map(), folderProblem: null, fold: null, ordered: null, folding: null, changedFrom: Infinity, strayCount: 0 };
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
  function forget(session: SessionState, previous: KnownFile): void {
    if (!isInOrder(previous)) session.strayCount--;
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
  function place(session: SessionState, state: NamedFile): void {
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
  function intern(session: SessionState, file: KnownFile): void {
    const facts = file.facts;
    if (facts === null) return;
    if (facts.sessionId === session.sessionId) facts.sessionId = session.sessionId;
    if (file.entryName !== null && facts.at === file.entryName.at) facts.at = file.entryName.at;
    if (facts.cwd !== null) facts.cwd = internCwd(facts.cwd);
    if (facts.kind === 'message' && facts.peerAs !== null) facts.peerAs = internPeer(facts.peerAs);
  }

  const internCwd = createInterner(strings);
  const internPeer = createInterner(strings);

  return {
    hasSession: (sessionId: string) => sessions.has(sessionId),
    version: () => version,
    sessionIds: () => sessions.keys(),
    file: (sessionId: string, name: string): KnownFile | undefined => sessions.get(sessionId)?.files.get(name),
    files: (sessionId: string): Iterable<KnownFile> => sessions.get(sessionId)?.files.values() ?? [],
    fileCount(): number {
      let n = 0;
      for (const session of sessions.values()) n += session.files.size;
      return n;
    },

    /** Notes a session folder, which may still be empty. */
    addSession(sessionId: string): void {
      if (!sessions.has(sessionId)) touch(ensureSession(sessionId));
    },

    /** Records what the reader now knows of a file; null means there is nothing left to show of it. */
    putFile(sessionId: string, name: string, state: KnownFile | null): void {
      const session = ensureSession(sessionId);
      const previous = session.files.get(name);
      if (state === null) {
        if (previous === undefined) return;
        session.files.delete(name);
        forget(session, previous);
        touch(session);
        return;
      }
      if (previous !== undefined && isSameEvidence(previous, state)) {
        // Same evidence, so nothing to tell; the time still matters for the pending window.
        previous.mtimeMs = state.mtimeMs;
        return;
      }
      intern(session, state);
      session.files.set(name, state);
      if (!isInOrder(state)) session.strayCount++;
      if (previous === undefined) {
        if (state.entryName !== null) place(session, state);
      } else if (session.ordered !== null && state.entryName !== null && state.entryName === previous.entryName) {
        // The same file seen again: it keeps its place.
        if (!isInOrder(previous)) session.strayCount--;
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
      onFileChanged(sessionId, name, previous === undefined);
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

    looseFiles: () => [...looseFiles.keys()].sort(),
    putLooseFile(name: string, size: number | null): void {
      if (looseFiles.get(name) === (size ?? undefined)) return;
      version++;
      if (size === null) looseFiles.delete(name);
      else looseFiles.set(name, size);
      onLooseFilesChanged();
    },
  };
}

/**
 * One copy of each string, kept in `strings`. The last one asked for is at hand: a folder's files
 * name the same cwd and peer, one file after another.
 */
function createInterner(strings: Map<string, string>): (value: string) => string {
  let lastValue: string | null = null;
  let lastCopy = '';
  return (value) => {
    if (value === lastValue) return lastCopy;
    let known = strings.get(value);
    if (known === undefined) strings.set(value, (known = value));
    lastValue = value;
    lastCopy = known;
    return known;
  };
}

/** The same fingerprint means the same bytes, hence the same facts. */
function isSameEvidence(a: KnownFile, b: KnownFile): boolean {
  return a.evidence === b.evidence && a.why === b.why && a.size === b.size && a.fingerprint === b.fingerprint && a.touched === b.touched;
}
