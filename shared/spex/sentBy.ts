import type { EventFacts } from './line.ts';
import type { TimelineItem } from './segment.ts';
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

/**
 * Who a `from` names: null is a person, said in words; a string that is a known session's id is
 * that session; any other string (`issues`, `peer:<machine>:<session>`, an API caller's) is shown
 * exactly as written, never guessed at.
 */
export function describeSender(from: string | null, sessionIds: ReadonlySet<string>): { by: 'person' } | { by: 'session'; sessionId: string } | { by: 'other'; as: string } {
  if (from === null) return { by: 'person' };
  return sessionIds.has(from) ? { by: 'session', sessionId: from } : { by: 'other', as: from };
}
