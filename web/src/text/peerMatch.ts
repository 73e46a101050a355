import { findsPeerWords, findsPerson } from '../../../shared/peerMatch.ts';

// The peer filter of the browser's lists (the live view, a session's page across the stores), by
// the rule every peer filter follows (shared/peerMatch.ts).

type Peered = { peer: string | null; fromPerson?: true | undefined; peerNamed?: string | undefined };

export function matchesPeer(item: Peered, wanted: string): boolean {
  if (wanted === '') return true;
  return item.fromPerson === true ? findsPerson(wanted) : findsPeerWords(wanted, [item.peer, item.peerNamed]);
}
