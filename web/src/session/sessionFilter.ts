import type { SessionItem } from '../../../shared/wire/session.ts';
import { kindNamed } from '../kinds/registry.ts';
import { matchesPeer } from '../text/peerMatch.ts';

// A session page's filters, in its address: `store` (a source id, repeated for several), `side`
// (sent or received) and `peer` (a part of the peer as its store names it, or of what its store
// calls it beside: text/peerMatch.ts) and `others` (items addressed to others, which a kind says of
// its own: a seat's room's entries for other seats, left out as its page leaves them out). They
// pick among the items the server placed; none of them reads an item's store rules. `limit` is how
// many of each store's newest items the page asks for: SESSION_LIMITS, the first by default.

/** The newest items of each conversation a session's page asks for: a few hundred first, more on asking. */
export const SESSION_LIMITS = [300, 1_000, 5_000] as const;
export type SessionLimit = (typeof SESSION_LIMITS)[number];
/** The parameters a session's page reads. */
export const SESSION_PARAMS = ['store', 'side', 'peer', 'others', 'limit'];

export type SessionFilter = { stores: readonly string[]; side: 'sent' | 'received' | null; peer: string; others: boolean; limit: SessionLimit };

export function readSessionFilter(query: string): SessionFilter {
  const params = new URLSearchParams(query);
  const side = params.get('side');
  const limit = SESSION_LIMITS.find((one) => String(one) === params.get('limit')) ?? SESSION_LIMITS[0];
  return { stores: params.getAll('store'), side: side === 'sent' || side === 'received' ? side : null, peer: params.get('peer') ?? '', others: params.get('others') === '1', limit };
}

export function writeSessionFilter(filter: SessionFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const store of filter.stores) params.append('store', store);
  if (filter.side !== null) params.set('side', filter.side);
  if (filter.peer !== '') params.set('peer', filter.peer);
  if (filter.others) params.set('others', '1');
  if (filter.limit !== SESSION_LIMITS[0]) params.set('limit', String(filter.limit));
  return params;
}

/** Whether the filter shows a store's items: it names none, or names this one. */
export function isStoreShown(source: string, filter: SessionFilter): boolean {
  return filter.stores.length === 0 || filter.stores.includes(source);
}

/** Whether an item was addressed to others, not to this session, as its kind says. */
export function isForOthers(item: SessionItem): boolean {
  return kindNamed(item.kind)?.addressedToOthers?.(item.item) === true;
}

/** Whether an item is shown: of a store asked for, on the side asked for, with a peer that holds the text asked for (case aside), and for this session unless others' are asked for. */
export function isShown(item: SessionItem, filter: SessionFilter): boolean {
  if (!isStoreShown(item.item.source.id, filter)) return false;
  if (!filter.others && isForOthers(item)) return false;
  if (filter.side !== null && item.side !== filter.side) return false;
  if (!matchesPeer(item, filter.peer)) return false;
  return true;
}
