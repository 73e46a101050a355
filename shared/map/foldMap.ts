import { keyParty, type MapFacts, type MapStatement, type Party, type SeenFrom } from './party.ts';

// The map of who talks to whom, folded from what every store states (party.ts): a node per party,
// an edge per sender and receiver, its messages counted apart by the store and side that state
// them. The record holds a message twice when both sessions are recorded (the sender's sent
// entry, the receiver's received entry), and correlation is not claimed: so its sides are counted
// apart, never paired into one message, and an edge says which side said how many.

/** A store's facts, with what the map needs of its conversations: the project each is listed under. */
export type StoreFacts = { source: string; facts: MapFacts; projectOf(conversation: string): string | null };

/** Which messages count: those of the stores named (all when null), within the window (epoch ms, inclusive). */
export type MapWindow = { stores: readonly string[] | null; since: number | null; until: number | null };

export type MapNode = {
  key: string;
  party: Party;
  /** The project of its first conversation that names one, in the order the stores were given. */
  project: string | null;
  /** The conversations that are it, in each store (a session, a seat). */
  held: { source: string; conversation: string }[];
};

export type EdgeCount = { source: string; seenFrom: SeenFrom; messages: number; notQueued: number; rejected: number; broadcast: number };

export type MapEdge = {
  key: string;
  from: string;
  to: string;
  counts: EdgeCount[];
  /** The latest instant of its messages; null when none gives one. */
  latest: number | null;
};

type MapFold = { nodes: MapNode[]; edges: MapEdge[]; messages: number; undated: number };

/** A spex `from` that is no session of its home is the session of that id, when another store holds one. */
function resolveParty(party: Party, sessions: ReadonlySet<string>): Party {
  return party.type === 'as-written' && party.idClaimed && sessions.has(party.as) ? { type: 'session', id: party.as } : party;
}

function isInWindow(statement: MapStatement, window: MapWindow): boolean {
  if (window.since === null && window.until === null) return true;
  // A message with no time of its own is in no window but the whole of time.
  if (statement.instant === null) return false;
  return (window.since === null || statement.instant >= window.since) && (window.until === null || statement.instant <= window.until);
}

function chooseStores(stores: readonly StoreFacts[], window: MapWindow): StoreFacts[] {
  return window.stores === null ? [...stores] : stores.filter((store) => window.stores!.includes(store.source));
}

/** Every session id any chosen store holds as a party: what a claimed id may be. */
function collectSessions(stores: readonly StoreFacts[]): Set<string> {
  const sessions = new Set<string>();
  for (const store of stores) for (const { party } of store.facts.parties) if (party.type === 'session') sessions.add(party.id);
  return sessions;
}

/** Folds the stores' facts into nodes and edges, within the window. */
export function foldMap(stores: readonly StoreFacts[], window: MapWindow): MapFold {
  const chosen = chooseStores(stores, window);
  const sessions = collectSessions(chosen);
  const nodes = new Map<string, MapNode>();
  const nodeOf = (party: Party): MapNode => {
    const resolved = resolveParty(party, sessions);
    const key = keyParty(resolved);
    let node = nodes.get(key);
    if (node === undefined) nodes.set(key, (node = { key, party: resolved, project: null, held: [] }));
    return node;
  };
  for (const store of chosen) {
    for (const { party, conversation } of store.facts.parties) {
      const node = nodeOf(party);
      node.held.push({ source: store.source, conversation });
      node.project ??= store.projectOf(conversation);
    }
  }
  const edges = new Map<string, MapEdge>();
  let messages = 0;
  let undated = 0;
  for (const store of chosen) {
    const countsOf = new Map<string, EdgeCount>();
    for (const statement of store.facts.statements) {
      if (!isInWindow(statement, window)) continue;
      const from = nodeOf(statement.from).key;
      const to = nodeOf(statement.to).key;
      const key = `${from}\n${to}`;
      let edge = edges.get(key);
      if (edge === undefined) edges.set(key, (edge = { key, from, to, counts: [], latest: null }));
      const countKey = `${key}\n${statement.seenFrom}`;
      let count = countsOf.get(countKey);
      if (count === undefined) {
        countsOf.set(countKey, (count = { source: store.source, seenFrom: statement.seenFrom, messages: 0, notQueued: 0, rejected: 0, broadcast: 0 }));
        edge.counts.push(count);
      }
      count.messages++;
      if (statement.refused === 'not-queued') count.notQueued++;
      if (statement.refused === 'rejected') count.rejected++;
      if (statement.broadcast) count.broadcast++;
      messages++;
      if (statement.instant === null) undated++;
      else if (edge.latest === null || statement.instant > edge.latest) edge.latest = statement.instant;
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()], messages, undated };
}

export type EdgeMessage = MapStatement & { source: string };

/** The messages of one edge, newest first (undated last), at most `limit` of them, and how many there are. */
export function listEdgeMessages(stores: readonly StoreFacts[], window: MapWindow, from: string, to: string, limit: number): { messages: EdgeMessage[]; total: number } {
  const chosen = chooseStores(stores, window);
  const sessions = collectSessions(chosen);
  const found: EdgeMessage[] = [];
  for (const store of chosen) {
    for (const statement of store.facts.statements) {
      if (!isInWindow(statement, window)) continue;
      if (keyParty(resolveParty(statement.from, sessions)) !== from || keyParty(resolveParty(statement.to, sessions)) !== to) continue;
      found.push({ ...statement, source: store.source });
    }
  }
  found.sort((a, b) => (b.instant ?? -Infinity) - (a.instant ?? -Infinity));
  return { messages: found.slice(0, limit), total: found.length };
}
