import type { LineColumns } from './columns.ts';
import { SHAPE_KEPT, SHAPE_SENT, findName, formatInstant, indexName, nameAt, readLineItem, readLineShape } from './columns.ts';
import type { EventFacts } from './line.ts';
import type { SegmentReading, TimelineItem } from './segment.ts';
import type { TimelineFold } from './timeline.ts';

// What a session sent is never in its own log: it is the `sent` events in the logs of the sessions
// it sent to, whose `from` is its full id (spex-timeline-format: What a reader must do). That is
// one event seen from its other side, joined by the id the writer stored: not a pairing of two
// items, which is never made, by text or time or anything else.

type SentFacts = Extract<EventFacts, { kind: 'sent' }>;

/** A message X sent, as it stands in the receiver's log. */
export type SentItem = {
  /** The session whose log holds the line: where the item comes from. */
  receiver: string;
  /** The line's number in the receiver's log. */
  line: number;
  item: TimelineItem & { evidence: 'parsed'; facts: SentFacts };
};

/**
 * The messages `sessionId` sent: the `sent` events in other sessions' logs whose `from` is exactly
 * that id (never a prefix, never another spelling). Receivers in the order given, each one's lines
 * in file order: there is no order across logs but time, and this does not sort by time.
 */
export function listSentBy(sessionId: string, folds: Iterable<TimelineFold>): SentItem[] {
  const sent: SentItem[] = [];
  for (const fold of folds) {
    if (fold.sessionId === sessionId) continue;
    for (const { line, item } of fold.items) if (isSentFrom(item, sessionId)) sent.push({ receiver: fold.sessionId, line, item });
  }
  return sent;
}

/** listSentBy for every sender at once: from each `from` written in a log to what it sent. */
export function indexSentBy(folds: Iterable<TimelineFold>): Map<string, SentItem[]> {
  const index = new Map<string, SentItem[]>();
  for (const fold of folds) {
    for (const { line, item } of fold.items) {
      if (item.evidence !== 'parsed' || item.facts.kind !== 'sent' || item.facts.from === null || item.facts.from === fold.sessionId) continue;
      const from = item.facts.from;
      const sent: SentItem = { receiver: fold.sessionId, line, item: item as SentItem['item'] };
      const list = index.get(from);
      if (list === undefined) index.set(from, [sent]);
      else list.push(sent);
    }
  }
  return index;
}

function isSentFrom(item: TimelineItem, sessionId: string): item is SentItem['item'] {
  return item.evidence === 'parsed' && item.facts.kind === 'sent' && item.facts.from === sessionId;
}

/** Which ids are sessions of this home: a reader's answer, asked id by id. */
export type SessionsOfHome = Pick<ReadonlySet<string>, 'has'>;

/**
 * Who a `from` names: null is a person, said in words; a string that is a known session's id is
 * that session; any other string (`issues`, `peer:<machine>:<session>`, an API caller's) is shown
 * exactly as written, never guessed at.
 */
export function describeSender(from: string | null, sessionIds: SessionsOfHome): { by: 'person' } | { by: 'session'; sessionId: string } | { by: 'other'; as: string } {
  if (from === null) return { by: 'person' };
  return sessionIds.has(from) ? { by: 'session', sessionId: from } : { by: 'other', as: from };
}

/**
 * Whether a `sent` line of `receiver`'s log is one event seen from two sides: its `from` is another
 * session of this home, whose Sent lists the same line (read from this log: spex writes it once).
 * A line a session sent to itself has no other side. The one rule for a page's item, a search's
 * hit and the live view's two rows of it: the wire carries the answer, the browser derives none.
 */
export function isSeenFromTwoSides(receiver: string, from: string | null, sessionIds: SessionsOfHome): boolean {
  return from !== null && from !== receiver && sessionIds.has(from);
}

// ——— the index a reader keeps, as lines are read ———
//
// What each id sent, kept as the logs that hold it are read, never rebuilt whole: each receiver's
// lines are taken once, in file order, as columns of numbers (a receiver and a line number a line;
// a sender heard by hundreds holds thousands), and the lists of SentBy are made only when asked
// (a page), for a few senders at a time. The sender of a line is found by the number its columns
// hold, never by its text. The index gets a log's readings (its columns), never a path.

/** What one id sent, as the index holds it: lists made when asked. */
export type SentBy = {
  /** How many lines: `lines.length`, without making the lists. */
  readonly count: number;
  readonly receivers: string[];
  readonly lines: number[];
  readonly items: TimelineItem[];
  readonly lastAt: string | null;
  /** Changes whenever the columns do. */
  readonly version: number;
};

/** Where the index stands in one log: its last line taken, and where that line lies (its segment's columns, its index in them). */
export type IndexedMark = { readonly line: number; readonly at: LineColumns | null; readonly index: number };
export const NOTHING_INDEXED: IndexedMark = { line: 0, at: null, index: 0 };

const NOTHING_SENT: SentBy = { count: 0, receivers: [], lines: [], items: [], lastAt: null, version: 0 };
/** How many senders' lists are kept made beyond the moment they are asked for. */
const LISTS_KEPT = 16;

type SentLists = { receivers: string[]; lines: number[]; items: TimelineItem[] };

/** The item of a line the index no longer finds where it found it: never shown as a message. */
const LINE_MOVED: TimelineItem = { segment: '', start: 0, end: 0, evidence: 'damaged', why: 'the line is no longer where the index found it' };

/** A sender's lines, as two columns of numbers; its lists and latest time made when asked, once for each version. */
class SentLines implements SentBy {
  count = 0;
  /** Each line's receiver (its number in the index) and its line number, side by side. */
  pairs = new Uint32Array(64);
  version = 0;
  /** Which call of `index` last added to it: each call tells a sender once. */
  addedBy = 0;
  /** The latest time of the lines: a number where the columns hold it, a text where the line keeps its own. */
  lastTime = Number.NaN;
  lastText: string | null = null;
  listsMade: { version: number; lists: SentLists } | null = null;
  lastMade: { version: number; lastAt: string | null } | null = null;
  readonly from: string;
  readonly makeLists: (sent: SentLines) => SentLists;

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

  addTime(time: number, text: string | null): void {
    if (!Number.isNaN(time) && (Number.isNaN(this.lastTime) || time > this.lastTime)) this.lastTime = time;
    if (text !== null && (this.lastText === null || text > this.lastText)) this.lastText = text;
  }
}

export type SentIndex = {
  /**
   * Takes the `sent` lines of a log (its readings in log order) that follow `mark` when the log
   * keeps its lines in place (they were appended), else all of its lines again. Adds each sender
   * whose lines changed to `changed`; returns where the index now stands in the log.
   */
  index(sessionId: string, readings: readonly SegmentReading[], mark: IndexedMark, changed: Set<string>): IndexedMark;
  /** Takes a log's lines out (it is forgotten, or read again); `readings` are what was indexed of it. */
  unindex(sessionId: string, readings: Iterable<SegmentReading>, mark: IndexedMark, changed: Set<string>): IndexedMark;
  sentBy(from: string): SentBy;
};

/** An index over the logs `logOf` gives (each receiver's readings in log order, as they are now). */
export function createSentIndex(logOf: (sessionId: string) => readonly SegmentReading[]): SentIndex {
  const bySender = new Map<string, SentLines>();
  // The same, by the sender's number in the core's table of names: what a line's columns hold.
  const byName: (SentLines | undefined)[] = [];
  const receiverIds: string[] = [];
  const receiverNumbers = new Map<string, number>();
  const listsKept = new Set<SentLines>();
  let version = 0;
  let calls = 0;

  const receiverOf = (sessionId: string): number => {
    let number = receiverNumbers.get(sessionId);
    if (number === undefined) {
      number = receiverIds.push(sessionId) - 1;
      receiverNumbers.set(sessionId, number);
    }
    return number;
  };

  /** A log's readings, once per log for one caller. */
  const logIn = (sessionId: string, logs: Map<string, readonly SegmentReading[]>): readonly SegmentReading[] => {
    let log = logs.get(sessionId);
    if (log === undefined) logs.set(sessionId, (log = logOf(sessionId)));
    return log;
  };

  const makeLists = (sent: SentLines): SentLists => {
    const logs = new Map<string, readonly SegmentReading[]>();
    const lists: SentLists = { receivers: [], lines: [], items: [] };
    for (let entry = 0; entry < sent.count; entry++) {
      const receiver = receiverIds[sent.pairs[entry * 2]!]!;
      const line = sent.pairs[entry * 2 + 1]!;
      const found = findLine(logIn(receiver, logs), line);
      lists.receivers.push(receiver);
      lists.lines.push(line);
      lists.items.push(found === null ? LINE_MOVED : readLineItem(found.lines, found.index));
    }
    listsKept.delete(sent);
    listsKept.add(sent);
    if (listsKept.size > LISTS_KEPT) {
      const oldest = listsKept.values().next().value!;
      listsKept.delete(oldest);
      oldest.listsMade = null;
    }
    return lists;
  };

  const open = (from: string, name: number): SentLines => {
    const sent = new SentLines(from, makeLists);
    bySender.set(from, sent);
    if (name > 0) byName[name] = sent;
    return sent;
  };

  function unindex(sessionId: string, readings: Iterable<SegmentReading>, mark: IndexedMark, changed: Set<string>): IndexedMark {
    if (mark.line === 0) return NOTHING_INDEXED;
    const receiver = receiverNumbers.get(sessionId);
    const logs = new Map<string, readonly SegmentReading[]>();
    for (const from of listSenders(sessionId, readings)) {
      const sent = bySender.get(from);
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
        const found = findLine(logIn(receiverIds[by]!, logs), line);
        const sentLine = found === null ? null : readSentLine(found.lines, found.index);
        if (sentLine !== null) sent.addTime(sentLine.time, sentLine.text);
      }
      sent.count = kept;
      sent.version = ++version;
      if (kept === 0) {
        bySender.delete(from);
        const name = findName(from);
        if (name > 0 && byName[name] === sent) byName[name] = undefined;
        listsKept.delete(sent);
      }
      changed.add(from);
    }
    return NOTHING_INDEXED;
  }

  function index(sessionId: string, readings: readonly SegmentReading[], mark: IndexedMark, changed: Set<string>): IndexedMark {
    let from = mark;
    if (!isMarkKept(mark, readings)) from = unindex(sessionId, readings, mark, changed);
    let last = from;
    const receiver = receiverOf(sessionId);
    const self = findName(sessionId);
    const call = ++calls;
    let line = 0;
    for (const reading of readings) {
      const { lines } = reading;
      // A tail in place is no line of the index: it is taken once it is a line.
      const tail = reading.tail === null ? 0 : 1;
      if (line + lines.count <= from.line) {
        line += lines.count + tail;
        continue;
      }
      for (let at = 0; at < lines.count; at++) {
        line++;
        if (line <= from.line) continue;
        last = { line, at: lines, index: at };
        const sent = takeLine(lines, at, sessionId, self);
        if (sent === null) continue;
        sent.add(receiver, line);
        if (sent.addedBy !== call) {
          sent.addedBy = call;
          changed.add(sent.from);
        }
        sent.version = ++version;
      }
      line += tail;
    }
    return last;
  }

  /** The sender's entry for a `sent` line (its time added), or null when the line is none or its own. */
  function takeLine(lines: LineColumns, at: number, sessionId: string, self: number): SentLines | null {
    const shape = readLineShape(lines, at);
    if (shape === SHAPE_SENT) {
      // Most lines: the sender is found by the number its line holds, never by its text.
      const name = lines.name[at]!;
      if (name === 0 || name === self) return null;
      const sent = byName[name] ?? open(nameAt(name)!, name);
      sent.addTime(lines.time[at]!, null);
      return sent;
    }
    if (shape !== SHAPE_KEPT) return null;
    const outcome = lines.kept.get(at);
    if (outcome?.evidence !== 'parsed' || outcome.facts.kind !== 'sent') return null;
    const sender = outcome.facts.from;
    if (sender === null || sender === sessionId) return null;
    const sent = bySender.get(sender) ?? open(sender, indexName(sender));
    sent.addTime(Number.NaN, outcome.facts.ts);
    return sent;
  }

  return { index, unindex, sentBy: (from) => bySender.get(from) ?? NOTHING_SENT };
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

/** Whether the last line indexed is still where it was: the log kept its lines in place. */
function isMarkKept(mark: IndexedMark, readings: readonly SegmentReading[]): boolean {
  if (mark.line === 0) return true;
  let line = 0;
  for (const reading of readings) {
    if (mark.line <= line + reading.lines.count) return reading.lines === mark.at && mark.line - line - 1 === mark.index;
    line += reading.lines.count + (reading.tail === null ? 0 : 1);
  }
  return false;
}

/** The sender and time of a `sent` line, or null when the line is none. */
function readSentLine(lines: LineColumns, index: number): { from: string | null; time: number; text: string | null } | null {
  const shape = readLineShape(lines, index);
  if (shape === SHAPE_SENT) return { from: nameAt(lines.name[index]!), time: lines.time[index]!, text: null };
  if (shape !== SHAPE_KEPT) return null;
  const outcome = lines.kept.get(index);
  if (outcome?.evidence !== 'parsed' || outcome.facts.kind !== 'sent') return null;
  return { from: outcome.facts.from, time: Number.NaN, text: outcome.facts.ts };
}

/**
 * The senders a log names: every one whose lines of it the index may hold. Read from its
 * columns, which only grow, rather than kept beside them: a log hears from hundreds.
 */
function listSenders(sessionId: string, readings: Iterable<SegmentReading>): Set<string> {
  const senders = new Set<string>();
  for (const { lines } of readings) {
    for (let index = 0; index < lines.count; index++) {
      const from = readSentLine(lines, index)?.from;
      if (from !== undefined && from !== null && from !== sessionId) senders.add(from);
    }
  }
  return senders;
}
