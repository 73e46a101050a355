import type { SessionItem } from '../../../shared/wire/session.ts';
import { matchesPeer } from '../text/peerMatch.ts';

// A session page's filters, in its address: `store` (a source id, repeated for several), `side`
// (sent or received) and `peer` (a part of the peer as its store names it, or of what its store
// calls it beside: text/peerMatch.ts). They pick among the
// items the server placed; none of them reads an item's store rules. `limit` is how many of each
// store's newest items the page asks for: SESSION_LIMITS, the first by default.

/** The newest items of each conversation a session's page asks for: a few hundred first, more on asking. */
export const SESSION_LIMITS = [300, 1_000, 5_000] as const;
export type SessionLimit = (typeof SESSION_LIMITS)[number];
/** The parameters a session's page reads. */
export const SESSION_PARAMS = ['store', 'side', 'peer', 'limit'];

export type SessionFilter = { stores: readonly string[]; side: 'sent' | 'received' | null; peer: string; limit: SessionLimit };

export function readSessionFilter(query: string): SessionFilter {
  const params = new URLSearchParams(query);
  const side = params.get('side');
  const limit = SESSION_LIMITS.find((one) => String(one) === params.get('limit')) ?? SESSION_LIMITS[0];
  return { stores: params.getAll('store'), side: side === 'sent' || side === 'received' ? side : null, peer: params.get('peer') ?? '', limit };
}

export function writeSessionFilter(filter: SessionFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const store of filter.stores) params.append('store', store);
  if (filter.side !== null) params.set('side', filter.side);
  if (filter.peer !== '') params.set('peer', filter.peer);
  if (filter.limit !== SESSION_LIMITS[0]) params.set('limit', String(filter.limit));
  return params;
}

/** Whether the filter shows a store's items: it names none, or names this one. */
export function isStoreShown(source: string, filter: SessionFilter): boolean {
  return filter.stores.length === 0 || filter.stores.includes(source);
}

/** Whether an item is shown: of a store asked for, on the side asked for, with a peer that holds the text asked for (case aside). */
export function isShown(item: SessionItem, filter: SessionFilter): boolean {
  if (!isStoreShown(item.item.source.id, filter)) return false;
  if (filter.side !== null && item.side !== filter.side) return false;
  if (!matchesPeer(item, filter.peer)) return false;
  return true;
}
