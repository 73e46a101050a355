import type { EdgeCount, MapEdge, MapNode } from '../../../shared/wire/map.ts';
import { kindNamed } from '../kinds/registry.ts';
import { conversationPath, sessionPath } from '../router/routes.ts';
import { countOf } from '../text/count.ts';
import { PERSON_WORDS } from '../../../shared/peerMatch.ts';

// How the map speaks: a node's name carries the session's full id (its visible label may be
// shorter, never its name), an edge's the two full ids and its counts, each in its store's words
// and by the side that states them. The browser adds up nothing across stores or sides: the
// record may hold one message on both sides, and correlation is not claimed.

/** A node in words: the session's full id, or the peer as its store wrote it. */
export function describeParty(node: MapNode): string {
  const party = node.party;
  switch (party.type) {
    case 'session':
      return party.id;
    case 'person':
      return PERSON_WORDS;
    case 'as-written':
      return party.as;
    case 'unnamed':
      return `a peer ${party.conversation} does not name`;
  }
}

/** Its accessible name: what it is, its full id, the names its stores give it, its project. */
export function nameNode(node: MapNode): string {
  const party = node.party;
  const others = node.held.map((held) => held.conversation).filter((conversation) => party.type !== 'session' || conversation !== party.id);
  const also = others.length === 0 ? '' : ` (${others.join(', ')})`;
  const project = node.project === null ? '' : `, in ${node.project}`;
  switch (party.type) {
    case 'session':
      return `session ${party.id}${also}${project}`;
    case 'person':
      return 'a person (spex: from a person)';
    case 'as-written':
      return `${party.as}, as ${kindName(party.source)} writes it${project}`;
    case 'unnamed':
      return `a peer the record does not name, of session ${party.conversation}`;
  }
}

/**
 * What the map shows beside a node: a seat's name where a store gives one, else the id, its
 * middle left out when long (its name and hover keep it whole). Two ids that share their start
 * still read apart: the end is kept. A peer known only as its store wrote it is in quotes: as
 * written, `web-app` beside the project box `web-app` read as that project.
 */
export function labelNode(node: MapNode): string {
  const party = node.party;
  if (party.type === 'session') {
    const seat = node.held.find((held) => held.conversation !== party.id);
    if (seat !== undefined) return seat.conversation;
    return party.id.length > 16 ? `${party.id.slice(0, 8)}…${party.id.slice(-6)}` : party.id;
  }
  const words = describeParty(node);
  const cut = words.length > 28 ? `${words.slice(0, 12)}…${words.slice(-12)}` : words;
  return party.type === 'as-written' ? quoted(cut) : cut;
}

/** A peer as its store wrote it, shown (on the drawing, in the List): in quotes, as the legend says. */
function quoted(asWritten: string): string {
  return `“${asWritten}”`;
}

/**
 * Whether a node is one a reader looks for by these words (any case): in its full id or the peer
 * as written, its label, a name its stores give it (a seat), or its project's directory.
 */
export function nodeMatches(node: MapNode, words: string): boolean {
  const wanted = words.trim().toLowerCase();
  if (wanted === '') return false;
  return [describeParty(node), labelNode(node), node.project ?? '', ...node.held.map((held) => held.conversation)].some((text) => text.toLowerCase().includes(wanted));
}

function kindName(source: string): string {
  const kind = source.split('-')[0] ?? source;
  return kindNamed(kind)?.name ?? kind;
}

export function describeCount(count: EdgeCount): string {
  const parts = [countOf(count.messages, 'message')];
  if (count.notQueued > 0) parts.push(`${count.notQueued} not queued`);
  if (count.rejected > 0) parts.push(`${count.rejected} rejected`);
  if (count.broadcast > 0) parts.push(`${count.broadcast} to everyone in the room`);
  return `${parts.join(', ')} (${kindNamed(count.source.kind)?.name ?? count.source.kind}, ${count.seenFrom === 'sender' ? "the sender's side" : "the receiver's side"})`;
}

/** A node written whole where its kind shows: describeParty's words, a peer as its store wrote it in quotes (as on the drawing). */
export function writeParty(node: MapNode): string {
  return node.party.type === 'as-written' ? quoted(describeParty(node)) : describeParty(node);
}

/** An end of an edge in its name, by its node's key: writeParty's words; a key the map has no node for, as it is. */
export function nameEnd(key: string, nodes: ReadonlyMap<string, MapNode>): string {
  const node = nodes.get(key);
  return node === undefined ? key : writeParty(node);
}

/** An edge's accessible name (and its messages' heading): "a → b: 3 messages, 1 not queued (the record, the sender's side); …". */
export function nameEdge(edge: MapEdge, nodes: ReadonlyMap<string, MapNode>): string {
  return `${nameEnd(edge.from, nodes)} → ${nameEnd(edge.to, nodes)}: ${edge.counts.map(describeCount).join('; ')}`;
}

/** The most messages one store and side states for the edge: how thick it is drawn. */
export function weighEdge(edge: MapEdge): number {
  return Math.max(0, ...edge.counts.map((count) => count.messages));
}

/** Every statement of the edge, over stores and sides: changes whenever a message lands on it. */
export function tallyEdge(edge: MapEdge): number {
  return edge.counts.reduce((sum, count) => sum + count.messages, 0);
}

export function isRefusedEdge(edge: MapEdge): boolean {
  return edge.counts.some((count) => count.notQueued + count.rejected > 0);
}

/** Only broadcasts: drawn as such. */
export function isBroadcastEdge(edge: MapEdge): boolean {
  return edge.counts.every((count) => count.broadcast === count.messages);
}

/**
 * Where a click on a node goes: a session a store holds, to its page across the stores; a peer
 * held as a conversation but named no session (a seat without one), to that conversation.
 */
export function pathOfNode(node: MapNode): string | null {
  const held = node.held[0];
  if (held === undefined) return null;
  return node.party.type === 'session' ? sessionPath(node.party.id) : conversationPath(held.source.id, held.conversation);
}
