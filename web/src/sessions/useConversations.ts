import { replaceEqualDeep, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { listedProjectSchema, sessionListAnswerSchema, sessionsHeadSchema, type SessionsResponse } from '../../../shared/wire/conversations.ts';
import { applyListChanges } from '../../../shared/sessionList.ts';
import { getJson, getLines } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { apiUrls } from '../api/urls.ts';
import { useFirstRowsShown } from '../conversation/FirstRows.tsx';
import { knowListedIds } from './names.ts';

/** Every conversation of every store, grouped by project, with the stores' states. */
export function useConversations() {
  const wanted = useFirstRowsShown();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.conversations(),
    queryFn: ({ signal }) => fetchConversations(queryClient, signal),
    enabled: wanted,
    // fetchConversations keeps every unchanged conversation's object itself.
    structuralSharing: false,
  });
  // Before anything renders from this list: ids that share a prefix are written apart (names.ts).
  if (query.data !== undefined) knowListedIds(query.data);
  return query;
}

/**
 * The list, fetched again: a list already held is asked only for what changed since its version,
 * which is put into the list as it is then (notices may have changed it meanwhile). While a store
 * is first read, that is what was read since the last answer, not the whole list again.
 */
async function fetchConversations(queryClient: QueryClient, signal: AbortSignal): Promise<SessionsResponse> {
  const held = queryClient.getQueryData<SessionsResponse>(queryKeys.conversations());
  const answer = held === undefined ? await fetchWholeList(signal) : await getJson(apiUrls.conversations(held.version), sessionListAnswerSchema, { signal });
  const now = queryClient.getQueryData<SessionsResponse>(queryKeys.conversations());
  if (answer.schema === 'rec.sessions/4') return now === undefined ? answer : replaceEqualDeep(now, answer);
  // Asked since the version held then: the list held now is that one with notices put in.
  if (now !== undefined && now.version === answer.since) return applyListChanges(now, answer);
  // The list that answer was for is no longer held (another answer replaced it): the whole list.
  const whole = await fetchWholeList(signal);
  return now === undefined ? whole : replaceEqualDeep(now, whole);
}

/** The whole list, read a project a line (megabytes at 10,000 sessions). */
async function fetchWholeList(signal: AbortSignal): Promise<SessionsResponse> {
  const { head, lines } = await getLines(apiUrls.conversations(), sessionsHeadSchema, listedProjectSchema, { signal });
  return { ...head, projects: lines };
}
