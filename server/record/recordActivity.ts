import type { SessionFold } from '../../shared/record/session.ts';
import type { ActivityMinute, ActivityPeer, ActivityResponse, ConversationFilter } from '../../shared/wire/activity.ts';
import type { RecordFilterQuery } from '../../shared/wire/record.ts';
import { NotHere, type Answer } from '../sources/source.ts';
import type { RecordReader } from './recordReader.ts';
import { filterItems, filterOf } from './sessionFilter.ts';

// A record session's activity (`rec.session-activity/1`), from the index alone: the time in each
// file's name and the facts kept when it was first read. No file is opened and no text is read.

/** The start of the minute an entry's name time falls in: `2026-11-20T09:03:00.000Z`. */
function minuteOf(at: string): string {
  return `${at.slice(0, 16)}:00.000Z`;
}

function describeActivity(fold: SessionFold, filter: ConversationFilter) {
  const inOrder = filterItems(fold, filter);
  const minutes: ActivityMinute[] = [];
  let undated = 0;
  let messages = 0;
  inOrder.forEach((item, index) => {
    if (item.type === 'file' && item.file.facts?.kind === 'message') messages++;
    // Gaps have no time, and strays come last whatever their names say.
    if (item.type !== 'file') {
      undated++;
      return;
    }
    const minute = minuteOf(item.file.entryName.at);
    const last = minutes.at(-1);
    if (last !== undefined && last.minute === minute) last.count++;
    else minutes.push({ minute, count: 1, firstIndex: index });
  });
  return { total: inOrder.length, messages, minutes, undated, peers: countPeers(fold) };
}

/** Messages per peer as the host gave it, over the whole session; most first, ties in order of first appearance. */
function countPeers(fold: SessionFold): ActivityPeer[] {
  const byPeer = new Map<string | null, ActivityPeer>();
  for (const item of fold.items) {
    if (item.type !== 'file' || item.file.facts?.kind !== 'message') continue;
    const { peerAs, side } = item.file.facts;
    let peer = byPeer.get(peerAs);
    if (peer === undefined) {
      peer = { as: peerAs, sent: 0, received: 0 };
      byPeer.set(peerAs, peer);
    }
    peer[side]++;
  }
  // A stable sort keeps first appearance among equals.
  return [...byPeer.values()].sort((a, b) => b.sent + b.received - (a.sent + a.received));
}

/** A record session's activity, narrowed as its pages are; not here when the record holds no such session. */
export function describeRecordActivity(reader: RecordReader, sessionId: string, query: RecordFilterQuery): Answer<ActivityResponse> {
  const fold = reader.fold(sessionId);
  if (fold === null) return new NotHere('no such session in this record');
  const filter = filterOf(query);
  return {
    schema: 'rec.session-activity/1',
    source: reader.ref,
    sessionId: fold.sessionId,
    filter,
    ...describeActivity(fold, filter),
  };
}
