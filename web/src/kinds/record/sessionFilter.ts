import type { ConversationFilter } from '../../../../shared/wire/activity.ts';

// A session narrowed to one side, one peer or the messages refused is its own address
// (`…/conversation/<id>?side=sent&peer=…&refused=1`),
// so it can be shared and the back button undoes it. The server does the narrowing (see
// server/record/sessionFilter.ts): the browser only says which.

export type SessionFilter = ConversationFilter;

/** The address's parameters a record session's page reads. */
export const SESSION_FILTER_PARAMS = ['side', 'peer', 'peerUnknown', 'refused'] as const;

/** The filter an address asks for; a value that is not one is no filter. */
export function readSessionFilter(search: string): SessionFilter {
  const params = new URLSearchParams(search);
  const side = params.get('side');
  const peer = params.get('peer');
  return {
    side: side === 'sent' || side === 'received' ? side : null,
    peer: params.get('peerUnknown') === '1' ? { as: null } : peer !== null && peer !== '' ? { as: peer } : null,
    refused: params.get('refused') === '1',
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
  if (filter.refused) query.set('refused', '1');
  return query;
}

export function isFiltered(filter: SessionFilter): boolean {
  return filter.side !== null || filter.peer !== null || filter.refused;
}

/** No filter: every item of the session. */
export const NO_FILTER: SessionFilter = { side: null, peer: null, refused: false };

/** The filter in words: "sent messages with uds:/tmp/a.sock", "received messages the host rejected". */
export function describeFilter(filter: SessionFilter): string {
  const side = !filter.refused
    ? filter.side === null
      ? 'messages'
      : `${filter.side} messages`
    : filter.side === 'sent'
      ? 'sent messages the host did not queue'
      : filter.side === 'received'
        ? 'received messages the host rejected'
        : 'messages refused (sent and not queued, or received and rejected)';
  if (filter.peer === null) return side;
  return `${side} ${filter.peer.as === null ? 'whose host named no peer (unknown)' : `with ${filter.peer.as}`}`;
}
