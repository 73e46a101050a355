import type { SourceRef } from './wire/common.ts';
import type { ConversationSummary } from './wire/kinds.ts';
import type { SessionChangesResponse, SessionsResponse } from './wire/conversations.ts';
import { groupProjects } from './projects.ts';

/**
 * The list of sessions with changed summaries put in, as the server would list them: grouped by
 * project, most recently active first (the same groupProjects), and the degraded count recounted.
 * A client applies what `session-changed` notices carry instead of fetching the list again.
 */
export function applySessionChanges(list: SessionsResponse, changed: Iterable<ConversationSummary>, removed: Iterable<{ source: SourceRef; id: string }> = []): SessionsResponse {
  const byId = new Map<string, ConversationSummary>();
  for (const project of list.projects) for (const session of project.sessions) byId.set(sessionKey(session), session);
  let any = false;
  for (const session of changed) {
    byId.set(sessionKey(session), session);
    any = true;
  }
  for (const session of removed) any = byId.delete(sessionKey(session)) || any;
  if (!any) return list;
  let degradedSessions = 0;
  for (const session of byId.values()) if (session.degraded.length > 0) degradedSessions++;
  // A project none of whose conversations changed or moved is the one the list had: what is made
  // of it (the sidebar's part of the tree) need not be made again.
  const before = new Map(list.projects.map((project) => [project.cwd, project]));
  const projects = groupProjects(byId.values()).map((project) => {
    const was = before.get(project.cwd);
    return was !== undefined && was.sessions.length === project.sessions.length && was.sessions.every((session, i) => session === project.sessions[i]) ? was : project;
  });
  return { ...list, degradedSessions, projects };
}

/**
 * The list at a later version: what changed since the version it was fetched at
 * (`GET /api/sessions?since=`) put in, the stores' states as they are now. Conversations that did
 * not change keep their objects, so what shows them need not be drawn again.
 */
export function applyListChanges(list: SessionsResponse, changes: SessionChangesResponse): SessionsResponse {
  const patched = applySessionChanges(list, changes.changed, changes.removed);
  return { ...patched, version: changes.version, sources: changes.sources };
}

/**
 * A session as one source holds it. The same full session id in two sources is the same Claude
 * Code session, but each source's entries stay its own: the two are never merged into one.
 */
export function sessionKey(session: { source: SourceRef; id: string }): string {
  return `${session.source.id}/${session.id}`;
}
