import type { MapFacts, MapStatement, Party } from '../map/party.ts';
import type { SessionFold } from './session.ts';

// The record's statements for the map (shared/map/party.ts): each message entry states one edge,
// between the session whose folder holds it and its peer. A sent entry states it from the
// sender's side (rule: a sent entry is the authority on who wrote it), a received entry from the
// receiver's. The peer is a session only where the writer resolved its full id
// (`peer.sessionId`, rule.peerAsSeen); otherwise it is `peer.as` exactly as the host gave it, or,
// when the host gave none, a peer the record does not name. Nothing pairs a sent entry with a
// received one.

/** What the record states of who talks to whom, over the sessions given. `source`: the record's id. */
export function stateRecordMessages(source: string, folds: Iterable<SessionFold>): MapFacts {
  const parties: MapFacts['parties'] = [];
  const statements: MapStatement[] = [];
  for (const fold of folds) {
    const self: Party = { type: 'session', id: fold.sessionId };
    parties.push({ party: self, conversation: fold.sessionId });
    for (const item of fold.items) {
      if (item.type !== 'file') continue;
      const facts = item.file.facts;
      if (facts?.kind !== 'message') continue;
      const peer: Party =
        facts.peerSessionId !== null
          ? { type: 'session', id: facts.peerSessionId }
          : facts.peerAs !== null
            ? { type: 'as-written', source, as: facts.peerAs, idClaimed: false }
            : { type: 'unnamed', source, conversation: fold.sessionId };
      const sent = facts.side === 'sent';
      const instant = Date.parse(facts.at);
      statements.push({
        from: sent ? self : peer,
        to: sent ? peer : self,
        instant: Number.isNaN(instant) ? null : instant,
        seenFrom: sent ? 'sender' : 'receiver',
        refused: sent ? (facts.isQueued === false ? 'not-queued' : null) : facts.outcome === 'rejected' ? 'rejected' : null,
        broadcast: false,
        conversation: fold.sessionId,
        key: item.file.name,
      });
    }
  }
  return { parties, statements };
}
