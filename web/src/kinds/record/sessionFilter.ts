import type { ConversationFilter } from '../../../../shared/wire/activity.ts';

// A session narrowed to one side or one peer is its own address (`…/conversation/<id>?side=sent&peer=…`),
// so it can be shared and the back button undoes it. The server does the narrowing (see
// server/record/sessionFilter.ts): the browser only says which.

export type SessionFilter = ConversationFilter;

/** The address's parameters a record session's page reads. */
export const SESSION_FILTER_PARAMS = ['side', 'peer', 'peerUnknown'] as const;

/** The filter an address asks for; a value that is not one is no filter. */
export function readSessionFilter(search: string): SessionFilter {
  const params = new URLSearchParams(search);
  const side = params.get('side');
  const peer = params.get('peer');
  return {
    side: side === 'sent' || side === 'received' ? side : null,
    peer: params.get('peerUnknown') === '1' ? { as: null } : peer !== null && peer !== '' ? { as: peer } : null,
  };
}

/** The filter as a query, for the address and for the API alike (empty: no filter). */
export function sessionFilterQuery(filter: SessionFilter): URLSearchParams {
  const query = new URLSearchParams();
  if (filter.side !== null) query.set('side', filter.side);
  if (filter.peer !== null) {
    if (filter.peer.as === null) query.set('peerUnknown', '1');
    else query.set('peer', filter.peer.as);
  }
  return query;
}

export function isFiltered(filter: SessionFilter): boolean {
  return filter.side !== null || filter.peer !== null;
}

/** The filter in words: "sent entries, to or from uds:/tmp/a.sock". */
export function describeFilter(filter: SessionFilter): string {
  const side = filter.side === null ? 'messages' : `${filter.side} messages`;
  if (filter.peer === null) return side;
  return `${side} ${filter.peer.as === null ? 'whose host named no peer (unknown)' : `with ${filter.peer.as}`}`;
}
