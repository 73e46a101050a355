import type { ConversationSummary } from '../../../shared/wire/kinds.ts';
import { kindNamed } from '../kinds/registry.ts';
import { conversationPath, sessionPath, type Route } from '../router/routes.ts';

// A conversation of any kind in the list: a record session, a spex session, a set-agent-comm
// seat. The list and the sidebar treat them alike by what every summary has (source, id,
// statedSession, cwd, lastAt, degraded); what only one kind has is shown by that kind's rows and pages.

/** Where a conversation's page is. */
export function pathOf(conversation: ConversationSummary): string {
  return conversationPath(conversation.source.id, conversation.id);
}

/**
 * The path of the page a route shows that the sidebar lists, so that it can mark it and `[` and
 * `]` step from it: a conversation's, or a session's across the stores (the head of its row);
 * null for other views.
 */
export function openListedPath(route: Route): string | null {
  if (route.view === 'session') return sessionPath(route.session);
  return route.view === 'conversation' ? conversationPath(route.source, route.id) : null;
}

/**
 * What the list's items are called: what one kind calls its own while only stores of that kind
 * are read ("session" for the record), "conversation" once several kinds are listed side by side.
 */
export function conversationWord(sources: readonly { kind: string }[]): string {
  const kinds = new Set(sources.map((source) => source.kind));
  const only = kinds.size === 1 ? kindNamed([...kinds][0]!) : null;
  return only?.noun ?? 'conversation';
}
