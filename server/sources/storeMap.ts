import { foldMap, listEdgeMessages, type MapWindow, type StoreFacts } from '../../shared/map/foldMap.ts';
import type { MapFacts } from '../../shared/map/party.ts';
import { EDGE_MESSAGES_LIMIT, type EdgeMessagesResponse, type MapQuery, type MapResponse } from '../../shared/wire/map.ts';
import type { SourceRef } from '../../shared/wire/common.ts';
import type { FirstLine, Source } from './source.ts';

// The map of every store (`rec.map/1`): each source states its messages (Source.mapFacts), and
// the one fold (shared/map/foldMap.ts) makes nodes and edges of them. No kind is known here: a
// conversation's project is what the source lists it under. A source's facts are stated again
// only when its version changed (a notice of anything a reader can see), and an answer is folded
// and serialized once per query and versions: at 200 sessions × 20 peers every open map asks
// again on each notice, and most notices are of other stores or of nothing the map shows.

type Kept<T> = { version: string; value: T };

/** The map of a set of sources: their facts, folded and serialized answers, kept until a source's version changes. */
export function createStoreMap(sources: readonly Source[]) {
  const facts = new Map<string, Kept<MapFacts>>();
  let answer: { key: string; json: string } | null = null;

  const gatherFacts = (): StoreFacts[] => {
    const stores: StoreFacts[] = [];
    for (const source of sources) {
      if (source.mapFacts === undefined) continue;
      const version = source.version();
      let kept = facts.get(source.ref.id);
      if (kept === undefined || kept.version !== version) facts.set(source.ref.id, (kept = { version, value: source.mapFacts() }));
      stores.push({ source: source.ref.id, facts: kept.value, projectOf: (conversation) => source.conversation(conversation)?.cwd ?? null });
    }
    return stores;
  };

  return {
    /** `rec.map/1` as JSON: made by the core and shared/wire's types, so not checked again per answer. */
    serializeMap(query: MapQuery): string {
      const key = JSON.stringify([query.since ?? null, query.until ?? null, query.stores ?? null, sources.map((source) => source.version())]);
      if (answer?.key !== key) answer = { key, json: JSON.stringify(describeMap(sources, gatherFacts(), query)) };
      return answer.json;
    },
    describeEdgeMessages: (query: MapQuery & { from: string; to: string }, signal: AbortSignal) => describeEdgeMessages(sources, gatherFacts(), query, signal),
  };
}

function windowOf(query: MapQuery): MapWindow {
  return {
    stores: query.stores === undefined ? null : query.stores.split(','),
    since: query.since === undefined ? null : Date.parse(query.since),
    until: query.until === undefined ? null : Date.parse(query.until),
  };
}

const isoOf = (instant: number | null) => (instant === null ? null : new Date(instant).toISOString());

/** Who talks to whom in every store, within the query's window. */
function describeMap(sources: readonly Source[], facts: StoreFacts[], query: MapQuery): MapResponse {
  const window = windowOf(query);
  const refs = new Map<string, SourceRef>(sources.map((source) => [source.ref.id, { kind: source.ref.kind, id: source.ref.id }]));
  const fold = foldMap(facts, window);
  return {
    schema: 'rec.map/1',
    since: query.since ?? null,
    until: query.until ?? null,
    sources: [...refs.values()].filter((ref) => window.stores === null || window.stores.includes(ref.id)),
    nodes: fold.nodes.map((node) => ({ key: node.key, party: wirePartyOf(node.party), project: node.project, held: node.held.map((held) => ({ source: refs.get(held.source)!, conversation: held.conversation })) })),
    edges: fold.edges.map((edge) => ({ key: edge.key, from: edge.from, to: edge.to, latestAt: isoOf(edge.latest), counts: edge.counts.map((count) => ({ ...count, source: refs.get(count.source)! })) })),
    messages: fold.messages,
    undated: fold.undated,
  };
}

/**
 * One edge's messages, newest first: where each is in its store, and its text's first line, read
 * now by its store (Source.firstLines), a conversation's items at once.
 */
async function describeEdgeMessages(sources: readonly Source[], facts: StoreFacts[], query: MapQuery & { from: string; to: string }, signal: AbortSignal): Promise<EdgeMessagesResponse> {
  const refs = new Map<string, SourceRef>(sources.map((source) => [source.ref.id, { kind: source.ref.kind, id: source.ref.id }]));
  const { messages, total } = listEdgeMessages(facts, windowOf(query), query.from, query.to, EDGE_MESSAGES_LIMIT);
  const held = new Map<string, { source: Source; conversation: string; keys: string[] }>();
  for (const message of messages) {
    const where = `${message.source}\n${message.conversation}`;
    let conversation = held.get(where);
    if (conversation === undefined) held.set(where, (conversation = { source: sources.find((source) => source.ref.id === message.source)!, conversation: message.conversation, keys: [] }));
    conversation.keys.push(message.key);
  }
  const lines = new Map<string, FirstLine>();
  for (const [where, { source, conversation, keys }] of held) {
    let read: Map<string, FirstLine>;
    try {
      read = await source.firstLines(conversation, keys, signal);
    } catch (error) {
      // One conversation that cannot be read now leaves its own messages without a line, not the list.
      if (signal.aborted) throw error;
      read = new Map(keys.map((key) => [key, { none: `could not be read now: ${(error as Error).message}` }]));
    }
    for (const [key, line] of read) lines.set(`${where}\n${key}`, line);
  }
  return {
    schema: 'rec.map-messages/1',
    from: query.from,
    to: query.to,
    messages: messages.map((message) => ({
      source: refs.get(message.source)!,
      seenFrom: message.seenFrom,
      at: isoOf(message.instant),
      refused: message.refused,
      broadcast: message.broadcast,
      conversation: message.conversation,
      key: message.key,
      ...wireFirstLine(lines.get(`${message.source}\n${message.conversation}\n${message.key}`) ?? { none: 'not read' }),
    })),
    total,
  };
}

function wireFirstLine(line: FirstLine): { firstLine: string | null; noFirstLine: string | null } {
  return 'line' in line ? { firstLine: line.line, noFirstLine: null } : { firstLine: null, noFirstLine: line.none };
}

/** The wire's party: the core's, without what only the fold needs (whether an id was claimed). */
function wirePartyOf(party: StoreFacts['facts']['parties'][number]['party']) {
  return party.type === 'as-written' ? { type: party.type, source: party.source, as: party.as } : party;
}
