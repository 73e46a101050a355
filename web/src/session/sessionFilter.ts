import type { SessionItem } from '../../../shared/wire/session.ts';
import { matchesPeer } from '../text/peerMatch.ts';

// A session page's filters, in its address: `store` (a source id, repeated for several), `side`
// (sent or received) and `peer` (a part of the peer as its store names it). They pick among the
// items the server placed; none of them reads an item's store rules.

export type SessionFilter = { stores: readonly string[]; side: 'sent' | 'received' | null; peer: string };

export function readSessionFilter(query: string): SessionFilter {
  const params = new URLSearchParams(query);
  const side = params.get('side');
  return { stores: params.getAll('store'), side: side === 'sent' || side === 'received' ? side : null, peer: params.get('peer') ?? '' };
}

export function writeSessionFilter(filter: SessionFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const store of filter.stores) params.append('store', store);
  if (filter.side !== null) params.set('side', filter.side);
  if (filter.peer !== '') params.set('peer', filter.peer);
  return params;
}

/** Whether an item is shown: of a store asked for, on the side asked for, with a peer that holds the text asked for (case aside). */
export function isShown(item: SessionItem, filter: SessionFilter): boolean {
  if (filter.stores.length > 0 && !filter.stores.includes(item.item.source.id)) return false;
  if (filter.side !== null && item.side !== filter.side) return false;
  if (!matchesPeer(item, filter.peer)) return false;
  return true;
}
