import type { LiveItem, SourceRef, SourceStatus } from '../../shared/wire/common.ts';
import type { PendingWindow } from '../../shared/evidence.ts';
import type { KnownFile } from '../../shared/record/knownFile.ts';
import type { Observation } from '../../shared/record/observation.ts';
import type { SessionFold } from '../../shared/record/session.ts';
import { GAP_SETTLE_MS, projectLiveItems, projectSettledGaps, textSeenIn, type FileChange } from './liveItems.ts';
import { createEarlyItems } from './earlyItems.ts';
import { createRecordIndex } from './recordIndex.ts';
import type { FreshRead } from './recordLooks.ts';
import type { FileRead } from '../watch/safeOpen.ts';
import { createRecordWatcher } from './recordWatcher.ts';
import { NOTICE_GATHER_MS, createNoticeGatherer } from '../sources/noticeGatherer.ts';
import { sourceRefOf } from '../sources/sourceRef.ts';
import type { RecordHeadStart } from './scanStart.ts';

/** What the source tells its listeners; the HTTP app adds each changed session's source and summary. */
type RecordNotice =
  | { type: 'source'; source: SourceStatus }
  | { type: 'session-changed'; sessionId: string }
  /** The files of a session whose state changed, and the gaps new files opened, in session order. */
  | { type: 'items'; sessionId: string; items: LiveItem[] };

/** What the HTTP app reads: the record as the reader sees it, and a feed of what changed. */
export type RecordReader = {
  recordDir: string;
  /** The store on the wire: every projection of this source carries it. */
  ref: SourceRef;
  status(): SourceStatus;
  sessionIds(): Iterable<string>;
  fold(sessionId: string): SessionFold | null;
  readNow(sessionId: string, name: string): FreshRead;
  /** Concludes from a read of an entry's file made elsewhere (a reader thread), as readNow from its own. */
  readDone(sessionId: string, name: string, read: FileRead): FreshRead;
  /** Records what a look at a file found elsewhere (a reader thread), as readNow would. */
  recordLook(sessionId: string, name: string, look: { seen: Observation; mtimeMs: number | null }): KnownFile | undefined;
  /** The loose files: those directly in the record directory, never entries (the wire's `strays`). */
  looseFiles(): string[];
  /** Changes whenever anything a reader can see changes (a session, a loose file, the status). */
  version(): string;
  /** Listens to record events; returns the function that stops listening. */
  subscribe(listener: (event: RecordNotice) => void): () => void;
  start(): Promise<void>;
  close(): Promise<void>;
};

type RecordSourceOptions = PendingWindow & {
  recordDir: string;
  headStart?: RecordHeadStart | null;
  reconcileIntervalMs?: number;
  onError?: (message: string) => void;
};

/**
 * Wires the index, the watcher and the feed of changes. Session changes are coalesced into one
 * notice per session per flush. What the first scan reads is not told folder by folder: a
 * client is better served by indexing progress, and fetches the list when the scan is done. What
 * the watcher sees meanwhile is told at once, as it is after the scan.
 */
export function createRecordReader(options: RecordSourceOptions): RecordReader {
  const ref = sourceRefOf('record', options.recordDir);
  const statusNow = (): SourceStatus => {
    const { record, indexing } = watcher.status();
    return { ...ref, root: options.recordDir, state: record.state, why: record.why, indexing };
  };
  const listeners = new Set<(event: RecordNotice) => void>();
  /** Per session, the files that changed since the last flush: each is told once per flush, as it is then. */
  let changedFiles = new Map<string, Map<string, FileChange>>();
  let looseFilesChanged = false;
  let statusVersion = 0;

  const publish = (event: RecordNotice) => {
    for (const listener of listeners) listener(event);
  };
  const flush = (ids: string[]) => {
    const files = changedFiles;
    changedFiles = new Map();
    for (const sessionId of ids) {
      publish({ type: 'session-changed', sessionId });
      const changes = files.get(sessionId);
      if (changes === undefined) continue;
      // An item told early (a write in a folder the scan had not read) is not told again as it was.
      const items = projectLiveItems(projectingOf(sessionId), changes).filter((item) => !early.toldAlready(sessionId, item));
      if (items.length > 0) publish({ type: 'items', sessionId, items });
      const newFiles = [...changes].filter(([, change]) => change.isNew).map(([name]) => name);
      if (newFiles.length > 0) settleGaps(sessionId, newFiles);
    }
    // Items are told early only while the first scan runs: what was told of them is not needed after.
    if (early.holdsAny() && watcher.status().indexing.state === 'ready') early.clear();
    // Files directly in the record directory are part of its state, which a client fetches
    // with the list of sessions when told of the record.
    if (looseFilesChanged) publish({ type: 'source', source: statusNow() });
    looseFilesChanged = false;
  };

  const projectingOf = (sessionId: string) => ({
    source: ref.id,
    sessionId,
    file: (name: string) => index.file(sessionId, name),
    fold: () => index.fold(sessionId),
    readAgain: (name: string) => watcher.readNow(sessionId, name).reading,
  });
  /** New files whose gaps are told once they have lasted a moment, per session. */
  const unsettled = new Map<string, Set<string>>();
  let settleTimer: NodeJS.Timeout | null = null;
  const settleGaps = (sessionId: string, newFiles: string[]) => {
    let names = unsettled.get(sessionId);
    if (names === undefined) unsettled.set(sessionId, (names = new Set()));
    for (const name of newFiles) names.add(name);
    settleTimer ??= setTimeout(() => {
      settleTimer = null;
      const due = [...unsettled];
      unsettled.clear();
      for (const [id, names] of due) {
        const gaps = projectSettledGaps(projectingOf(id), names);
        if (gaps.length > 0) publish({ type: 'items', sessionId: id, items: gaps });
      }
    }, GAP_SETTLE_MS);
  };

  const notices = createNoticeGatherer(flush);
  const early = createEarlyItems(ref.id, options.recordDir, options.pendingWindowMs);
  const earlyNotices = createNoticeGatherer<string>((keys) => {
    const bySession = new Map<string, LiveItem[]>();
    for (const key of keys) {
      const [sessionId, name] = key.split('\u0000') as [string, string];
      // Once the scan has handed the folder over, the index holds the file and tells what it becomes.
      if (index.file(sessionId, name) !== undefined) continue;
      const item = early.look(sessionId, name);
      if (item === null) continue;
      const items = bySession.get(sessionId);
      if (items === undefined) bySession.set(sessionId, [item]);
      else items.push(item);
    }
    for (const [sessionId, items] of bySession) publish({ type: 'items', sessionId, items });
  });
  const tell = (sessionId: string) => notices.gather(sessionId);
  const index = createRecordIndex(
    (sessionId) => {
      if (!watcher.readingFirstScan()) tell(sessionId);
    },
    () => {
      if (watcher.readingFirstScan()) return;
      looseFilesChanged = true;
      notices.gather();
    },
    (sessionId, name, isNew) => {
      if (watcher.readingFirstScan()) return;
      let changes = changedFiles.get(sessionId);
      if (changes === undefined) changedFiles.set(sessionId, (changes = new Map()));
      // What was read of it before this change is not what it holds now: the reading that follows says.
      changes.set(name, { isNew: isNew || changes.get(name)?.isNew === true, seen: undefined });
    },
  );
  const watcher = createRecordWatcher({
    recordDir: options.recordDir,
    ...(options.headStart !== undefined ? { headStart: options.headStart } : {}),
    index,
    ...(options.reconcileIntervalMs !== undefined ? { reconcileIntervalMs: options.reconcileIntervalMs } : {}),
    pendingWindowMs: options.pendingWindowMs,
    noticeGatherMs: NOTICE_GATHER_MS,
    noticesTold: () => Promise.all([notices.told(), earlyNotices.told()]),
    onSeenWhileScanning: tell,
    onAsked: (sessionId, name) => earlyNotices.gather(`${sessionId}\u0000${name}`),
    onRead(sessionId, name, reading) {
      const change = changedFiles.get(sessionId)?.get(name);
      if (change !== undefined) change.seen = textSeenIn(reading);
    },
    ...(options.onError !== undefined ? { onError: options.onError } : {}),
    onStatus: () => {
      statusVersion++;
      publish({ type: 'source', source: statusNow() });
    },
  });

  return {
    recordDir: options.recordDir,
    ref,
    status: statusNow,
    sessionIds: () => index.sessionIds(),
    fold: (sessionId) => index.fold(sessionId),
    readNow: (sessionId, name) => watcher.readNow(sessionId, name),
    readDone: (sessionId, name, read) => watcher.readDone(sessionId, name, read),
    recordLook: (sessionId, name, look) => watcher.recordLook(sessionId, name, look),
    looseFiles: () => index.looseFiles(),
    version: () => `${index.version()}.${statusVersion}`,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start: () => watcher.start(),
    async close() {
      notices.close();
      earlyNotices.close();
      if (settleTimer !== null) clearTimeout(settleTimer);
      listeners.clear();
      await watcher.close();
    },
  };
}
