import type { LiveRow } from '../events/liveFeed.ts';

// The live view's filters, kept in the address (`/live?side=sent&refused=1`), so a filtered view
// survives a reload and can be shared. They select on what each item carries; the project is
// its conversation's, as the list of sessions has it.

export type LiveFilter = {
  /** A working directory, exactly; null: any. */
  project: string | null;
  /** A source's id or kind, exactly; null: any. */
  source: string | null;
  /** A part of the session id or seat. */
  session: string;
  side: 'sent' | 'received' | null;
  /** A part of the peer as written. */
  peer: string;
  /** The kind as the store names it, exactly; empty: any. */
  type: string;
  refused: boolean;
  degraded: boolean;
};

export function parseLiveFilter(query: string): LiveFilter {
  const params = new URLSearchParams(query);
  const side = params.get('side');
  return {
    project: params.get('project'),
    source: params.get('source') || null,
    session: params.get('session') ?? '',
    side: side === 'sent' || side === 'received' ? side : null,
    peer: params.get('peer') ?? '',
    type: params.get('type') ?? '',
    refused: params.get('refused') === '1',
    degraded: params.get('degraded') === '1',
  };
}

export function liveFilterQuery(filter: LiveFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.project !== null) params.set('project', filter.project);
  if (filter.source !== null) params.set('source', filter.source);
  if (filter.session !== '') params.set('session', filter.session);
  if (filter.side !== null) params.set('side', filter.side);
  if (filter.peer !== '') params.set('peer', filter.peer);
  if (filter.type !== '') params.set('type', filter.type);
  if (filter.refused) params.set('refused', '1');
  if (filter.degraded) params.set('degraded', '1');
  return params;
}

export function isFiltered(filter: LiveFilter): boolean {
  return liveFilterQuery(filter).size > 0;
}

/** `projectOf` gives a conversation's working directory (undefined while the list does not have it). */
export function matchesLive(row: LiveRow, filter: LiveFilter, projectOf: (sourceId: string, id: string) => string | null | undefined): boolean {
  // A break says something of every source: it stays whatever the filter.
  if (row.type === 'break') return true;
  const { item } = row;
  if (filter.refused && !item.refused) return false;
  if (filter.degraded && !item.degraded) return false;
  if (filter.side !== null && item.side !== filter.side) return false;
  if (filter.source !== null && row.source.id !== filter.source && row.source.kind !== filter.source) return false;
  if (filter.type !== '' && item.kind !== filter.type) return false;
  if (filter.session !== '' && !row.sessionId.includes(filter.session)) return false;
  if (filter.peer !== '' && (item.peer === null || !item.peer.toLowerCase().includes(filter.peer.toLowerCase()))) return false;
  if (filter.project !== null && (projectOf(row.source.id, row.sessionId) ?? null) !== filter.project) return false;
  return true;
}
