import type { SourceRef } from './wire/common.ts';
import type { ConversationSummary } from './wire/kinds.ts';
import type { SessionChangesResponse, SessionsResponse } from './wire/conversations.ts';
import { regroupProjects } from './projects.ts';

/**
 * The list of sessions with changed summaries put in (and `removed` taken out), as the server
 * would list them: grouped by project, most recently active first (regroupProjects, which groups
 * as groupProjects does), and the degraded count following their reasons. A client applies what
 * `session-changed` notices carry instead of fetching the list again. A project none of whose
 * conversations changed is the one the list had, so what is made of it need not be made again.
 */
export function applySessionChanges(list: SessionsResponse, changed: Iterable<ConversationSummary>, removed: Iterable<{ source: SourceRef; id: string }> = []): SessionsResponse {
  // A conversation's key is made only when its id is among those changed: not for every one listed.
  const ids = new Set<string>();
  const added = new Map<string, ConversationSummary>();
  for (const session of changed) {
    added.set(sessionKey(session), session);
    ids.add(session.id);
  }
  const gone = new Set<string>();
  for (const session of removed) {
    added.delete(sessionKey(session));
    gone.add(sessionKey(session));
    ids.add(session.id);
  }
  if (ids.size === 0) return list;
  let degradedSessions = list.degradedSessions;
  let any = added.size > 0;
  const replaced = (session: ConversationSummary) => {
    if (!ids.has(session.id)) return false;
    const key = sessionKey(session);
    return added.has(key) || gone.has(key);
  };
  for (const project of list.projects) {
    for (const session of project.sessions) {
      if (!replaced(session)) continue;
      any = true;
      if (session.degraded.length > 0) degradedSessions--;
    }
  }
  if (!any) return list;
  for (const session of added.values()) if (session.degraded.length > 0) degradedSessions++;
  return { ...list, degradedSessions, projects: regroupProjects(list.projects, replaced, [...added.values()]) };
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
