import type { LiveItem } from '../../shared/wire/common.ts';
import { PRIVATE_KIND, type PublicBytes } from '../../shared/spex/privateData.ts';
import { nameSession, peerNamedOf } from '../../shared/spex/sessionJson.ts';
import type { TimelineItem } from '../../shared/spex/segment.ts';
import { isSeenFromTwoSides } from '../../shared/spex/sentBy.ts';
import { listLogItemsFrom, type LogItem } from '../../shared/spex/timeline.ts';
import { readLineHeadView, readLineView } from '../../shared/spex/view.ts';
import { firstLineOf } from '../../shared/firstLine.ts';
import { LARGE_HEAD_READ_BYTES } from '../export/largeText.ts';
import { readRanges } from './readLine.ts';
import { isLargeLine } from './spexProjection.ts';
import type { SpexReader, SpexSession } from './spexReader.ts';
import { itemAddress } from '../../shared/wire/paths.ts';
import { ownLineKey, sentLineKey } from '../../shared/spex/itemKey.ts';

// A spex home's lines as the live view lists them (`items` notices): each line of a log that is
// new, or whose state changed, in log order, in the words of a spex session's page. A `sent` line
// is an item of the session whose log holds it (received) and, when its `from` is a session of
// this home, an item of that session too (sent, from the receiver's log): one event seen from its
// two sides, each told under the conversation a reader of the live view would look for it in,
// with the key and link of that conversation's page. Private lines leave no item in the core, and
// a tail still being written is told only once its bytes show it is not one.

/** What has been told of one segment: complete lines up to `next`, and the state of its tail. */
type SegmentTold = { next: number; tail: { start: number; evidence: string } | null };

/** How much of a tail being written is read to find its kind: spex writes `ts`, then `kind`. */
const TAIL_KIND_BYTES = 4096;

type SpexLiveItems = {
  /** Takes what every session holds now as told: what the first scan read is not news. */
  takeAllAsTold(): void;
  /** The items of the sessions named that are new or changed since they were last told, by session, in the order learnt. */
  collect(sessionIds: Iterable<string>): Map<string, LiveItem[]>;
};

export function createSpexLiveItems(reader: SpexReader, sourceId: string): SpexLiveItems {
  const told = new Map<string, Map<string, SegmentTold>>();
  /** The version of each session's fold when last looked at: a sender told of others' lines has no new line of its own. */
  const versions = new Map<string, number>();
  let allTold = false;

  /** Positions a session's fold has read to, per segment: where the next line begins. */
  function positionsOf(session: SpexSession): Map<string, SegmentTold> {
    return new Map(session.fold.segments.map((segment) => [segment.name, { next: segment.read, tail: null }]));
  }

  function collect(sessionIds: Iterable<string>): Map<string, LiveItem[]> {
    const out = new Map<string, LiveItem[]>();
    const add = (sessionId: string, item: LiveItem) => {
      const list = out.get(sessionId);
      if (list === undefined) out.set(sessionId, [item]);
      else list.push(item);
    };
    for (const sessionId of sessionIds) {
      const session = reader.session(sessionId);
      if (session === null) {
        told.delete(sessionId);
        versions.delete(sessionId);
        continue;
      }
      if (versions.get(sessionId) === session.version) continue;
      versions.set(sessionId, session.version);
      let segments = told.get(sessionId);
      if (segments === undefined) {
        // While the first scan runs, a session it read is not news, and what changed in it since
        // is not known apart from it: it is told as a session. After the scan, a session is new.
        told.set(sessionId, (segments = allTold ? new Map() : positionsOf(session)));
        if (!allTold) continue;
      }
      // Only the lines from where each segment was told are made: a line appended to a long log
      // is found without making (and keeping) all its items, as a page would.
      const fresh = newLines(listLogItemsFrom([...session.segments.values()].map((state) => state.reading), (segment) => segments.get(segment)?.next ?? 0), segments);
      if (fresh.length === 0) continue;
      const reads = readRanges(fresh.map(({ item }) => ({ path: reader.segmentPath(sessionId, item.segment) ?? '', start: item.start, end: toRead(item) })), reader.root);
      fresh.forEach(({ line, item }, index) => {
        const read = reads[index]!;
        const bytes = read.type === 'bytes' ? read.bytes : null;
        const segmentTold = segments.get(item.segment) ?? { next: 0, tail: null };
        segments.set(item.segment, segmentTold);
        if (item.evidence === 'pending' || item.evidence === 'torn') {
          // A tail that may yet be spex's private bookkeeping is not told until it shows otherwise.
          if (item.evidence === 'pending' && !isPublicTail(bytes)) return;
          segmentTold.tail = { start: item.start, evidence: item.evidence };
        } else {
          segmentTold.next = item.end + 1;
          segmentTold.tail = null;
        }
        const text = bytes === null || item.evidence !== 'parsed' ? null : textOf(bytes, isLargeLine(item));
        add(sessionId, projectOwn(sessionId, line, item, text));
        if (item.evidence === 'parsed' && item.facts.kind === 'sent') {
          const from = item.facts.from;
          if (from !== null && toldFromBothSides(sessionId, from)) add(from, projectSent(from, sessionId, line, item, text));
        }
      });
    }
    return out;
  }

  /** Whether a line of `receiver`'s log from `from` is told from its sender's side too (isSeenFromTwoSides): the sent item and `twoSides` on both. */
  function toldFromBothSides(receiver: string, from: string | null): boolean {
    return isSeenFromTwoSides(receiver, from, reader.sessionsOfHome);
  }

  /** A session of this home's name, as the live view shows it beside its id. */
  function peerNamedOfSession(sessionId: string): { peerNamed?: string } {
    return peerNamedOf(nameSession(reader.session(sessionId)?.sessionJson ?? null));
  }

  function link(sessionId: string, key: string): string {
    return itemAddress(sourceId, sessionId, key);
  }

  function projectOwn(sessionId: string, line: number, item: TimelineItem, text: string | null): LiveItem {
    const key = ownLineKey(line);
    const base = { key, refused: false, link: link(sessionId, key) };
    if (item.evidence !== 'parsed') {
      return { ...base, at: null, kind: null, side: null, peer: null, words: describeEvidence(item), evidence: item.evidence, degraded: true, firstLine: null };
    }
    const facts = item.facts;
    const firstLine = text === null ? null : firstLineOf(text);
    switch (facts.kind) {
      case 'sent': {
        const via = facts.replyVia === null ? '' : `; reply via ${facts.replyVia}`;
        // A person is said in words and carried as a fact; a peer's name, whatever it says, as written and quoted.
        if (facts.from === null) return { ...base, at: facts.ts, kind: 'sent', side: 'received', peer: null, fromPerson: true, words: `received from a person${via}`, evidence: 'parsed', degraded: false, firstLine };
        const fromSession = reader.session(facts.from) !== null ? facts.from : null;
        const sender = fromSession !== null ? `session ${facts.from}` : `“${facts.from}”, as written`;
        return { ...base, at: facts.ts, kind: 'sent', side: 'received', peer: facts.from, ...(fromSession !== null ? peerNamedOfSession(fromSession) : {}), ...(toldFromBothSides(sessionId, facts.from) ? { twoSides: true as const } : {}), words: `received from ${sender}${via}`, evidence: 'parsed', degraded: false, firstLine };
      }
      case 'status': {
        const proposal = facts.proposal === null ? '' : `, proposal ${facts.proposal}`;
        return { ...base, at: facts.ts, kind: 'status', side: null, peer: null, words: `declared ${facts.word} (status ${facts.status}${proposal})`, evidence: 'parsed', degraded: false, firstLine };
      }
      case 'unknown':
        return { ...base, at: facts.ts, kind: facts.kindName, side: null, peer: null, words: "a kind spex's reader does not know: shown raw", evidence: 'parsed', degraded: false, firstLine: null };
    }
  }

  function projectSent(sender: string, receiver: string, line: number, item: TimelineItem & { evidence: 'parsed' }, text: string | null): LiveItem {
    const key = sentLineKey(line, receiver);
    const via = item.facts.kind === 'sent' && item.facts.replyVia !== null ? `; reply via ${item.facts.replyVia}` : '';
    return {
      key,
      at: item.facts.ts,
      kind: 'sent',
      side: 'sent',
      peer: receiver,
      ...peerNamedOfSession(receiver),
      words: `sent to session ${receiver}: from the receiver's log${via}`,
      twoSides: true,
      refused: false,
      evidence: 'parsed',
      degraded: false,
      firstLine: text === null ? null : firstLineOf(text),
      link: link(sender, key),
    };
  }

  return {
    takeAllAsTold() {
      for (const session of reader.sessions()) if (!told.has(session.sessionId)) told.set(session.sessionId, positionsOf(session));
      allTold = true;
    },
    collect,
  };
}

/** The lines of a log not yet told, or whose tail changed state since, in log order. */
function newLines(items: readonly LogItem[], segments: Map<string, SegmentTold>): LogItem[] {
  const fresh: LogItem[] = [];
  for (const logItem of items) {
    const { item } = logItem;
    const segment = segments.get(item.segment);
    if (segment === undefined) {
      fresh.push(logItem);
      continue;
    }
    if (item.start < segment.next) continue;
    if (item.evidence === 'pending' || item.evidence === 'torn') {
      // Each state once: a tail that grows while pending is the same item.
      if (segment.tail?.start === item.start && segment.tail.evidence === item.evidence) continue;
    }
    fresh.push(logItem);
  }
  return fresh;
}

/** A line is read whole for its text (a large one as far as its head); a tail only as far as its kind. */
function toRead(item: TimelineItem): number {
  if (item.evidence === 'pending') return Math.min(item.end, item.start + TAIL_KIND_BYTES);
  if (item.evidence !== 'parsed') return item.start;
  return isLargeLine(item) ? item.start + LARGE_HEAD_READ_BYTES : item.end;
}

/** The text a line shows in a row: a message's text, a declaration's note. */
function textOf(bytes: PublicBytes, large: boolean): string | null {
  const view = large ? readLineHeadView(bytes, 'fields', LARGE_HEAD_READ_BYTES) : readLineView(bytes);
  if (view.view !== 'fields') return null;
  return view.text ?? view.note;
}

/** Whether a tail's bytes already name its kind, and it is not spex's private one. */
function isPublicTail(bytes: Uint8Array | null): boolean {
  if (bytes === null) return false;
  const kind = /"kind"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(new TextDecoder('utf-8', { fatal: false }).decode(bytes))?.[1];
  // A kind spelt with an escape could spell the private one: it waits for the line's end.
  return kind !== undefined && kind !== PRIVATE_KIND && !kind.includes('\\');
}

function describeEvidence(item: TimelineItem): string {
  switch (item.evidence) {
    case 'pending':
      return 'being written';
    case 'invalid':
      return `not an event: ${item.why}`;
    case 'damaged':
    case 'torn':
      return `unknown evidence: ${item.why}`;
    case 'parsed':
      return 'an event';
  }
}
