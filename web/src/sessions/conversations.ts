import type { SessionSummary } from '../../../shared/wire/record.ts';
import type { ConversationSummary } from '../../../shared/wire/kinds.ts';
import type { SpexSummary } from '../../../shared/wire/spex.ts';
import type { SacSeatSummary } from '../../../shared/wire/sac.ts';
import { sacSeatPath, sessionPath, spexSessionPath, type Route } from '../router/routes.ts';

// A conversation of any kind in the list: a record session, a spex session, a set-agent-comm
// seat. The list and the sidebar treat them alike by what every summary has (source, id, cwd,
// lastAt, degraded); what only one kind has is shown by that kind's row and view.

export function isRecordSession(conversation: ConversationSummary): conversation is SessionSummary {
  return conversation.source.kind === 'record';
}

export function isSpexSession(conversation: ConversationSummary): conversation is SpexSummary {
  return conversation.source.kind === 'spex';
}

export function isSacSeat(conversation: ConversationSummary): conversation is SacSeatSummary {
  return conversation.source.kind === 'sac';
}

/** Where a conversation's view is. A record session keeps its path of old, without its source. */
export function conversationPath(conversation: ConversationSummary): string {
  if (isSpexSession(conversation)) return spexSessionPath(conversation.source.id, conversation.id);
  if (isSacSeat(conversation)) return sacSeatPath(conversation.source.id, conversation.id);
  return sessionPath(conversation.id);
}

/** The same full session id in other sources: the same Claude Code session, seen there. */
export function otherViewsOf(sessionId: string, sourceId: string, all: readonly ConversationSummary[]): ConversationSummary[] {
  return all.filter((conversation) => {
    if (conversation.source.id === sourceId) return false;
    if (isSacSeat(conversation)) return conversation.session.state === 'known' && conversation.session.session === sessionId;
    return conversation.id === sessionId;
  });
}

/** The path of the conversation a route shows, so the sidebar can mark it; null for other views. */
export function openConversationPath(route: Route): string | null {
  if (route.view === 'session') return sessionPath(route.sessionId);
  if (route.view === 'spex-session') return spexSessionPath(route.source, route.sessionId);
  if (route.view === 'sac-seat') return sacSeatPath(route.source, route.seat);
  return null;
}

/**
 * What the list's items are called: "session" while every store read is a record (where each is
 * a session), "conversation" once spex sessions or set-agent-comm seats are listed beside them.
 */
export function conversationWord(sources: readonly { kind: string }[]): 'session' | 'conversation' {
  return sources.every((source) => source.kind === 'record') ? 'session' : 'conversation';
}
