import { constants, closeSync, fstatSync, lstatSync, openSync, readSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { Indexing } from '../../shared/wire/common.ts';
import { PENDING_WINDOW_MS, nextRetryDelay } from '../../shared/evidence.ts';
import type { ListedName, NameType, Stray } from '../../shared/spex/layout.ts';
import { SEGMENT_FOLDER, SESSION_JSON, labelProject, listSegments, type ProjectLabel } from '../../shared/spex/layout.ts';
import type { LineColumns } from '../../shared/spex/columns.ts';
import { SHAPE_KEPT, SHAPE_SENT, findName, formatInstant, indexName, nameAt, readLineItem, readLineShape } from '../../shared/spex/columns.ts';
import type { SegmentReading, TimelineItem } from '../../shared/spex/segment.ts';
import { createSegmentReading, isTailPastWindow, markSegmentChanged, markSegmentUnreadable, readSegmentLines } from '../../shared/spex/segment.ts';
import type { SessionJsonReading } from '../../shared/spex/sessionJson.ts';
import { readSessionJson } from '../../shared/spex/sessionJson.ts';
import type { LogItem, TimelineFacts } from '../../shared/spex/timeline.ts';
import { foldTimeline, foldTimelineFacts, orderReadings } from '../../shared/spex/timeline.ts';
import { describeError } from '../watch/describeError.ts';
import { readAppended, type AppendMark } from '../watch/appendRead.ts';
import { listFolder } from '../watch/listFolder.ts';
import { createRetryQueue } from '../watch/retryQueue.ts';

// The file-system shell of a spex home (spex-timeline-format: Layout): which folders hold sessions,
// which files are a session's segments, and what has been read of each. It reads appends from the
// offset it remembers, re-reads a pending tail until it completes or is torn, and never writes,
// locks or opens anything but `session.json` and segments. It holds offsets and the core's facts;
// texts and notes are read again from disk for a page.

export const PROJECTS = 'projects';
export const SESSIONS = 'sessions';

/** session.json is a small record of state; a larger one is no writer's and is not read. */
const SESSION_JSON_MAX_BYTES = 1024 * 1024;
/** A line is read whole to be parsed; a segment's unread bytes beyond this are not read at once. */
const READ_MAX_BYTES = 512 * 1024 * 1024;
/** Reads of up to this many bytes (a segment spex bounds at 4 MiB) go through one buffer, read again and again. */
const SCRATCH_BYTES = 8 * 1024 * 1024;
/** Missed watch events (a burst beyond the kernel's queue) are caught by a look at everything. */
const RECONCILE_MS = 30_000;
/** The first scan gives the event loop back this often, so the API answers while it runs. */
const SCAN_SLICE_MS = 10;
/** How often the first scan's progress is told: each notice goes to every client. */
const PROGRESS_EVERY_MS = 100;

type SegmentState = {
  reading: SegmentReading;
  path: string;
  mark: AppendMark | null;
  /** Where the tail began when first seen, and when (wall clock, to compare with mtime; steady clock for the window). */
  tailSeen: { offset: number; wallAt: number; steadyAt: number } | null;
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
  fold: SessionFold;
  /** Changes whenever the fold does. */
  version: number;
  /**
   * The last line of the log in the sent-by index: its number, and where it lies (its segment's
   * columns, its index in them). A later fold that still has it there only adds what follows.
   */
  indexed: { line: number; at: LineColumns | null; index: number };
};

/** A fold as the reader keeps it: its counts and reasons, and the times its items span. */
export type SessionFold = TimelineFacts;

/**
 * What one id sent: the `sent` lines of other logs whose `from` is that id, each receiver's in its
 * file order. Columns, one entry a line (a sender heard by hundreds holds thousands): the
 * receiver, the line's number in its log, and its item. The index holds numbers; the lists are
 * made when asked (a page), and kept for a few senders.
 */
type SentBy = {
  /** How many lines: `lines.length`, without making the lists. */
  readonly count: number;
  readonly receivers: string[];
  readonly lines: number[];
  readonly items: TimelineItem[];
  readonly lastAt: string | null;
  /** Changes whenever the columns do. */
  readonly version: number;
};

const NOTHING_SENT: SentBy = { count: 0, receivers: [], lines: [], items: [], lastAt: null, version: 0 };
/** How many sessions' items, and senders' sent items, are kept made for pages, beyond the moment they are asked for. */
const ITEMS_KEPT = 16;

/** What the index makes of a sender's columns when asked: the lists of SentBy. */
type SentLists = { receivers: string[]; lines: number[]; items: TimelineItem[] };

/** A sender's lines in the index, as two columns of numbers; the lists and the latest time are made when asked, once for each version. */
class SentLines implements SentBy {
  count = 0;
  /** Each line's receiver (its index in the reader's session ids) and its line's number, side by side. */
  pairs = new Uint32Array(64);
  version = 0;
  /** Which call to indexSent last added to it: each call tells a sender once. */
  addedBy = 0;
  /** The latest time of the lines: a number where the columns hold it, a text where the line keeps its own. */
  lastTime = Number.NaN;
  lastText: string | null = null;
  listsMade: { version: number; lists: SentLists } | null = null;
  lastMade: { version: number; lastAt: string | null } | null = null;
  /** Makes the lists, from the receivers' columns; told, so that only a few senders' are kept. */
  makeLists: (sent: SentLines) => SentLists;
  /** The sender's id. */
  from: string;

  constructor(from: string, makeLists: (sent: SentLines) => SentLists) {
    this.from = from;
    this.makeLists = makeLists;
  }

  get receivers(): string[] {
    return this.readLists().receivers;
  }

  get lines(): number[] {
    return this.readLists().lines;
  }

  get items(): TimelineItem[] {
    return this.readLists().items;
  }

  readLists(): SentLists {
    if (this.listsMade === null || this.listsMade.version !== this.version) this.listsMade = { version: this.version, lists: this.makeLists(this) };
    return this.listsMade.lists;
  }

  get lastAt(): string | null {
    if (this.lastMade === null || this.lastMade.version !== this.version) {
      const time = Number.isNaN(this.lastTime) ? null : formatInstant(this.lastTime);
      this.lastMade = { version: this.version, lastAt: time === null ? this.lastText : this.lastText === null || time >= this.lastText ? time : this.lastText };
    }
    return this.lastMade.lastAt;
  }

  add(receiver: number, line: number): void {
    const at = this.count * 2;
    if (at === this.pairs.length) {
      const pairs = new Uint32Array(at * 2);
      pairs.set(this.pairs);
      this.pairs = pairs;
    }
    this.pairs[at] = receiver;
    this.pairs[at + 1] = line;
    this.count++;
  }

  /** Adds the time of a line: a number from the columns, or a text the line keeps. */
  addTime(time: number, text: string | null): void {
    if (!Number.isNaN(time) && (Number.isNaN(this.lastTime) || time > this.lastTime)) this.lastTime = time;
    if (text !== null && (this.lastText === null || text > this.lastText)) this.lastText = text;
  }
}

/** Where line `line` of a log (its readings in log order) lies: its segment's columns and its index in them; null if a tail or none. */
function findLine(readings: readonly SegmentReading[], line: number): { lines: LineColumns; index: number } | null {
  let before = 0;
  for (const reading of readings) {
    if (line <= before + reading.lines.count) return line > before ? { lines: reading.lines, index: line - before - 1 } : null;
    before += reading.lines.count + (reading.tail === null ? 0 : 1);
  }
  return null;
}

/** The item of a line the sent-by index no longer finds where it found it: never shown as a message. */
const LINE_MOVED: TimelineItem = { segment: '', start: 0, end: 0, evidence: 'damaged', why: 'the line is no longer where the index found it' };

/** The sender and time of a `sent` line, or null when the line is none. */
function readSentLine(lines: LineColumns, index: number): { from: string | null; time: number; text: string | null } | null {
  const shape = readLineShape(lines, index);
  if (shape === SHAPE_SENT) return { from: nameAt(lines.name[index]!), time: lines.time[index]!, text: null };
  if (shape !== SHAPE_KEPT) return null;
  const outcome = lines.kept.get(index);
  if (outcome?.evidence !== 'parsed' || outcome.facts.kind !== 'sent') return null;
  return { from: outcome.facts.from, time: Number.NaN, text: outcome.facts.ts };
}

export type SpexReader = {
  root: string;
  status(): { state: 'present' | 'missing' | 'unreadable'; why: string | null; indexing: Indexing };
  sessions(): Iterable<SpexSession>;
  session(sessionId: string): SpexSession | null;
  project(folder: string): ProjectLabel | null;
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

type ReaderOptions = {
  root: string;
  /** Told of sessions whose summary may have changed (their own log, or what others say they sent). */
  onChanged: (sessionIds: Set<string>) => void;
  onStatus: () => void;
  onError?: (message: string) => void;
  reconcileMs?: number;
};

export function createSpexReader(options: ReaderOptions): SpexReader {
  const { root } = options;
  const projectsDir = join(root, PROJECTS);
  const sessions = new Map<string, SpexSession>();
  const projectLabels = new Map<string, ProjectLabel>();
  // One map from a sender's id to the lines it sent, kept as lines are read, never rebuilt whole.
  const sentIndex = new Map<string, SentLines>();
  // The same, by the sender's index in the core's table of names: what a line's columns hold.
  const sentByName: (SentLines | undefined)[] = [];
  let sentVersion = 0;
  let indexCalls = 0;
  const itemsKept = new Map<string, { version: number; items: LogItem[] }>();
  const sentItemsKept = new Set<SentLines>();
  // The receivers of the sent-by index as numbers: each session's id, once.
  const receiverIds: string[] = [];
  const receiverIndex = new Map<string, number>();
  const indexReceiver = (sessionId: string): number => {
    let index = receiverIndex.get(sessionId);
    if (index === undefined) {
      index = receiverIds.push(sessionId) - 1;
      receiverIndex.set(sessionId, index);
    }
    return index;
  };
  /** A sender's lists, its items found in its receivers' logs; only a few senders' are kept made. */
  const makeSentLists = (sent: SentLines): SentLists => {
    const logs = new Map<string, SegmentReading[]>();
    const lists: SentLists = { receivers: [], lines: [], items: [] };
    for (let entry = 0; entry < sent.count; entry++) {
      const receiver = receiverIds[sent.pairs[entry * 2]!]!;
      const line = sent.pairs[entry * 2 + 1]!;
      const found = findLine(logOf(receiver, logs), line);
      lists.receivers.push(receiver);
      lists.lines.push(line);
      lists.items.push(found === null ? LINE_MOVED : readLineItem(found.lines, found.index));
    }
    sentItemsKept.delete(sent);
    sentItemsKept.add(sent);
    if (sentItemsKept.size > ITEMS_KEPT) {
      const oldest = sentItemsKept.values().next().value!;
      sentItemsKept.delete(oldest);
      oldest.listsMade = null;
    }
    return lists;
  };
  /** A session's readings in log order, once for each session a caller asks of. */
  const logOf = (sessionId: string, logs: Map<string, SegmentReading[]>): SegmentReading[] => {
    let log = logs.get(sessionId);
    if (log === undefined) {
      const session = sessions.get(sessionId);
      logs.set(sessionId, (log = session === undefined ? [] : orderReadings([...session.segments.values()].map((state) => state.reading))));
    }
    return log;
  };
  const watchers = new Map<string, FSWatcher>();
  // Nothing read into it outlives one readSegment: the core keeps numbers, and the mark is taken at once.
  const scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  const dirty = new Set<string>();
  const dirtyFolders = new Set<string>();
  let flushQueued = false;
  let closed = false;
  let rootState: { state: 'present' | 'missing' | 'unreadable'; why: string | null } = { state: 'missing', why: null };
  let indexing: Indexing = { state: 'waiting', files: 0 };
  let reconcileTimer: NodeJS.Timeout | null = null;
  let rootTimer: NodeJS.Timeout | null = null;
  /** While the first scan runs, folders above the sessions are listed by it, not by each event. */
  let scanning = false;
  const retries = createRetryQueue((sessionId) => markDirty(sessionId));

  const setStatus = (next: typeof rootState, nextIndexing: Indexing = indexing) => {
    if (next.state === rootState.state && next.why === rootState.why && nextIndexing.state === indexing.state && nextIndexing.files === indexing.files) return;
    rootState = next;
    indexing = nextIndexing;
    options.onStatus();
  };

  function markDirty(sessionId: string): void {
    dirty.add(sessionId);
    queueFlush();
  }

  function queueFlush(): void {
    if (flushQueued || closed) return;
    flushQueued = true;
    setImmediate(flush);
  }

  function flush(): void {
    flushQueued = false;
    if (closed) return;
    const changed = new Set<string>();
    // A folder listed now would scan in one go what the first scan reads in slices: it waits for it.
    const folders = scanning ? [] : [...dirtyFolders];
    for (const folder of folders) dirtyFolders.delete(folder);
    for (const folder of folders) lookAtFolder(folder, changed);
    const ids = [...dirty];
    dirty.clear();
    for (const sessionId of ids) {
      const session = sessions.get(sessionId);
      if (session !== undefined) refreshSession(session, changed);
    }
    if (changed.size > 0) options.onChanged(changed);
  }

  /** A folder above the sessions (root, projects/, a project, its sessions/) changed: list it. */
  function lookAtFolder(folder: string, changed: Set<string>): void {
    if (folder === root || folder === projectsDir) {
      listHome(changed);
      return;
    }
    const projectFolder = folder.slice(projectsDir.length + 1).split('/')[0]!;
    listProject(projectFolder, changed);
  }

  function listHome(changed: Set<string>): void {
    for (const _step of listHomeInSteps(changed));
  }

  /** Lists the home, yielding after each session read, so that a caller can read it in slices. */
  function* listHomeInSteps(changed: Set<string>): Generator<void> {
    let projects: ListedName[];
    try {
      lstatSync(root);
      setStatus({ state: 'present', why: null });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      setStatus(code === 'ENOENT' ? { state: 'missing', why: `${root} does not exist yet; waiting for it` } : { state: 'unreadable', why: describeError(error as NodeJS.ErrnoException) });
      forgetAll(changed);
      return;
    }
    watchFolder(root);
    try {
      projects = listNames(projectsDir);
    } catch {
      // A spex home without projects/ has recorded nothing yet: nothing, not unknown.
      forgetAll(changed);
      return;
    }
    watchFolder(projectsDir);
    const present = new Set<string>();
    for (const { name, type } of projects) {
      if (type !== 'folder') continue;
      present.add(name);
      yield* listProjectInSteps(name, changed);
    }
    for (const session of [...sessions.values()]) if (!present.has(session.projectFolder)) forget(session, changed);
  }

  function listProject(projectFolder: string, changed: Set<string>): void {
    for (const _step of listProjectInSteps(projectFolder, changed));
  }

  function* listProjectInSteps(projectFolder: string, changed: Set<string>): Generator<void> {
    const projectDir = join(projectsDir, projectFolder);
    const sessionsDir = join(projectDir, SESSIONS);
    let names: ListedName[] = [];
    try {
      watchFolder(projectDir);
      names = listNames(sessionsDir);
      watchFolder(sessionsDir);
    } catch {
      names = [];
    }
    const present = new Set<string>();
    for (const { name, type } of names) {
      if (type !== 'folder') continue;
      present.add(name);
      let session = sessions.get(name);
      if (session === undefined) {
        session = {
          sessionId: name,
          projectFolder,
          folder: join(sessionsDir, name),
          sessionJson: null,
          sessionJsonStamp: null,
          segments: new Map(),
          strays: [],
          fold: foldTimelineFacts(name, null, []),
          version: 0,
          indexed: { line: 0, at: null, index: 0 },
        };
        sessions.set(name, session);
        refreshSession(session, changed, true);
        yield;
      } else if (session.projectFolder === projectFolder) {
        refreshSession(session, changed);
        yield;
      }
    }
    for (const session of [...sessions.values()]) if (session.projectFolder === projectFolder && !present.has(session.sessionId)) forget(session, changed);
    relabel(projectFolder, changed);
  }

  function forgetAll(changed: Set<string>): void {
    for (const session of [...sessions.values()]) forget(session, changed);
  }

  function forget(session: SpexSession, changed: Set<string>): void {
    sessions.delete(session.sessionId);
    retries.cancel(session.sessionId);
    unindexSent(session, changed);
    for (const path of [session.folder, join(session.folder, SEGMENT_FOLDER)]) unwatch(path);
    changed.add(session.sessionId);
    relabel(session.projectFolder, changed);
  }

  /** A project's label comes from its sessions' worktree paths: a change tells each of them. */
  function relabel(projectFolder: string, changed: Set<string>): void {
    const members = [...sessions.values()].filter((session) => session.projectFolder === projectFolder);
    if (members.length === 0) {
      projectLabels.delete(projectFolder);
      return;
    }
    const label = labelProject(
      projectFolder,
      members.map((session) => (session.sessionJson?.state === 'known' ? session.sessionJson.meta.worktree_path : null)),
    );
    const before = projectLabels.get(projectFolder);
    projectLabels.set(projectFolder, label);
    if (before !== undefined && (before.label !== label.label || before.source !== label.source)) for (const session of members) changed.add(session.sessionId);
  }

  /** Reads what changed in one session folder; adds the sessions whose summary changed to `changed`. */
  function refreshSession(session: SpexSession, changed: Set<string>, fresh = false): void {
    const before = signature(session);
    watchFolder(session.folder);
    let listedSession: ListedName[];
    try {
      listedSession = listNames(session.folder);
    } catch {
      // Gone: the folder above will be listed again, and says so.
      dirtyFolders.add(join(projectsDir, session.projectFolder));
      queueFlush();
      return;
    }
    const timelineDir = join(session.folder, SEGMENT_FOLDER);
    let listedTimeline: ListedName[] | null = null;
    if (listedSession.some((entry) => entry.name === SEGMENT_FOLDER && entry.type === 'folder')) {
      try {
        listedTimeline = listNames(timelineDir);
        watchFolder(timelineDir);
      } catch {
        listedTimeline = null;
      }
    }
    let sessionJsonChanged = false;
    if (listedSession.some((entry) => entry.name === SESSION_JSON)) sessionJsonChanged = readSessionJsonIfChanged(session);
    else if (session.sessionJsonStamp !== null) {
      session.sessionJson = null;
      session.sessionJsonStamp = null;
      sessionJsonChanged = true;
    }
    const layout = listSegments(listedSession, listedTimeline);
    session.strays = layout.strays;
    const listed = new Set(layout.segments.map((segment) => segment.name));
    // A segment that was read and is no longer there: spex never deletes one.
    for (const [name, state] of session.segments) {
      if (!listed.has(name) && state.reading.changed === null && state.reading.offset > 0) {
        markSegmentChanged(state.reading, 'removed after it was read, or no longer a file; spex never deletes a segment');
      }
    }
    let pendingTail = false;
    layout.segments.forEach((segment, index) => {
      let state = session.segments.get(segment.name);
      if (state === undefined) {
        state = { reading: createSegmentReading(segment.name), path: join(session.folder, segment.name), mark: null, tailSeen: null, closedStamp: null };
        session.segments.set(segment.name, state);
      }
      const isLast = index === layout.segments.length - 1;
      if (readSegment(state, !isLast)) pendingTail = true;
    });
    if (pendingTail) {
      const tail = [...session.segments.values()].find((state) => state.reading.tail?.evidence === 'pending')?.tailSeen;
      retries.schedule(session.sessionId, (attempt) => (tail === undefined || tail === null ? 1000 : nextRetryDelay(attempt, performance.now(), tail.steadyAt)));
    } else {
      retries.cancel(session.sessionId);
    }
    if (!fresh && signature(session) === before) return;
    const readings = orderReadings([...session.segments.values()].map((state) => state.reading));
    session.fold = foldTimelineFacts(session.sessionId, session.sessionJson, readings, session.strays);
    session.version++;
    changed.add(session.sessionId);
    indexSent(session, readings, changed);
    // The first scan labels each project once its sessions are read, not once for each of them.
    if (fresh ? !scanning : sessionJsonChanged) relabel(session.projectFolder, changed);
  }

  /** Reads session.json again when its identity, size or mtime moved; says whether it did. */
  function readSessionJsonIfChanged(session: SpexSession): boolean {
    const path = join(session.folder, SESSION_JSON);
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const stamp = `error:${code ?? ''}`;
      if (stamp === session.sessionJsonStamp) return false;
      session.sessionJsonStamp = stamp;
      session.sessionJson = code === 'ENOENT' ? null : { state: 'unknown', evidence: 'unreadable', why: code === 'ELOOP' ? 'session.json is a symbolic link: not followed' : `session.json could not be read: ${describeError(error as NodeJS.ErrnoException)}` };
      return true;
    }
    try {
      const stat = fstatSync(fd);
      const stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
      if (stamp === session.sessionJsonStamp) return false;
      session.sessionJsonStamp = stamp;
      if (!stat.isFile()) {
        session.sessionJson = { state: 'unknown', evidence: 'unreadable', why: 'session.json is not a file' };
        return true;
      }
      if (stat.size > SESSION_JSON_MAX_BYTES) {
        session.sessionJson = { state: 'unknown', evidence: 'unreadable', why: `session.json is ${stat.size} bytes, larger than any session record; not read` };
        return true;
      }
      const bytes = Buffer.allocUnsafe(stat.size);
      let filled = 0;
      while (filled < bytes.length) {
        const n = readSync(fd, bytes, filled, bytes.length - filled, filled);
        if (n === 0) break;
        filled += n;
      }
      session.sessionJson = keepFacts(readSessionJson(bytes.subarray(0, filled)));
      return true;
    } catch (error) {
      session.sessionJson = { state: 'unknown', evidence: 'unreadable', why: `session.json could not be read: ${describeError(error as NodeJS.ErrnoException)}` };
      return true;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Reads a segment's new bytes; `closed` when a later segment exists. Returns whether a pending
   * tail is left to read again.
   */
  function readSegment(state: SegmentState, closed: boolean): boolean {
    const { reading } = state;
    if (reading.changed !== null) return false;
    if (reading.closed) {
      // Read whole once closed: never read again unless its size or mtime moved.
      let stat;
      try {
        stat = lstatSync(state.path);
      } catch {
        return false;
      }
      if (state.closedStamp !== null && stat.size === state.closedStamp.size && stat.mtimeMs === state.closedStamp.mtimeMs) return false;
    }
    const read = readAppended(state.path, reading.offset, state.mark, READ_MAX_BYTES, scratch);
    switch (read.type) {
      case 'missing':
      case 'not-a-file':
        if (reading.offset > 0) markSegmentChanged(reading, read.type === 'missing' ? 'removed after it was read; spex never deletes a segment' : `changed after it was read: now ${read.what}`);
        return false;
      case 'unreadable':
        markSegmentUnreadable(reading, read.why);
        return false;
      case 'changed':
        markSegmentChanged(reading, read.why);
        return false;
      case 'read':
        break;
    }
    if (reading.closed) {
      if (read.bytes.length > 0) readSegmentLines(reading, read.bytes);
      else markSegmentChanged(reading, 'its modification time changed after it was closed; spex never writes to a closed segment');
      return false;
    }
    const lastNewline = read.bytes.lastIndexOf(0x0a);
    const tailStart = reading.offset + lastNewline + 1;
    const hasTail = tailStart < reading.offset + read.bytes.length;
    let pastWindow = false;
    if (hasTail && !closed) {
      if (state.tailSeen === null || state.tailSeen.offset !== tailStart) state.tailSeen = { offset: tailStart, wallAt: Date.now(), steadyAt: performance.now() };
      pastWindow = isTailPastWindow(Date.now(), state.tailSeen.wallAt, read.mtimeMs) || performance.now() - state.tailSeen.steadyAt >= PENDING_WINDOW_MS;
    } else {
      state.tailSeen = null;
    }
    readSegmentLines(reading, read.bytes, { closed, pastWindow });
    state.mark = read.mark(reading.offset);
    if (closed) state.closedStamp = { size: read.size, mtimeMs: read.mtimeMs };
    return reading.tail?.evidence === 'pending';
  }

  /**
   * Adds the `sent` lines of a session's log (its readings in log order) to the sent-by index:
   * only the lines after those already in it when the log keeps them in place (lines were
   * appended), else all of its lines again. Tells each sender whose lines changed.
   */
  function indexSent(session: SpexSession, readings: readonly SegmentReading[], changed: Set<string>): void {
    if (!isIndexKept(session.indexed, readings)) unindexSent(session, changed);
    const { indexed } = session;
    let lastLine = indexed.line;
    let lastAt = indexed.at;
    let lastIndex = indexed.index;
    const receiver = indexReceiver(session.sessionId);
    const self = findName(session.sessionId);
    const call = ++indexCalls;
    let line = 0;
    for (const reading of readings) {
      const { lines } = reading;
      // A tail in place is no line of the index: it is indexed once it is a line.
      const tail = reading.tail === null ? 0 : 1;
      if (line + lines.count <= indexed.line) {
        line += lines.count + tail;
        continue;
      }
      for (let index = 0; index < lines.count; index++) {
        line++;
        if (line <= indexed.line) continue;
        lastLine = line;
        lastAt = lines;
        lastIndex = index;
        const shape = readLineShape(lines, index);
        let sent: SentLines;
        if (shape === SHAPE_SENT) {
          // Most lines: the sender is found by the number its line holds, never by its text.
          const name = lines.name[index]!;
          if (name === 0 || name === self) continue;
          sent = sentByName[name] ?? openSent(nameAt(name)!, name);
          sent.add(receiver, line);
          sent.addTime(lines.time[index]!, null);
        } else if (shape === SHAPE_KEPT) {
          const outcome = lines.kept.get(index);
          if (outcome?.evidence !== 'parsed' || outcome.facts.kind !== 'sent') continue;
          const from = outcome.facts.from;
          if (from === null || from === session.sessionId) continue;
          sent = sentIndex.get(from) ?? openSent(from, indexName(from));
          sent.add(receiver, line);
          sent.addTime(Number.NaN, outcome.facts.ts);
        } else continue;
        if (sent.addedBy !== call) {
          sent.addedBy = call;
          changed.add(sent.from);
        }
        sent.version = ++sentVersion;
      }
      line += tail;
    }
    session.indexed = { line: lastLine, at: lastAt, index: lastIndex };
  }

  /** A sender's entry in the index, new; `name` is its index in the table of names (-1: none). */
  function openSent(from: string, name: number): SentLines {
    const sent = new SentLines(from, makeSentLists);
    sentIndex.set(from, sent);
    if (name > 0) sentByName[name] = sent;
    return sent;
  }

  /** Whether the last line indexed is still where it was: the log kept its lines in place. */
  function isIndexKept(indexed: SpexSession['indexed'], readings: readonly SegmentReading[]): boolean {
    if (indexed.line === 0) return true;
    let line = 0;
    for (const reading of readings) {
      if (indexed.line <= line + reading.lines.count) return reading.lines === indexed.at && indexed.line - line - 1 === indexed.index;
      line += reading.lines.count + (reading.tail === null ? 0 : 1);
    }
    return false;
  }

  /** Takes a session's lines out of the sent-by index (it is forgotten, or its log is read again). */
  function unindexSent(session: SpexSession, changed: Set<string>): void {
    const receiver = receiverIndex.get(session.sessionId);
    const logs = new Map<string, SegmentReading[]>();
    for (const from of listSenders(session)) {
      const sent = sentIndex.get(from);
      if (sent === undefined) continue;
      let kept = 0;
      sent.lastTime = Number.NaN;
      sent.lastText = null;
      const { pairs } = sent;
      for (let entry = 0; entry < sent.count; entry++) {
        const by = pairs[entry * 2]!;
        const line = pairs[entry * 2 + 1]!;
        if (by === receiver) continue;
        pairs[kept * 2] = by;
        pairs[kept * 2 + 1] = line;
        kept++;
        const found = findLine(logOf(receiverIds[by]!, logs), line);
        const sentLine = found === null ? null : readSentLine(found.lines, found.index);
        if (sentLine !== null) sent.addTime(sentLine.time, sentLine.text);
      }
      sent.count = kept;
      sent.version = ++sentVersion;
      if (kept === 0) {
        sentIndex.delete(from);
        const name = findName(from);
        if (name > 0 && sentByName[name] === sent) sentByName[name] = undefined;
        sentItemsKept.delete(sent);
      }
      changed.add(from);
    }
    session.indexed = { line: 0, at: null, index: 0 };
  }

  /**
   * The senders a session's log names: every one whose lines of it the index may hold. Read from
   * its columns, which only grow, rather than kept beside them: a log hears from hundreds.
   */
  function listSenders(session: SpexSession): Set<string> {
    const senders = new Set<string>();
    if (session.indexed.line === 0) return senders;
    for (const { reading } of session.segments.values()) {
      const { lines } = reading;
      for (let index = 0; index < lines.count; index++) {
        const from = readSentLine(lines, index)?.from;
        if (from !== undefined && from !== null && from !== session.sessionId) senders.add(from);
      }
    }
    return senders;
  }

  function watchFolder(path: string): void {
    if (watchers.has(path) || closed) return;
    try {
      const watcher = watch(path, { persistent: false }, (_event, name) => onFolderEvent(path, name === null ? null : String(name)));
      watcher.on('error', () => {
        unwatch(path);
        dirtyFolders.add(root);
        queueFlush();
      });
      watchers.set(path, watcher);
    } catch (error) {
      options.onError?.(`spex: cannot watch ${path}: ${describeError(error as NodeJS.ErrnoException)}; it is read by reconciles`);
    }
  }

  function unwatch(path: string): void {
    watchers.get(path)?.close();
    watchers.delete(path);
  }

  function onFolderEvent(folder: string, _name: string | null): void {
    if (closed) return;
    const rel = folder.length > projectsDir.length ? folder.slice(projectsDir.length + 1).split('/') : [];
    // projects/<p>/sessions/<id>[/timeline]
    if (rel.length >= 3 && rel[1] === SESSIONS) {
      if (sessions.has(rel[2]!)) markDirty(rel[2]!);
      else dirtyFolders.add(join(projectsDir, rel[0]!));
      queueFlush();
      return;
    }
    dirtyFolders.add(rel.length === 0 ? root : join(projectsDir, rel[0]!));
    queueFlush();
  }

  function reconcile(): void {
    reconcileTimer = null;
    if (closed) return;
    const changed = new Set<string>();
    listHome(changed);
    if (changed.size > 0) options.onChanged(changed);
    reconcileTimer = setTimeout(reconcile, options.reconcileMs ?? RECONCILE_MS);
    reconcileTimer.unref();
  }

  return {
    root,
    // While the first scan runs, how far it is, counted now: its notices are fewer.
    status: () => ({ ...rootState, indexing: scanning ? { state: 'scanning', files: countSegments() } : indexing }),
    sessions: () => sessions.values(),
    session: (sessionId) => sessions.get(sessionId) ?? null,
    project: (folder) => projectLabels.get(folder) ?? null,
    items(session) {
      const kept = itemsKept.get(session.sessionId);
      if (kept !== undefined && kept.version === session.version) return kept.items;
      const { items } = foldTimeline(session.sessionId, session.sessionJson, [...session.segments.values()].map((state) => state.reading), session.strays);
      itemsKept.delete(session.sessionId);
      itemsKept.set(session.sessionId, { version: session.version, items });
      if (itemsKept.size > ITEMS_KEPT) itemsKept.delete(itemsKept.keys().next().value!);
      return items;
    },
    sentBy(sessionId) {
      return sentIndex.get(sessionId) ?? NOTHING_SENT;
    },
    segmentPath(sessionId, segment) {
      return sessions.get(sessionId)?.segments.get(segment)?.path ?? null;
    },
    sessionJsonPath(sessionId) {
      const session = sessions.get(sessionId);
      return session === undefined ? null : join(session.folder, SESSION_JSON);
    },
    async start() {
      setStatus(rootState, { state: 'scanning', files: 0 });
      scanning = true;
      const changed = new Set<string>();
      let toldAt = performance.now();
      let sliceAt = performance.now();
      try {
        for (const _step of listHomeInSteps(changed)) {
          if (performance.now() - sliceAt < SCAN_SLICE_MS) continue;
          if (performance.now() - toldAt >= PROGRESS_EVERY_MS) {
            setStatus(rootState, { state: 'scanning', files: countSegments() });
            toldAt = performance.now();
          }
          await new Promise((resolve) => setImmediate(resolve));
          if (closed) return;
          sliceAt = performance.now();
        }
      } finally {
        // Whatever stopped the scan, events are again read as they come.
        scanning = false;
      }
      // What the scan read is the start, not news; what changed meanwhile was told as it came.
      setStatus(rootState, { state: rootState.state === 'present' ? 'ready' : 'waiting', files: countSegments() });
      if (dirtyFolders.size > 0) queueFlush();
      reconcileTimer = setTimeout(reconcile, options.reconcileMs ?? RECONCILE_MS);
      reconcileTimer.unref();
      if (rootState.state !== 'present') startLookingForRoot();
    },
    async close() {
      closed = true;
      retries.close();
      if (reconcileTimer !== null) clearTimeout(reconcileTimer);
      if (rootTimer !== null) clearInterval(rootTimer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };

  function countSegments(): number {
    let files = 0;
    for (const session of sessions.values()) files += session.segments.size;
    return files;
  }

  // A home that does not exist yet is looked for every second, as the record's directory is.
  function startLookingForRoot(): void {
    rootTimer = setInterval(() => {
      const changed = new Set<string>();
      listHome(changed);
      if (rootState.state === 'present') {
        if (rootTimer !== null) clearInterval(rootTimer);
        rootTimer = null;
        setStatus(rootState, { state: 'ready', files: countSegments() });
      }
      if (changed.size > 0) options.onChanged(changed);
    }, 1000);
    rootTimer.unref();
  }
}

/** What the reader keeps of session.json: its facts, with whether it holds a note, not the note. */
function keepFacts(reading: SessionJsonReading): SessionJsonReading {
  if (reading.state === 'unknown') return reading;
  return { state: 'known', meta: { ...reading.meta, note: reading.meta.note === null ? null : '', others: {} } };
}

/** What of a session, if it changed, changes what a reader is told. */
function signature(session: SpexSession): string {
  let text = `${session.sessionJsonStamp}|${session.strays.map((stray) => stray.name).join('/')}|`;
  for (const { reading } of session.segments.values()) {
    text += `${reading.segment}:${reading.offset}:${reading.scanned}:${reading.lines.count}:${reading.tail?.evidence ?? '-'}:${reading.tail?.end ?? ''}:${reading.closed}:${reading.changed ?? ''}:${reading.unreadable ?? ''};`;
  }
  return text;
}

function listNames(path: string): ListedName[] {
  return listFolder(path).map((entry) => ({ name: entry.name, type: typeOf(entry) }));
}

function typeOf(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink?: () => boolean }): NameType {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  if (entry.isSymbolicLink?.() === true) return 'link';
  return 'other';
}

