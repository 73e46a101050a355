import type { SessionsResponse } from '../../../shared/wire/conversations.ts';
import type { ConversationSummary } from '../../../shared/wire/kinds.ts';
import { sessionKey } from '../../../shared/sessionList.ts';
import { groupBySession, sessionKeyOf } from '../../../shared/session/joinSessions.ts';
import { childrenInOtherProjects, conversationKey } from '../../../shared/projects.ts';
import { kindOf } from '../kinds/registry.ts';
import { pathOf } from './conversations.ts';
import { sessionPath } from '../router/routes.ts';
import { rankIn } from '../app/keptOrder.ts';

// The sidebar's shape: projects (working directories, rule.byDirectory), each with its
// conversations of every source (record and spex sessions, set-agent-comm seats), a child nested
// under its parent when its kind names one (a record chain's) and the parent is in the same
// project. A child in another project is listed in its own, and under its parent as a link that
// names its project: grouping by directory and the chain both hold. Chains are the only link
// between sessions the record makes. One Claude Code session held by several stores is one row:
// its conversations, joined on the full session id each states (groupBySession, the server's
// join), are drawn together under the session's head, which opens its page across the stores; in
// each project any of them is listed in, as the server lists a session under each of its
// directories. A chain child stays under its parent too. That is identity, stated by each store;
// nothing else nests or pairs conversations.

/**
 * `elsewhere`: children listed in another project, shown under this conversation as links.
 * `joined`: at the top of a project, the same session's conversations in other stores (or other
 * seats), drawn in this row after it (it is the first of them in store order); null where it is alone.
 */
export type SessionNode = { session: ConversationSummary; children: SessionNode[]; elsewhere: ConversationSummary[]; depth: number; joined: Joined | null };
type Joined = { session: string; others: SessionNode[] };
type ProjectNode = { cwd: string | null; sessions: SessionNode[]; total: number };

/**
 * A project's part of the tree, kept by its list of conversations: a new list keeps the list of a
 * project none of whose conversations changed (applySessionChanges), and its part is not made
 * again. While a store is indexed the list changes with every write told: the sidebar then makes
 * again only the project written to. `groups`: its conversations' sessions that two conversations
 * or more of the whole list hold, as they were (a new list makes new lists of them: compared by
 * their members), for a conversation of another project may join or leave one.
 */
type KeptProject = { needle: string; degradedOnly: boolean; elsewhere: readonly ConversationSummary[]; groups: readonly ConversationSummary[][]; node: ProjectNode | null };
const keptProjects = new WeakMap<readonly ConversationSummary[], KeptProject>();
/** Sessions held by two conversations or more, across the whole list: made once a list. */
type Shared = Map<string, ConversationSummary[]>;
const sharedOf = new WeakMap<SessionsResponse['projects'], Shared>();

export function buildTree(projects: SessionsResponse['projects'], filter: string, degradedOnly: boolean): ProjectNode[] {
  const needle = filter.trim().toLowerCase();
  const { byParent: elsewhere, byProject: elsewhereIn } = childrenInOtherProjects(projects, parentOf);
  const shared = sharedSessions(projects);
  const result: ProjectNode[] = [];
  for (const project of projects) {
    const elsewhereHere = elsewhereIn.get(project.cwd) ?? [];
    const groups = groupsIn(project.sessions, shared);
    const kept = keptProjects.get(project.sessions);
    let node: ProjectNode | null;
    if (kept !== undefined && kept.needle === needle && kept.degradedOnly === degradedOnly && sameItems(kept.elsewhere, elsewhereHere) && sameItems(kept.groups, groups, sameItems)) node = kept.node;
    else {
      node = buildProject(project, needle, degradedOnly, elsewhere, shared);
      keptProjects.set(project.sessions, { needle, degradedOnly, elsewhere: elsewhereHere, groups, node });
    }
    if (node !== null) result.push(node);
  }
  return result;
}

function sharedSessions(projects: SessionsResponse['projects']): Shared {
  let shared = sharedOf.get(projects);
  if (shared === undefined) {
    shared = groupBySession(
      projects.flatMap((project) => project.sessions),
      (conversation) => conversation.statedSession,
    );
    for (const [session, members] of shared) if (members.length < 2) shared.delete(session);
    sharedOf.set(projects, shared);
  }
  return shared;
}

function sessionOf(conversation: ConversationSummary): string | null {
  return sessionKeyOf({ session: conversation.statedSession });
}

/** The shared sessions a project's conversations are of (their lists are made again only when one of them changes). */
function groupsIn(sessions: readonly ConversationSummary[], shared: Shared): ConversationSummary[][] {
  const groups = new Set<ConversationSummary[]>();
  for (const conversation of sessions) {
    const key = sessionOf(conversation);
    const group = key === null ? undefined : shared.get(key);
    if (group !== undefined) groups.add(group);
  }
  return [...groups];
}

function buildProject(project: SessionsResponse['projects'][number], needle: string, degradedOnly: boolean, elsewhere: Map<string, ConversationSummary[]>, shared: Shared): ProjectNode | null {
  const projectMatches = needle !== '' && (project.cwd ?? 'no directory').toLowerCase().includes(needle);
  const passes = (s: ConversationSummary) => (!degradedOnly || s.degraded.length > 0) && (needle === '' || projectMatches || matchesSession(s, needle));
  const groupOf = (s: ConversationSummary) => {
    const key = sessionOf(s);
    return key === null ? undefined : shared.get(key);
  };
  // A session's row is kept whole where one of its conversations is kept.
  const keep = (s: ConversationSummary) => passes(s) || (groupOf(s)?.some(passes) ?? false);
  const kept = project.sessions.filter(keep);
  if (kept.length === 0) return null;
  return { cwd: project.cwd, sessions: joinTopLevel(nestChains(kept, elsewhere), groupOf), total: project.sessions.length };
}

/**
 * A session held by several conversations, made one row where the first of them listed at the
 * project's top (its latest) stood: every one of them, in store order (record, spex, sac), as the
 * session's page lists them, with their chain children where they have some here; one listed in
 * another project or under a parent here is drawn in the row too.
 */
function joinTopLevel(nodes: SessionNode[], groupOf: (conversation: ConversationSummary) => ConversationSummary[] | undefined): SessionNode[] {
  const atTop = new Map(nodes.map((node) => [sessionKey(node.session), node]));
  const placed = new Set<ConversationSummary[]>();
  const rows: SessionNode[] = [];
  for (const node of nodes) {
    const group = groupOf(node.session);
    if (group === undefined) rows.push(node);
    else if (!placed.has(group)) {
      placed.add(group);
      const [first, ...others] = group.map((member) => atTop.get(sessionKey(member)) ?? { session: member, children: [], elsewhere: [], depth: 0, joined: null });
      rows.push({ ...first!, joined: { session: sessionOf(node.session)!, others } });
    }
  }
  return rows;
}

/** Whether two lists hold the same items in the same order (`same`: how two items are compared; the same object by default). */
function sameItems<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean = Object.is): boolean {
  return a.length === b.length && a.every((item, i) => same(item, b[i]!));
}

function matchesSession(session: ConversationSummary, needle: string): boolean {
  return session.id.toLowerCase().includes(needle) || kindOf(session).matches(session, needle);
}

/** The conversation of the same store it is listed under, by its id; null: none. */
function parentOf(session: ConversationSummary): string | null {
  return kindOf(session).parentOf?.(session) ?? null;
}

/**
 * Keeps the list's order (latest activity first) and moves children under their parent: a
 * conversation of the same store, named by its full id.
 */
function nestChains(sessions: ConversationSummary[], elsewhere: Map<string, ConversationSummary[]>): SessionNode[] {
  const keys = new Set(sessions.map(sessionKey));
  const children = new Map<string, ConversationSummary[]>();
  const roots: ConversationSummary[] = [];
  for (const session of sessions) {
    const parent = parentOf(session);
    const parentKey = parent === null ? undefined : sessionKey({ source: session.source, id: parent });
    if (parentKey !== undefined && parent !== session.id && keys.has(parentKey)) {
      const list = children.get(parentKey) ?? [];
      list.push(session);
      children.set(parentKey, list);
    } else {
      roots.push(session);
    }
  }
  const seen = new Set<string>();
  const toNode = (session: ConversationSummary, depth: number): SessionNode => {
    seen.add(sessionKey(session));
    const kids = (children.get(sessionKey(session)) ?? []).filter((kid) => !seen.has(sessionKey(kid)));
    return { session, depth, children: kids.map((kid) => toNode(kid, depth + 1)), elsewhere: elsewhere.get(conversationKey(session.source.id, session.id)) ?? [], joined: null };
  };
  const nodes = roots.map((root) => toNode(root, 0));
  // A chain that loops back on itself has no root; its sessions are still listed.
  for (const session of sessions) if (!seen.has(sessionKey(session))) nodes.push(toNode(session, 0));
  return nodes;
}

/** The sidebar's rows: each project's heading, then its top-level sessions (chain children inside). */
export type SidebarRow = { kind: 'project'; project: ProjectNode } | { kind: 'session'; project: ProjectNode; node: SessionNode };

export function flattenTree(projects: ProjectNode[]): SidebarRow[] {
  const rows: SidebarRow[] = [];
  for (const project of projects) {
    rows.push({ kind: 'project', project });
    for (const node of project.sessions) rows.push({ kind: 'session', project, node });
  }
  return rows;
}

/** The paths of the pages the sidebar lists (a session's across the stores at its row's head, then its conversations), in its order, for moving between them by key. */
export function flattenSessions(projects: ProjectNode[]): string[] {
  const ids: string[] = [];
  const walk = (node: SessionNode) => {
    if (node.joined !== null) ids.push(sessionPath(node.joined.session));
    ids.push(pathOf(node.session));
    node.children.forEach(walk);
    node.joined?.others.forEach(walk);
  };
  for (const project of projects) project.sessions.forEach(walk);
  return ids;
}

/**
 * A top-level row's key in its project: its session's, where its store states one (a row keeps it
 * as another store's conversation of that session joins it), else its conversation's.
 */
export function rowKeyOf(node: SessionNode): string {
  const session = sessionOf(node.session);
  return session === null ? `conversation:${sessionKey(node.session)}` : `session:${session}`;
}

/** The sidebar's rows of sessions, in its order, by their keys: what moves when the list is sorted again (a chain or a session's stores move together). */
export function topRowsOf(projects: ProjectNode[]): string[] {
  return projects.flatMap((project) => project.sessions.map((node) => `${project.cwd ?? ''}\u0000${rowKeyOf(node)}`));
}

/** The order the sidebar shows: projects, and each project's top-level sessions. */
export type ListOrder = { projects: (string | null)[]; sessions: Map<string | null, string[]> };

export function orderOf(projects: ProjectNode[]): ListOrder {
  return {
    projects: projects.map((project) => project.cwd),
    sessions: new Map(projects.map((project) => [project.cwd, project.sessions.map(rowKeyOf)])),
  };
}

/**
 * The tree as it is now (its summaries current), in an order kept from before: while the reader's
 * pointer is over the list, a session that became the latest does not move from under it. What
 * was not there then goes last, in its project or in the list, so nothing shown moves down.
 */
export function keepOrder(projects: ProjectNode[], order: ListOrder): ProjectNode[] {
  const projectRank = rankIn(order.projects);
  return projects
    .map((project) => {
      const sessionRank = rankIn(order.sessions.get(project.cwd) ?? []);
      return { ...project, sessions: project.sessions.toSorted((a, b) => sessionRank(rowKeyOf(a)) - sessionRank(rowKeyOf(b))) };
    })
    .toSorted((a, b) => projectRank(a.cwd) - projectRank(b.cwd));
}

/**
 * How many rows the list shown puts elsewhere than a fresh sort would: the fewest that must move
 * to turn one order into the other (those off the longest run the two orders share).
 */
export function countMoved(shown: string[], fresh: string[]): number {
  const freshIndex = new Map(fresh.map((id, i) => [id, i]));
  const positions = shown.map((id) => freshIndex.get(id)).filter((i) => i !== undefined);
  // Longest increasing subsequence, by patience sorting: n log n for 10,000 sessions.
  const tails: number[] = [];
  for (const position of positions) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (tails[mid]! < position) low = mid + 1;
      else high = mid;
    }
    tails[low] = position;
  }
  return positions.length - tails.length;
}

/** The conversations a top-level row draws: its own, then its session's in other stores. */
export function membersOf(node: SessionNode): SessionNode[] {
  return node.joined === null ? [node] : [node, ...node.joined.others];
}

/** Whether a row shows the page at `path`: one of its conversations' (or their chain children's), or its session's across the stores. */
export function rowShows(node: SessionNode, path: string): boolean {
  if (node.joined !== null && sessionPath(node.joined.session) === path) return true;
  const holds = (member: SessionNode): boolean => pathOf(member.session) === path || member.children.some(holds);
  return membersOf(node).some(holds);
}
