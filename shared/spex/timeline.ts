import type { DegradedCode, DegradedReason } from './degraded.ts';
import { DEGRADED_CODES } from './degraded.ts';
import type { Stray } from './layout.ts';
import { SESSION_JSON, compareSegments, parseSegmentName } from './layout.ts';
import { SHAPE_KEPT, SHAPE_SENT, SHAPE_STATUS, formatInstant, readLineItem, readLineShape } from './columns.ts';
import type { SegmentReading, TimelineItem } from './segment.ts';
import type { CurrentStatus, SessionJsonReading } from './sessionJson.ts';
import { readCurrentStatus } from './sessionJson.ts';

// The fold of one session's log (spex-timeline-format: What a reader must do). The log is its
// segments joined in order, and file order is event order: nothing here looks at `ts` to order.
// Received, for a session, is the `sent` events in its own log; its `status` events are its
// declarations, in place. What it sent is in other sessions' logs (sentBy.ts).

/** An item in its place in the log. */
export type LogItem = {
  /**
   * The line's number in the log, from 1, across segments. Private lines take no number (the
   * session-timeline spec: they "do not consume ... cursor positions"); a tail takes the next.
   */
  line: number;
  item: TimelineItem;
};

type TimelineCounts = {
  /** `sent` events in this log: messages addressed to this session. */
  received: number;
  /** Received from a person (`from: null`). */
  fromPerson: number;
  /** Received from anything else: a session id, `issues`, `peer:…`, any string a caller gave. */
  fromPeers: number;
  /** `status` events: the session's declarations. */
  declarations: number;
  /** Events of kinds this reader does not know, shown raw. */
  unknownKinds: number;
  damaged: number;
  invalid: number;
  torn: number;
  pending: number;
  strays: number;
};

/** What the fold says of each segment as a file. */
type SegmentSummary = {
  name: string;
  /** Bytes read as lines so far. */
  read: number;
  closed: boolean;
  changed: string | null;
  unreadable: string | null;
};

export type TimelineFold = {
  /** The session folder's name: the harness's session id, the id other logs' `from` names. */
  sessionId: string;
  /** What `session.json` says the session is now: current state, never history. */
  current: CurrentStatus;
  session: SessionJsonReading;
  /** The log's lines in file order, tails in place. */
  items: LogItem[];
  segments: SegmentSummary[];
  strays: Stray[];
  counts: TimelineCounts;
  degraded: DegradedReason[];
};

/** A fold without its items: what a reader keeps of a log between pages, with the times its items span. */
export type TimelineFacts = Omit<TimelineFold, 'items'> & {
  /** How many items the log holds. */
  lines: number;
  firstAt: string | null;
  lastAt: string | null;
};

const MISSING: SessionJsonReading = { state: 'unknown', evidence: 'missing', why: 'no session.json in the session folder' };

/**
 * Folds one session's segments, in whatever order they are given, into its log as a reader must
 * show it. `session` is what `session.json` read as, null when the folder has none. Pairs nothing
 * across sessions, and never by text or time.
 */
export function foldTimeline(sessionId: string, session: SessionJsonReading | null, segments: Iterable<SegmentReading>, strays: readonly Stray[] = [], notRead: string | null = null): TimelineFold {
  const items: LogItem[] = [];
  const { lines: _lines, firstAt: _firstAt, lastAt: _lastAt, ...fold } = foldLog(sessionId, session, segments, strays, items, notRead);
  return { ...fold, items };
}

/**
 * foldTimeline without making the items: the columns are read where they lie. `notRead` says why
 * the session folder was listed and not read (its name is not UTF-8): unknown, never nothing.
 */
export function foldTimelineFacts(sessionId: string, session: SessionJsonReading | null, segments: Iterable<SegmentReading>, strays: readonly Stray[] = [], notRead: string | null = null): TimelineFacts {
  return foldLog(sessionId, session, segments, strays, null, notRead);
}

/**
 * A log's items from where `from` says each segment was told to (a byte offset; 0 for a segment
 * never told), numbered across the whole log as foldTimeline numbers them. The lines before are
 * counted, not made: a line appended to a long log is found without making the log's other items.
 */
export function listLogItemsFrom(segments: Iterable<SegmentReading>, from: (segment: string) => number): LogItem[] {
  const items: LogItem[] = [];
  let line = 0;
  for (const reading of orderReadings(segments)) {
    const { lines } = reading;
    const start = from(reading.segment);
    let index = firstLineFrom(lines.start, lines.count, start);
    line += index;
    for (; index < lines.count; index++) items.push({ line: ++line, item: readLineItem(lines, index) });
    if (reading.tail !== null) {
      line++;
      if (reading.tail.start >= start) items.push({ line, item: reading.tail });
    }
  }
  return items;
}

/** The first of `count` ascending line starts at or after `start`. */
function firstLineFrom(starts: Float64Array, count: number, start: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (starts[middle]! < start) low = middle + 1;
    else high = middle;
  }
  return low;
}

function foldLog(sessionId: string, session: SessionJsonReading | null, segments: Iterable<SegmentReading>, strays: readonly Stray[], items: LogItem[] | null, notRead: string | null): TimelineFacts {
  const ordered = orderReadings(segments);
  const counts: TimelineCounts = { received: 0, fromPerson: 0, fromPeers: 0, declarations: 0, unknownKinds: 0, damaged: 0, invalid: 0, torn: 0, pending: 0, strays: strays.length };
  const rests = new Map<DegradedCode, { files: Set<string>; lines: number[]; why: string | null }>();
  const note = (code: DegradedCode, file: string, line: number | null = null, why: string | null = null) => {
    let rest = rests.get(code);
    if (rest === undefined) rests.set(code, (rest = { files: new Set(), lines: [], why }));
    rest.files.add(file);
    if (line !== null) rest.lines.push(line);
  };
  // Times in the columns are numbers, in the order of their texts; a time kept as text is compared as one.
  let firstTime = Number.NaN;
  let lastTime = Number.NaN;
  let firstText: string | null = null;
  let lastText: string | null = null;
  const countItem = (item: TimelineItem, line: number) => {
    switch (item.evidence) {
      case 'parsed': {
        const facts = item.facts;
        if (facts.kind === 'sent') {
          counts.received++;
          if (facts.from === null) counts.fromPerson++;
          else counts.fromPeers++;
        } else if (facts.kind === 'status') counts.declarations++;
        else counts.unknownKinds++;
        const ts = facts.ts;
        if (ts !== null) {
          if (firstText === null || ts < firstText) firstText = ts;
          if (lastText === null || ts > lastText) lastText = ts;
        }
        break;
      }
      case 'damaged':
        counts.damaged++;
        note('damaged-line', item.segment, line);
        break;
      case 'invalid':
        counts.invalid++;
        note('invalid-line', item.segment, line);
        break;
      case 'torn':
        counts.torn++;
        note('torn-write', item.segment, line);
        break;
      case 'pending':
        // Being written: not a reason.
        counts.pending++;
        break;
    }
  };

  let line = 0;
  for (const reading of ordered) {
    const { lines } = reading;
    for (let index = 0; index < lines.count; index++) {
      line++;
      const item = items === null ? null : readLineItem(lines, index);
      if (item !== null) items!.push({ line, item });
      const shape = readLineShape(lines, index);
      if (shape === SHAPE_KEPT) {
        countItem(item ?? readLineItem(lines, index), line);
        continue;
      }
      if (shape === SHAPE_SENT) {
        counts.received++;
        if (lines.name[index] === 0) counts.fromPerson++;
        else counts.fromPeers++;
      } else if (shape === SHAPE_STATUS) counts.declarations++;
      else counts.unknownKinds++;
      const time = lines.time[index]!;
      if (Number.isNaN(time)) continue;
      if (Number.isNaN(firstTime) || time < firstTime) firstTime = time;
      if (Number.isNaN(lastTime) || time > lastTime) lastTime = time;
    }
    if (reading.tail !== null) {
      line++;
      items?.push({ line, item: reading.tail });
      countItem(reading.tail, line);
    }
    if (reading.changed !== null) note('changed-after-read', reading.segment);
    if (reading.unreadable !== null) note('unreadable', reading.segment);
  }

  const known = session ?? MISSING;
  // A folder not read says so once: what its session.json would say is unknown with the rest.
  if (notRead !== null) rests.set('unreadable', { files: new Set(), lines: [], why: notRead });
  else if (known.state === 'unknown') note('session-json-unknown', SESSION_JSON, null, known.why);
  else if (known.meta.session_id !== null && known.meta.session_id !== sessionId) {
    note('session-mismatch', SESSION_JSON, null, `it names ${JSON.stringify(known.meta.session_id.slice(0, 200))}`);
  }

  const degraded: DegradedReason[] = [];
  for (const code of DEGRADED_CODES) {
    const rest = rests.get(code);
    if (rest !== undefined) degraded.push({ code, files: [...rest.files], lines: rest.lines, why: rest.why });
  }
  return {
    sessionId,
    current: readCurrentStatus(known),
    session: known,
    segments: ordered.map((reading) => ({ name: reading.segment, read: reading.offset, closed: reading.closed, changed: reading.changed, unreadable: reading.unreadable })),
    strays: [...strays],
    counts,
    degraded,
    lines: line,
    firstAt: earlier(Number.isNaN(firstTime) ? null : formatInstant(firstTime), firstText),
    lastAt: later(Number.isNaN(lastTime) ? null : formatInstant(lastTime), lastText),
  };
}

function earlier(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null || a <= b ? a : b;
}

function later(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null || a >= b ? a : b;
}

/** The readings of a log's segments in log order. */
export function orderReadings(segments: Iterable<SegmentReading>): SegmentReading[] {
  return [...segments].sort(compareReadings);
}

/** Log order of segment readings; a name that is no segment's (a caller's slip) goes last. */
function compareReadings(a: SegmentReading, b: SegmentReading): number {
  const x = parseSegmentName(a.segment);
  const y = parseSegmentName(b.segment);
  if (x === null || y === null) return x === y ? compareNames(a.segment, b.segment) : x === null ? 1 : -1;
  return compareSegments(x, y);
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
