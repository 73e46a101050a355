import { join } from 'node:path';
import type { PendingWindow } from '../../shared/evidence.ts';
import type { Indexing } from '../../shared/wire/common.ts';
import { SESSION_JSON, type ProjectLabel, type Stray } from '../../shared/spex/layout.ts';
import type { SegmentReading } from '../../shared/spex/segment.ts';
import { createSentIndex, type IndexedMark, type SentBy, type SessionsOfHome } from '../../shared/spex/sentBy.ts';
import type { SessionJsonReading } from '../../shared/spex/sessionJson.ts';
import type { LogItem, TimelineFacts } from '../../shared/spex/timeline.ts';
import { foldTimeline, orderReadings } from '../../shared/spex/timeline.ts';
import type { AppendMark } from '../watch/appendRead.ts';
import { createPendingTails } from '../watch/pendingTails.ts';
import { createStoreWatch } from '../watch/storeWatch.ts';
import { createSpexHome } from './spexHome.ts';
import { createSessionReads } from './spexSessions.ts';

// The file-system shell of a spex home (spex-timeline-format: Layout): the shared watch loop
// (server/watch/storeWatch.ts) over the home's folders (spexHome.ts), each session folder read
// from the offsets it remembers (spexSessions.ts), and the core's index of what each id sent
// (shared/spex/sentBy.ts). It never writes, locks or opens anything but `session.json` and
// segments, and opens those through the one safe open. It holds offsets and the core's facts;
// texts and notes are read again from disk for a page.

export type SegmentState = {
  reading: SegmentReading;
  path: string;
  mark: AppendMark | null;
  /** A closed segment's size and mtime once read whole: any other is a change. */
  closedStamp: { size: number; mtimeMs: number } | null;
};

/** What the reader holds of one session: facts and offsets, never a text. */
export type SpexSession = {
  sessionId: string;
  /** The project folder's name under `projects/`, as found. */
  projectFolder: string;
  folder: string;
  sessionJson: SessionJsonReading | null;
  sessionJsonStamp: string | null;
  segments: Map<string, SegmentState>;
  strays: Stray[];
  /**
   * The fold of its log, without its items: a line is held once, in its segment's columns, and
   * the log's items are made again when a page or a search asks (items()).
   */
  fold: TimelineFacts;
  /** Changes whenever the fold does. */
  version: number;
  /** Where the sent-by index stands in its log. */
  indexed: IndexedMark;
  /** Why the folder is listed and not read (its name is not UTF-8); null when it is read. */
  notRead: string | null;
};

export type SpexReader = {
  root: string;
  status(): { state: 'present' | 'missing' | 'unreadable'; why: string | null; indexing: Indexing };
  sessions(): Iterable<SpexSession>;
  session(sessionId: string): SpexSession | null;
  /** Which ids are sessions of this home, as `session` answers: for the spex core's rules. */
  sessionsOfHome: SessionsOfHome;
  project(folder: string): ProjectLabel | null;
  /** Names under the home that are listed and never read: links out of it, names that are not UTF-8. */
  strays(): string[];
  /** A session's log in place: its items, each with its line number. */
  items(session: SpexSession): LogItem[];
  /** The lines of other logs `from` this id. */
  sentBy(sessionId: string): SentBy;
  /** The path of a segment of a session, for a page to read a line again; null when unknown. */
  segmentPath(sessionId: string, segment: string): string | null;
  sessionJsonPath(sessionId: string): string | null;
  start(): Promise<void>;
  close(): Promise<void>;
};

type ReaderOptions = PendingWindow & {
  root: string;
  /** Told of sessions whose summary may have changed (their own log, or what others say they sent). */
  onChanged: (sessionIds: Set<string>) => void;
  onStatus: () => void;
  onError?: (message: string) => void;
  reconcileMs?: number;
};

/** How many sessions' items are kept made for pages, beyond the moment they are asked for. */
const ITEMS_KEPT = 16;

export function createSpexReader(options: ReaderOptions): SpexReader {
  const { root } = options;
  const rules = { root };
  const sessions = new Map<string, SpexSession>();
  const labels = new Map<string, ProjectLabel>();
  const itemsKept = new Map<string, { version: number; items: LogItem[] }>();
  const logOf = (sessionId: string): SegmentReading[] => {
    const session = sessions.get(sessionId);
    return session === undefined ? [] : orderReadings([...session.segments.values()].map((state) => state.reading));
  };
  const sentIndex = createSentIndex(logOf);
  // A pending tail is read again on a timer: the session it is in is refreshed.
  const pending = createPendingTails((sessionId) => {
    const session = sessions.get(sessionId);
    if (session !== undefined) watch.stir(session.folder, null);
  }, options.pendingWindowMs);
  const reads = createSessionReads({
    rules,
    sentIndex,
    pending,
    watch: (folder) => watch.watch(folder),
    lostFolder: (session) => home.listProjectOf(session),
    relabel: (projectFolder, changed) => home.relabel(projectFolder, changed),
    scanning: () => watch.scanning(),
  });
  const home = createSpexHome({
    root,
    sessions,
    labels,
    reads,
    sentIndex,
    pending,
    watch: (folder) => watch.watch(folder),
    unwatchUnder: (folder) => watch.unwatchUnder(folder),
    stir: (folder) => watch.stir(folder, null),
    scanning: () => watch.scanning(),
    onChanged: (ids) => options.onChanged(ids),
  });
  const watch = createStoreWatch({
    root,
    walker: home,
    onStatus: options.onStatus,
    ...(options.onError !== undefined ? { onError: (message: string) => options.onError!(`spex: ${message}`) } : {}),
    ...(options.reconcileMs !== undefined ? { reconcileMs: options.reconcileMs } : {}),
  });

  return {
    root,
    status: () => watch.status(),
    sessions: () => sessions.values(),
    session: (sessionId) => sessions.get(sessionId) ?? null,
    sessionsOfHome: { has: (sessionId) => sessions.has(sessionId) },
    project: (folder) => labels.get(folder) ?? null,
    strays: () => home.strays(),
    items(session) {
      const kept = itemsKept.get(session.sessionId);
      if (kept !== undefined && kept.version === session.version) return kept.items;
      const { items } = foldTimeline(session.sessionId, session.sessionJson, [...session.segments.values()].map((state) => state.reading), session.strays, session.notRead);
      itemsKept.delete(session.sessionId);
      itemsKept.set(session.sessionId, { version: session.version, items });
      if (itemsKept.size > ITEMS_KEPT) itemsKept.delete(itemsKept.keys().next().value!);
      return items;
    },
    sentBy: (sessionId) => sentIndex.sentBy(sessionId),
    segmentPath: (sessionId, segment) => sessions.get(sessionId)?.segments.get(segment)?.path ?? null,
    sessionJsonPath(sessionId) {
      const session = sessions.get(sessionId);
      return session === undefined || session.notRead !== null ? null : join(session.folder, SESSION_JSON);
    },
    start: () => watch.start(),
    async close() {
      pending.close();
      await watch.close();
    },
  };
}
