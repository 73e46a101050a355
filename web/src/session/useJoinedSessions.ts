import { useQuery } from '@tanstack/react-query';
import { joinedSessionResponseSchema, joinedSessionsResponseSchema } from '../../../shared/wire/session.ts';
import { KEEP_ENTRIES_AS_SENT, getJson } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { apiUrls } from '../api/urls.ts';

/** Every Claude Code session across the stores, as the server joined them. */
export function useJoinedSessions() {
  return useQuery({ queryKey: queryKeys.joinedSessions(), queryFn: ({ signal }) => getJson(apiUrls.joinedSessions(), joinedSessionsResponseSchema, { signal }) });
}

/** One session's items from every store; kept as sent, for they carry the record's entries as written. */
export function useJoinedSession(session: string) {
  return useQuery({
    queryKey: queryKeys.joinedSession(session),
    queryFn: ({ signal }) => getJson(apiUrls.joinedSession(session), joinedSessionResponseSchema, { signal, asWritten: true }),
    ...KEEP_ENTRIES_AS_SENT,
  });
}
