import { SOURCE_KINDS, type SourceKind, type SourceRef } from '../../../shared/wire/common.ts';
import type { LiveRow } from '../events/liveFeed.ts';
import { matchesPeer } from '../text/peerMatch.ts';

// The live view's filters, kept in the address (`/live?side=sent&refused=1`), so a filtered view
// survives a reload and can be shared. They select on what each item carries; the project is
// its conversation's, as the list of sessions has it.

export type LiveFilter = {
  /** A working directory, exactly; null: any. */
  project: string | null;
  /** A source's id or kind, exactly; null: any. */
  source: string | null;
  /** A part of the session id or seat, or of the full session id its store states for it (a seat's, from the registry). */
  session: string;
  side: 'sent' | 'received' | null;
  /** A part of the peer as written, or of what its store calls it beside (text/peerMatch.ts). */
  peer: string;
  /**
   * The kind as the store names it, exactly, in one kind of store (`type=spex:sent`): each store
   * names its own kinds, and the same word may mean another thing in another (spex's `sent` is a
   * line of a message sent to the session). A word without a store (`type=message`) is any
   * store's; null: any.
   */
  type: LiveType | null;
  refused: boolean;
  degraded: boolean;
};

type LiveType = { store: SourceKind | null; kind: string };

/** `spex:sent` is spex's kind `sent`; a value that does not begin with a kind of store and a colon is a kind of any store. */
export function parseLiveType(value: string | null): LiveType | null {
  if (value === null || value === '') return null;
  const colon = value.indexOf(':');
  const store = colon < 0 ? '' : value.slice(0, colon);
  return (SOURCE_KINDS as readonly string[]).includes(store) ? { store: store as SourceKind, kind: value.slice(colon + 1) } : { store: null, kind: value };
}

export function liveTypeValue(type: LiveType): string {
  return type.store === null ? type.kind : `${type.store}:${type.kind}`;
}

/** The parameters of the address the live view reads, in its fields' order. */
export const LIVE_PARAMS = ['project', 'source', 'session', 'side', 'peer', 'type', 'refused', 'degraded'] as const;

export function parseLiveFilter(query: string): LiveFilter {
  const params = new URLSearchParams(query);
  const side = params.get('side');
  return {
    project: params.get('project'),
    source: params.get('source') || null,
    session: params.get('session') ?? '',
    side: side === 'sent' || side === 'received' ? side : null,
    peer: params.get('peer') ?? '',
    type: parseLiveType(params.get('type')),
    refused: params.get('refused') === '1',
    degraded: params.get('degraded') === '1',
  };
}

/**
 * Whether a filter's `source` is a store read here (by its id, or the kind of one), or none is
 * asked. One that is not is not applied: said to be not a value the view takes, rather than kept
 * as a filter that lets nothing through.
 */
export function isSourceRead(source: string | null, sources: readonly SourceRef[]): boolean {
  return source === null || sources.some((one) => one.id === source || one.kind === source);
}

export function liveFilterQuery(filter: LiveFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.project !== null) params.set('project', filter.project);
  if (filter.source !== null) params.set('source', filter.source);
  if (filter.session !== '') params.set('session', filter.session);
  if (filter.side !== null) params.set('side', filter.side);
  if (filter.peer !== '') params.set('peer', filter.peer);
  if (filter.type !== null) params.set('type', liveTypeValue(filter.type));
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
  if (filter.type !== null && (item.kind !== filter.type.kind || (filter.type.store !== null && row.source.kind !== filter.type.store))) return false;
  if (filter.session !== '' && !row.sessionId.includes(filter.session) && row.session?.includes(filter.session) !== true) return false;
  if (!matchesPeer(item, filter.peer)) return false;
  if (filter.project !== null && (projectOf(row.source.id, row.sessionId) ?? null) !== filter.project) return false;
  return true;
}
