import type { ConversationSummary, SessionsResponse } from '../../../shared/api.ts';
import { sessionKey } from '../../../shared/sessionList.ts';
import { conversationPath, isRecordSession, isSacSeat, isSpexSession } from './conversations.ts';

// The sidebar's shape: projects (working directories, rule.byDirectory), each with its
// conversations of every source (record and spex sessions, set-agent-comm seats), a record chain
// child nested under its parent when the parent is in the same project. Chains are the only link
// between sessions the record makes; nothing else nests or pairs conversations.

export type SessionNode = { session: ConversationSummary; children: SessionNode[]; depth: number };
export type ProjectNode = { cwd: string | null; sessions: SessionNode[]; total: number };

export function buildTree(projects: SessionsResponse['projects'], filter: string, degradedOnly: boolean): ProjectNode[] {
  const needle = filter.trim().toLowerCase();
  const result: ProjectNode[] = [];
  for (const project of projects) {
    const projectMatches = needle !== '' && (project.cwd ?? 'no directory').toLowerCase().includes(needle);
    const keep = (s: ConversationSummary) =>
      (!degradedOnly || s.degraded.length > 0) && (needle === '' || projectMatches || matchesSession(s, needle));
    const kept = project.sessions.filter(keep);
    if (kept.length === 0) continue;
    result.push({ cwd: project.cwd, sessions: nestChains(kept), total: project.sessions.length });
  }
  return result;
}

function matchesSession(session: ConversationSummary, needle: string): boolean {
  if (session.id.toLowerCase().includes(needle)) return true;
  if (isRecordSession(session)) {
    return (
      session.cwds.some((cwd) => cwd.toLowerCase().includes(needle)) ||
      (session.chain !== null && (session.chain.brief.toLowerCase().includes(needle) || session.chain.parent.toLowerCase().includes(needle)))
    );
  }
  if (isSpexSession(session)) return [session.title, session.name, session.branch].some((text) => text?.toLowerCase().includes(needle) === true);
  if (isSacSeat(session)) return session.agent.toLowerCase().includes(needle) || (session.session.state === 'known' && session.session.session.toLowerCase().includes(needle));
  return false;
}

/**
 * Keeps the list's order (latest activity first) and moves record chain children under their
 * parent: a session of the same record, named by its full id.
 */
function nestChains(sessions: ConversationSummary[]): SessionNode[] {
  const keys = new Set(sessions.map(sessionKey));
  const children = new Map<string, ConversationSummary[]>();
  const roots: ConversationSummary[] = [];
  for (const session of sessions) {
    const parent = isRecordSession(session) ? session.chain?.parent : undefined;
    const parentKey = parent === undefined ? undefined : sessionKey({ source: session.source, id: parent });
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
    return { session, depth, children: kids.map((kid) => toNode(kid, depth + 1)) };
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

/** The paths of the conversations in the order the sidebar shows them, for moving between them by key. */
export function flattenSessions(projects: ProjectNode[]): string[] {
  const ids: string[] = [];
  const walk = (node: SessionNode) => {
    ids.push(conversationPath(node.session));
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
