import { join } from 'node:path';
import type { ListedName, NameType } from '../../shared/spex/layout.ts';
import { SEGMENT_FOLDER, SESSION_JSON, compareSegments, listSegments, parseSegmentName } from '../../shared/spex/layout.ts';
import type { SegmentReading } from '../../shared/spex/segment.ts';
import { createSegmentReading, markSegmentChanged, markSegmentUnreadable, readSegmentLines } from '../../shared/spex/segment.ts';
import type { SentIndex } from '../../shared/spex/sentBy.ts';
import type { SessionJsonReading } from '../../shared/spex/sessionJson.ts';
import { readSessionJson } from '../../shared/spex/sessionJson.ts';
import { foldTimelineFacts, orderReadings } from '../../shared/spex/timeline.ts';
import { readAppended } from '../watch/appendRead.ts';
import { createReadScratch } from '../watch/safeOpen.ts';
import { listStoreFolder, type FolderEntry } from '../watch/listFolder.ts';
import type { PendingTails } from '../watch/pendingTails.ts';
import { readWhole, statPath, type OpenRules } from '../watch/safeOpen.ts';
import type { SegmentState, SpexSession } from './spexReader.ts';

// Reading one spex session folder (spex-timeline-format: Layout): its listing, `session.json`,
// and each segment from the offset it was read to; a pending tail is timed from the reader's
// first look at it (shared/evidence.ts) and read again until it completes or is torn. What a
// session holds is its fold's facts and its segments' columns: never a text.

/** session.json is a small record of state; a larger one is no writer's and is not read. */
const SESSION_JSON_MAX_BYTES = 1024 * 1024;
/** A line is read whole to be parsed; a segment's unread bytes beyond this are not read at once. */
const READ_MAX_BYTES = 512 * 1024 * 1024;

type SessionReadsContext = {
  rules: OpenRules;
  sentIndex: SentIndex;
  pending: PendingTails;
  /** Watches a folder of the session. */
  watch(folder: string): void;
  /** The session's folder is gone or no longer a folder: its project is listed again. */
  lostFolder(session: SpexSession): void;
  /** Its project's label may have changed (its session.json did). */
  relabel(projectFolder: string, changed: Set<string>): void;
  /** Whether the first scan runs: it labels each project once, after its sessions. */
  scanning(): boolean;
};

export type SessionReads = {
  /** Reads what changed in a session folder; adds the sessions whose summary changed to `changed`. */
  refresh(session: SpexSession, changed: Set<string>, fresh?: boolean): void;
};

export function createSessionReads(context: SessionReadsContext): SessionReads {
  // Nothing read into it outlives one segment's read: the core keeps numbers, and the mark is taken at once.
  const scratch = createReadScratch();

  function refresh(session: SpexSession, changed: Set<string>, fresh = false): void {
    if (session.notRead !== null) return;
    const before = signature(session);
    context.watch(session.folder);
    const listing = listStoreFolder(session.folder, context.rules.root);
    if (listing.type !== 'listed') {
      context.lostFolder(session);
      return;
    }
    const listedSession = listing.entries.map(listedName);
    // session.json is read before the timeline is listed: the folder just listed is still open for it.
    let sessionJsonChanged = false;
    if (listedSession.some((entry) => entry.name === SESSION_JSON)) sessionJsonChanged = readSessionJsonIfChanged(session);
    else if (session.sessionJsonStamp !== null) {
      session.sessionJson = null;
      session.sessionJsonStamp = null;
      sessionJsonChanged = true;
    }
    const timelineDir = join(session.folder, SEGMENT_FOLDER);
    let listedTimeline: ListedName[] | null = null;
    if (listedSession.some((entry) => entry.name === SEGMENT_FOLDER && entry.type === 'folder')) {
      context.watch(timelineDir);
      const timeline = listStoreFolder(timelineDir, context.rules.root);
      if (timeline.type === 'listed') listedTimeline = timeline.entries.map(listedName);
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
    let tail = false;
    layout.segments.forEach((segment, index) => {
      let state = session.segments.get(segment.name);
      const isNew = state === undefined;
      if (state === undefined) {
        state = { reading: createSegmentReading(segment.name), path: join(session.folder, segment.name), mark: null, closedStamp: null };
        session.segments.set(segment.name, state);
      }
      const isLast = index === layout.segments.length - 1;
      if (readSegment(session, state, !isLast)) tail = true;
      // spex only ever begins the segment after its last: one that comes before segments already read was put there by something else.
      if (isNew && !fresh && isBeforeKnown(session, segment.name)) {
        markSegmentChanged(state.reading, 'it appeared after later segments were read; spex only ever begins the segment after its last');
      }
    });
    if (!tail) context.pending.settle(session.sessionId);
    if (!fresh && signature(session) === before) return;
    const readings = orderReadings([...session.segments.values()].map((state) => state.reading));
    session.fold = foldTimelineFacts(session.sessionId, session.sessionJson, readings, session.strays);
    session.version++;
    changed.add(session.sessionId);
    session.indexed = context.sentIndex.index(session.sessionId, readings, session.indexed, changed);
    // The first scan labels each project once its sessions are read, not once for each of them.
    if (fresh ? !context.scanning() : sessionJsonChanged) context.relabel(session.projectFolder, changed);
  }

  /** Whether a segment other than `name`, already known, comes after it in log order. */
  function isBeforeKnown(session: SpexSession, name: string): boolean {
    const segment = parseSegmentName(name);
    if (segment === null) return false;
    for (const known of session.segments.keys()) {
      const other = known === name ? null : parseSegmentName(known);
      if (other !== null && compareSegments(segment, other) < 0) return true;
    }
    return false;
  }

  /** Reads session.json again when its identity, size or mtime moved; says whether it did. */
  function readSessionJsonIfChanged(session: SpexSession): boolean {
    const read = readWhole(join(session.folder, SESSION_JSON), { ...context.rules, maxBytes: SESSION_JSON_MAX_BYTES });
    const stamp = read.type === 'bytes' ? `${read.identity.dev}:${read.identity.ino}:${read.size}:${read.mtimeMs}` : `${read.type}:${'why' in read ? read.why : ''}`;
    if (stamp === session.sessionJsonStamp) return false;
    session.sessionJsonStamp = stamp;
    switch (read.type) {
      case 'bytes':
        session.sessionJson = keepFacts(readSessionJson(read.bytes));
        break;
      case 'missing':
        session.sessionJson = null;
        break;
      case 'refused':
        session.sessionJson = { state: 'unknown', evidence: 'unreadable', why: read.refusal === 'too-large' ? `session.json is ${read.size} bytes, larger than any session record; not read` : `session.json is not read: ${read.why}` };
        break;
      default:
        session.sessionJson = { state: 'unknown', evidence: 'unreadable', why: `session.json could not be read: ${read.why}` };
    }
    return true;
  }

  /**
   * Reads a segment's new bytes; `closed` when a later segment exists. Returns whether it has an
   * unterminated tail (pending or torn), timed from the first look at it.
   */
  function readSegment(session: SpexSession, state: SegmentState, closed: boolean): boolean {
    const { reading } = state;
    if (reading.changed !== null) return false;
    if (reading.closed) {
      // Read whole once closed: never read again unless its size or mtime moved.
      const stat = statPath(state.path);
      if (stat === null || (state.closedStamp !== null && stat.size === state.closedStamp.size && stat.mtimeMs === state.closedStamp.mtimeMs)) return false;
    }
    const read = readAppended(state.path, context.rules, reading.offset, state.mark, READ_MAX_BYTES, scratch);
    switch (read.type) {
      case 'missing':
        if (reading.offset > 0) markSegmentChanged(reading, 'removed after it was read; spex never deletes a segment');
        return false;
      case 'refused':
        if (reading.offset > 0) markSegmentChanged(reading, `changed after it was read: now ${read.why}`);
        else markSegmentUnreadable(reading, `not read: ${read.why}`);
        return false;
      case 'unreadable':
        markSegmentUnreadable(reading, read.why);
        return false;
      case 'changed':
        markSegmentChanged(reading, read.why);
        return false;
      case 'bytes':
        break;
    }
    if (reading.closed) {
      if (read.bytes.length > 0) readSegmentLines(reading, read.bytes);
      else markSegmentChanged(reading, 'its modification time changed after it was closed; spex never writes to a closed segment');
      return false;
    }
    const tailStart = reading.offset + read.bytes.lastIndexOf(0x0a) + 1;
    const hasTail = tailStart < reading.offset + read.bytes.length;
    const pastWindow = hasTail && !closed && context.pending.look(session.sessionId, `${reading.segment}\n${tailStart}`, read.mtimeMs);
    readSegmentLines(reading, read.bytes, { closed, pastWindow });
    state.mark = read.mark(reading.offset);
    if (closed) state.closedStamp = { size: read.size, mtimeMs: read.mtimeMs };
    return reading.tail !== null;
  }

  return { refresh };
}

/** What the reader keeps of session.json: its facts, with whether it holds a note, not the note. */
function keepFacts(reading: SessionJsonReading): SessionJsonReading {
  if (reading.state === 'unknown') return reading;
  return { state: 'known', meta: { ...reading.meta, note: reading.meta.note === null ? null : '', others: {} } };
}

/** What of a session, if it changed, changes what a reader is told. */
function signature(session: SpexSession): string {
  let text = `${session.sessionJsonStamp}|${session.strays.map((stray) => stray.name).join('/')}|`;
  for (const { reading } of session.segments.values()) text += describeReading(reading);
  return text;
}

function describeReading(reading: SegmentReading): string {
  return `${reading.segment}:${reading.offset}:${reading.scanned}:${reading.lines.count}:${reading.tail?.evidence ?? '-'}:${reading.tail?.end ?? ''}:${reading.closed}:${reading.changed ?? ''}:${reading.unreadable ?? ''};`;
}

/** A listed name as the core takes it: a link is never followed, whatever it points at. */
function listedName(entry: FolderEntry): ListedName {
  return { name: entry.name, type: typeOf(entry) };
}

function typeOf(entry: FolderEntry): NameType {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  if (entry.isSymbolicLink()) return 'link';
  return 'other';
}
