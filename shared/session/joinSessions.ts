import { compareCwd } from '../projects.ts';
import type { SourceRef } from '../wire/common.ts';

// One Claude Code session across the stores. The record names a session by its folder, spex by
// its session id, set-agent-comm by the registry's `session` of a seat: each store states the full
// id, so the same full id in two stores is the same session. That is identity, not correlation,
// and it is the only join made here. Nothing joins on a prefix of an id (sac itself writes
// `shop.api#5e55a0a1` and `shop.api#5e55a0a1-000` for two sessions whose ids share 8 characters),
// a time, a text or a seat's name; a conversation whose store names no session joins nothing.

/** A conversation as its store lists it, with the full session id the store states (null: none stated). */
export type HeldConversation = {
  source: SourceRef;
  /** Its id in its store: a session id, or a set-agent-comm seat. */
  id: string;
  session: string | null;
  cwd: string | null;
  lastAt: string | null;
  degraded: boolean;
  /** Messages it sent and received, as its store counts them. */
  sent: number;
  received: number;
  /** Of those, the ones its store says were refused; absent where a store records no refusal (spex, set-agent-comm). */
  refused?: Refused;
};

/** Sent messages refused (the record: not queued by the host) and received ones (the record: rejected). */
export type Refused = { sent: number; received: number };

export type JoinedSession = {
  /** The full id every one of its conversations' stores states. */
  session: string;
  /** Its newest item's time across its stores. */
  lastAt: string | null;
  /** Every working directory its stores name, sorted; a session is listed under each. */
  cwds: (string | null)[];
  /** Its conversations, one per store and seat, in store order (record, spex, sac), then by id. */
  conversations: HeldConversation[];
};

const KIND_ORDER: Readonly<Record<SourceRef['kind'], number>> = { record: 0, spex: 1, sac: 2 };

/**
 * The key a conversation joins on: the full id its store states, exactly as written. An empty id
 * names no session, and nothing is trimmed, lower-cased or cut: `9c0ffee0` is not `9c0ffee0-1111…`.
 */
export function sessionKeyOf(conversation: Pick<HeldConversation, 'session'>): string | null {
  return conversation.session === null || conversation.session === '' ? null : conversation.session;
}

/**
 * The conversations of each session, by the full id `stated` says its store states (sessionKeyOf),
 * each session's in store order: the one join every list makes, the server's (joinSessions) and
 * the browser's sidebar, which has a summary's `statedSession` where the server has `session`.
 */
export function groupBySession<C extends Pick<HeldConversation, 'source' | 'id'>>(conversations: Iterable<C>, stated: (conversation: C) => string | null): Map<string, C[]> {
  const bySession = new Map<string, C[]>();
  for (const conversation of conversations) {
    const key = sessionKeyOf({ session: stated(conversation) });
    if (key === null) continue;
    const held = bySession.get(key);
    if (held === undefined) bySession.set(key, [conversation]);
    else held.push(conversation);
  }
  for (const held of bySession.values()) held.sort(byStore);
  return bySession;
}

/** The sessions the conversations are, by the full id their stores state; the newest first. */
export function joinSessions(conversations: Iterable<HeldConversation>): JoinedSession[] {
  const sessions: JoinedSession[] = [];
  for (const [session, held] of groupBySession(conversations, (conversation) => conversation.session)) {
    let lastAt: string | null = null;
    const cwds = new Set<string | null>();
    for (const conversation of held) {
      if (conversation.lastAt !== null && (lastAt === null || conversation.lastAt > lastAt)) lastAt = conversation.lastAt;
      cwds.add(conversation.cwd);
    }
    sessions.push({ session, lastAt, cwds: [...cwds].sort(compareCwd), conversations: held });
  }
  return sessions.sort(byLatestFirst);
}

/** A session as a project lists it: `elsewhere` names the other directories its stores name. */
type ListedSession = JoinedSession & { elsewhere: (string | null)[] };

/**
 * Sessions grouped by project: a session is listed once under each directory its stores name, and
 * says where else it is listed. The most recently active project and session come first.
 */
export function listSessionsByProject(sessions: readonly JoinedSession[]): { cwd: string | null; sessions: ListedSession[] }[] {
  const byCwd = new Map<string | null, ListedSession[]>();
  for (const session of sessions) {
    for (const cwd of session.cwds) {
      const listed: ListedSession = { ...session, elsewhere: session.cwds.filter((other) => other !== cwd) };
      const list = byCwd.get(cwd);
      if (list === undefined) byCwd.set(cwd, [listed]);
      else list.push(listed);
    }
  }
  const projects = [...byCwd].map(([cwd, list]) => ({ cwd, sessions: list.sort(byLatestFirst) }));
  return projects.sort((a, b) => byLatestFirst(a.sessions[0]!, b.sessions[0]!) || compareCwd(a.cwd, b.cwd));
}

/** The order a session's conversations are in: by store (record, spex, sac), then by id. */
function byStore(a: Pick<HeldConversation, 'source' | 'id'>, b: Pick<HeldConversation, 'source' | 'id'>): number {
  return KIND_ORDER[a.source.kind] - KIND_ORDER[b.source.kind] || compareText(a.source.id, b.source.id) || compareText(a.id, b.id);
}

function byLatestFirst(a: { session: string; lastAt: string | null }, b: { session: string; lastAt: string | null }): number {
  return compareText(b.lastAt ?? '', a.lastAt ?? '') || compareText(a.session, b.session);
}

function compareText(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}
