import type { SessionSummary, SessionsResponse } from '../../../shared/api.ts';

// The sidebar's shape: projects (working directories, rule.byDirectory), each with its sessions,
// a chain child nested under its parent when the parent is in the same project. A child in
// another project is listed in its own, and under its parent as a link that names its project:
// grouping by directory and the chain both hold. Chains are the only link between sessions the
// record makes; nothing else nests or pairs sessions.

/** `elsewhere`: chain children listed in another project, shown under this session as links. */
export type SessionNode = { session: SessionSummary; children: SessionNode[]; elsewhere: SessionSummary[]; depth: number };
export type ProjectNode = { cwd: string | null; sessions: SessionNode[]; total: number };

export function buildTree(projects: SessionsResponse['projects'], filter: string, degradedOnly: boolean): ProjectNode[] {
  const needle = filter.trim().toLowerCase();
  const elsewhere = childrenInOtherProjects(projects);
  const result: ProjectNode[] = [];
  for (const project of projects) {
    const projectMatches = needle !== '' && (project.cwd ?? 'no directory').toLowerCase().includes(needle);
    const keep = (s: SessionSummary) =>
      (!degradedOnly || s.degraded.length > 0) && (needle === '' || projectMatches || matchesSession(s, needle));
    const kept = project.sessions.filter(keep);
    if (kept.length === 0) continue;
    result.push({ cwd: project.cwd, sessions: nestChains(kept, elsewhere), total: project.sessions.length });
  }
  return result;
}

/** Chain children by parent id, for parents listed in another project than the child. */
function childrenInOtherProjects(projects: SessionsResponse['projects']): Map<string, SessionSummary[]> {
  const projectOf = new Map<string, string | null>();
  for (const project of projects) for (const session of project.sessions) projectOf.set(session.sessionId, project.cwd);
  const byParent = new Map<string, SessionSummary[]>();
  for (const project of projects) {
    for (const session of project.sessions) {
      const parent = session.chain?.parent;
      if (parent === undefined || parent === session.sessionId || !projectOf.has(parent) || projectOf.get(parent) === project.cwd) continue;
      const list = byParent.get(parent) ?? [];
      list.push(session);
      byParent.set(parent, list);
    }
  }
  return byParent;
}

function matchesSession(session: SessionSummary, needle: string): boolean {
  return (
    session.sessionId.toLowerCase().includes(needle) ||
    session.cwds.some((cwd) => cwd.toLowerCase().includes(needle)) ||
    (session.chain !== null && (session.chain.brief.toLowerCase().includes(needle) || session.chain.parent.toLowerCase().includes(needle)))
  );
}

/** Keeps the list's order (latest activity first) and moves chain children under their parent. */
function nestChains(sessions: SessionSummary[], elsewhere: Map<string, SessionSummary[]>): SessionNode[] {
  const ids = new Set(sessions.map((s) => s.sessionId));
  const children = new Map<string, SessionSummary[]>();
  const roots: SessionSummary[] = [];
  for (const session of sessions) {
    const parent = session.chain?.parent;
    if (parent !== undefined && parent !== session.sessionId && ids.has(parent)) {
      const list = children.get(parent) ?? [];
      list.push(session);
      children.set(parent, list);
    } else {
      roots.push(session);
    }
  }
  const seen = new Set<string>();
  const toNode = (session: SessionSummary, depth: number): SessionNode => {
    seen.add(session.sessionId);
    const kids = (children.get(session.sessionId) ?? []).filter((kid) => !seen.has(kid.sessionId));
    return { session, depth, children: kids.map((kid) => toNode(kid, depth + 1)), elsewhere: elsewhere.get(session.sessionId) ?? [] };
  };
  const nodes = roots.map((root) => toNode(root, 0));
  // A chain that loops back on itself has no root; its sessions are still listed.
  for (const session of sessions) if (!seen.has(session.sessionId)) nodes.push(toNode(session, 0));
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

/** Sessions in the order the sidebar shows them, for moving between sessions by key. */
export function flattenSessions(projects: ProjectNode[]): string[] {
  const ids: string[] = [];
  const walk = (node: SessionNode) => {
    ids.push(node.session.sessionId);
    node.children.forEach(walk);
  };
  for (const project of projects) project.sessions.forEach(walk);
  return ids;
}

export function shortId(sessionId: string): string {
  return sessionId.length > 8 ? sessionId.slice(0, 8) : sessionId;
}

export function projectName(cwd: string | null): string {
  if (cwd === null) return 'no directory named';
  const parts = cwd.split('/').filter((part) => part !== '');
  return parts.at(-1) ?? cwd;
}

/** The order the sidebar shows: projects, and each project's top-level sessions. */
export type ListOrder = { projects: (string | null)[]; sessions: Map<string | null, string[]> };

export function orderOf(projects: ProjectNode[]): ListOrder {
  return {
    projects: projects.map((project) => project.cwd),
    sessions: new Map(projects.map((project) => [project.cwd, project.sessions.map((node) => node.session.sessionId)])),
  };
}

/**
 * The tree as it is now (its summaries current), in an order kept from before: while the reader's
 * pointer is over the list, a session that became the latest does not move from under it. What
 * was not there then goes last, in its project or in the list, so nothing shown moves down.
 */
export function keepOrder(projects: ProjectNode[], order: ListOrder): ProjectNode[] {
  const rankOf = (list: readonly unknown[]) => {
    const ranks = new Map(list.map((value, i) => [value, i]));
    return (value: unknown) => ranks.get(value) ?? list.length;
  };
  const projectRank = rankOf(order.projects);
  return projects
    .map((project) => {
      const sessionRank = rankOf(order.sessions.get(project.cwd) ?? []);
      return { ...project, sessions: project.sessions.toSorted((a, b) => sessionRank(a.session.sessionId) - sessionRank(b.session.sessionId)) };
    })
    .toSorted((a, b) => projectRank(a.cwd) - projectRank(b.cwd));
}

/**
 * How many sessions the list shown puts elsewhere than a fresh sort would: the fewest that must
 * move to turn one order into the other (those off the longest run the two orders share).
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
