import { setImmediate as nextTurn } from 'node:timers/promises';
import { joinSessions, listSessionsByProject, sessionKeyOf, type HeldConversation, type JoinedSession } from '../../shared/session/joinSessions.ts';
import type { ConversationSessionResponse, JoinedSessionResponse, JoinedSessionsResponse, SessionItem } from '../../shared/wire/session.ts';
import type { ConversationExport } from '../export/exportParts.ts';
import { toSessionItem } from '../export/sessionExport.ts';
import { NotHere, type Answer, type Source } from './source.ts';

// One Claude Code session across the sources: the join on the full id each store states
// (shared/session/joinSessions.ts), made again only when a source changed, and one session's
// items from every store that holds it, each as its store's page gives it, placed by what its
// kind states (its time, side and peer) on one time axis. Nothing pairs any two of them.

/** A conversation of a session, with the source that holds it. */
type SessionPart = { source: Source; held: HeldConversation };

/**
 * The session a source's conversation is, by the full id its store states: what a notice or a hit
 * of it says. Null where the store states none, or no longer holds the conversation.
 */
export function readStatedSession(source: Source, conversation: string): string | null {
  const listed = source.conversation(conversation);
  return listed === null ? null : sessionKeyOf(listed);
}

/** How many items read in a row before other requests get a turn. */
const ITEMS_PER_TURN = 500;

export function createSessionJoin(sources: readonly Source[]) {
  let last: { version: string; sessions: JoinedSession[]; byId: Map<string, JoinedSession> } | null = null;
  const versionNow = () => sources.map((source) => source.version()).join('/');

  const joined = () => {
    const version = versionNow();
    if (last?.version === version) return last;
    const held: HeldConversation[] = [];
    for (const source of sources) {
      for (const { id, session, cwd, lastAt, degraded, sent, received, refused } of source.conversations()) {
        held.push({ source: source.ref, id, session, cwd, lastAt, degraded, sent, received, ...(refused !== undefined ? { refused } : {}) });
      }
    }
    const sessions = joinSessions(held);
    last = { version, sessions, byId: new Map(sessions.map((session) => [session.session, session])) };
    return last;
  };

  return {
    /** Every session once per project it is in (`rec.joined-sessions/1`). */
    list(): JoinedSessionsResponse {
      return { schema: 'rec.joined-sessions/1', projects: listSessionsByProject(joined().sessions) };
    },
    /** The session one store's conversation is, and that session's conversations in every store (`rec.conversation-session/1`). */
    sessionOf(source: Source, id: string): Answer<ConversationSessionResponse> {
      if (source.conversation(id) === null) return new NotHere('no such conversation in this store');
      const session = readStatedSession(source, id);
      const found = session === null ? undefined : joined().byId.get(session);
      return { schema: 'rec.conversation-session/1', session, conversations: found?.conversations ?? [] };
    },
    /** A session's conversations, each with its source; NotHere when no store states that full id. */
    partsOf(session: string): Answer<SessionPart[]> {
      const found = joined().byId.get(session);
      if (found === undefined) return new NotHere('no store read names this full session id');
      return found.conversations.map((held) => ({ source: sources.find((source) => source.ref.id === held.source.id)!, held }));
    },
  };
}



type Placed = { item: SessionItem; key: number };

/**
 * A session's page (`rec.joined-session/1`): the newest `limit` items of each of its conversations,
 * read through the kind's export (the items its page gives; only those are read), on one time axis;
 * an item its store gives no time keeps its place after the one before it in its store.
 */
export async function readSessionPage(session: string, parts: readonly SessionPart[], limit: number, signal: AbortSignal): Promise<Answer<JoinedSessionResponse>> {
  const lists: Placed[][] = [];
  const cut: JoinedSessionResponse['cut'] = [];
  const mayLack: JoinedSessionResponse['mayLack'] = [];
  const conversations: unknown[] = [];
  for (const { source, held } of parts) {
    const listed = source.conversation(held.id);
    const exported = source.export?.(held.id);
    if (listed === null || exported === undefined || exported instanceof NotHere) continue;
    conversations.push(JSON.parse(listed.json));
    const { items, total } = await readNewest(exported, source, held.id, limit, signal);
    if (total > items.length) cut.push({ source: source.ref, conversation: held.id, shown: items.length, total });
    const lacking = exported.mayLack?.() ?? null;
    if (lacking !== null) mayLack.push({ source: source.ref, conversation: held.id, ...lacking });
    lists.push(items);
  }
  // A stable sort: at one instant, the record's items come first, then spex's, then sac's, each in its store's order.
  const items = lists.flat().sort(byKey).map((placed) => placed.item);
  return { schema: 'rec.joined-session/1', session, conversations: conversations as JoinedSessionResponse['conversations'], items, cut, mayLack };
}

async function readNewest(parts: ConversationExport, source: Source, conversation: string, limit: number, signal: AbortSignal): Promise<{ items: Placed[]; total: number }> {
  const newest = parts.newest(limit);
  const kept: Placed[] = [];
  let lastKey = -Infinity;
  for await (const { value, place } of newest.json(signal)) {
    const item = toSessionItem(source.ref.kind, conversation, value, place);
    // Times are compared as instants (stores write offsets differently). An item without one sorts
    // with the one before it in its store, and the merge keeps each store's order.
    const instant = item.at === null ? Number.NaN : Date.parse(item.at);
    if (!Number.isNaN(instant)) lastKey = instant;
    kept.push({ item, key: lastKey });
    if (kept.length % ITEMS_PER_TURN === 0) await nextTurn();
  }
  return { items: kept.sort(byKey), total: newest.total };
}

function byKey(a: Placed, b: Placed): number {
  return a.key - b.key;
}
