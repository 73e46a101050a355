// Who talks to whom, as each store states it: a message from one party to another, told by the
// store that holds it. A party is a session named by its full id (identity, stated by the store),
// a person (spex's `from: null`), a peer the store names only as written (a socket path, an agent
// name), or a peer the store does not name at all. Nothing here joins on a prefix of an id, a
// time or a text: a party is a session only where its store gives a full id, and a name as
// written is a node of its own store, never guessed to be a session.

export type Party =
  | { type: 'session'; id: string }
  /** A person (spex's `from: null`): one node, said in words, never a session. */
  | { type: 'person' }
  /**
   * A peer named as written by one store (the record's `peer.as`, a sac addressee that is no seat
   * of the registry, a spex `from` that is no session here). `idClaimed`: the store's field is a
   * session id by its format (spex's `from`), so a session of exactly that id in any store is it.
   */
  | { type: 'as-written'; source: string; as: string; idClaimed: boolean }
  /** A peer the store does not name (the record's empty `peer.as`): one per conversation, never joined with another. */
  | { type: 'unnamed'; source: string; conversation: string };

/** Who states a message: its sender's own file (the record's sent entry, a sac seat file), or its receiver's. */
export type SeenFrom = 'sender' | 'receiver';

/** One message as one store states it: from whom, to whom, when, and what came of it. */
export type MapStatement = {
  from: Party;
  to: Party;
  /** Its time as an instant (epoch ms); null where the store gives none. */
  instant: number | null;
  seenFrom: SeenFrom;
  /** A send the host did not queue (record: `isQueued: false`), or a receive it rejected (`outcome: rejected`). */
  refused: 'not-queued' | 'rejected' | null;
  /** Addressed to no one in particular (a sac entry without `to`): one statement per member of its room. */
  broadcast: boolean;
  /** The conversation of its store that holds it, and the item's key there. */
  conversation: string;
  key: string;
};

/** What one store states: the parties it holds as conversations, and its messages. */
export type MapFacts = {
  /** Each conversation of the store that is a party (a session; a seat, by its registry session or as written). */
  parties: { party: Party; conversation: string }[];
  statements: MapStatement[];
};

/** A party's key: equal for the same party, whichever store names it. */
export function keyParty(party: Party): string {
  switch (party.type) {
    case 'session':
      return `session:${party.id}`;
    case 'person':
      return 'person';
    case 'as-written':
      return `as-written:${party.source}:${party.as}`;
    case 'unnamed':
      return `unnamed:${party.source}:${party.conversation}`;
  }
}
