import type { SessionFold, SessionItem } from '../../shared/record/session.ts';
import type { ConversationFilter } from '../../shared/wire/activity.ts';
import type { RecordFilterQuery } from '../../shared/wire/record.ts';

// A session narrowed to one side, one peer, or the messages refused. Only message entries are ever left out, by the
// facts the reader kept when it first read them (the facts its counts rest on): a gap, a start
// entry, a damaged, pending or stray file stays in its place, because evidence that the record
// is incomplete says nothing of which side or peer it concerns.

export function filterOf(query: RecordFilterQuery): ConversationFilter {
  return {
    side: query.side ?? null,
    peer: query.peerUnknown !== undefined ? { as: null } : query.peer !== undefined ? { as: query.peer } : null,
    refused: query.refused !== undefined,
  };
}

function passesSessionFilter(item: SessionItem, filter: ConversationFilter): boolean {
  if (item.type !== 'file') return true;
  const facts = item.file.facts;
  if (facts?.kind !== 'message') return true;
  if (filter.side !== null && facts.side !== filter.side) return false;
  if (filter.peer !== null && facts.peerAs !== filter.peer.as) return false;
  // Refused as the session's counts count it (shared/record/session.ts): a sent message not queued, a received one rejected.
  if (filter.refused && (facts.side === 'sent' ? facts.isQueued !== false : facts.outcome !== 'rejected')) return false;
  return true;
}

const filtered = new WeakMap<SessionFold, Map<string, SessionItem[]>>();

/**
 * The fold's items that pass the filter, in the session's order. A fold is replaced whenever the
 * session changes, so each filtered list is worked out once per fold and filter, not per page.
 */
export function filterItems(fold: SessionFold, filter: ConversationFilter): SessionItem[] {
  if (filter.side === null && filter.peer === null && !filter.refused) return fold.items;
  const key = JSON.stringify(filter);
  let byFilter = filtered.get(fold);
  if (byFilter === undefined) {
    byFilter = new Map();
    filtered.set(fold, byFilter);
  }
  let items = byFilter.get(key);
  if (items === undefined) {
    items = fold.items.filter((item) => passesSessionFilter(item, filter));
    // A few filters a fold: a reader switching between peers does not grow this without bound.
    if (byFilter.size >= 8) byFilter.clear();
    byFilter.set(key, items);
  }
  return items;
}
