import type { MapFacts, MapStatement, Party } from '../map/party.ts';
import type { LogItem } from './timeline.ts';
import { ownLineKey } from './itemKey.ts';

// A spex home's statements for the map (shared/map/party.ts): each `sent` line of a session's log
// is a message to that session, stated from the receiver's side (the only side spex writes). Its
// `from` is the sender: a person when null (one node, said in words), the session of that id when
// this home holds it, and otherwise the `from` as written; the map takes that one for a session
// of exactly that id when another store holds one, since spex writes a session's id there.

type SpexLog = { sessionId: string; items: readonly LogItem[] };

/** What a spex home states of who talks to whom. `source`: the home's id; `logs`: its sessions' logs. */
export function stateSpexMessages(source: string, logs: Iterable<SpexLog>, isSession: (id: string) => boolean): MapFacts {
  const parties: MapFacts['parties'] = [];
  const statements: MapStatement[] = [];
  for (const { sessionId, items } of logs) {
    const self: Party = { type: 'session', id: sessionId };
    parties.push({ party: self, conversation: sessionId });
    for (const { line, item } of items) {
      if (item.evidence !== 'parsed' || item.facts.kind !== 'sent') continue;
      const from = item.facts.from;
      const sender: Party = from === null ? { type: 'person' } : isSession(from) ? { type: 'session', id: from } : { type: 'as-written', source, as: from, idClaimed: true };
      const instant = Date.parse(item.facts.ts);
      statements.push({
        from: sender,
        to: self,
        instant: Number.isNaN(instant) ? null : instant,
        seenFrom: 'receiver',
        refused: null,
        broadcast: false,
        conversation: sessionId,
        key: ownLineKey(line),
      });
    }
  }
  return { parties, statements };
}
