import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { conversationSessionResponseSchema, joinedSessionResponseSchema, joinedSessionsResponseSchema } from '../../../shared/wire/session.ts';
import { KEEP_ENTRIES_AS_SENT, getJson } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { apiUrls } from '../api/urls.ts';

/** Every Claude Code session across the stores, as the server joined them. */
export function useJoinedSessions() {
  return useQuery({ queryKey: queryKeys.joinedSessions(), queryFn: ({ signal }) => getJson(apiUrls.joinedSessions(), joinedSessionsResponseSchema, { signal }) });
}

/**
 * One session's items from every store, the newest `limit` of each of its conversations; kept as
 * sent, for they carry the record's entries as written. Asked for more, the page keeps what it
 * shows until they come.
 */
export function useJoinedSession(session: string, limit: number) {
  return useQuery({
    queryKey: queryKeys.joinedSession(session, limit),
    queryFn: ({ signal }) => getJson(apiUrls.joinedSession(session, limit), joinedSessionResponseSchema, { signal, asWritten: true }),
    placeholderData: keepPreviousData,
    ...KEEP_ENTRIES_AS_SENT,
  });
}

/** The session a store's conversation is, and where else it is, as the server joined it. */
export function useConversationSession(source: string, id: string) {
  return useQuery({ queryKey: queryKeys.conversationSession(source, id), queryFn: ({ signal }) => getJson(apiUrls.conversationSession(source, id), conversationSessionResponseSchema, { signal }) });
}
