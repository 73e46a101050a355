import { useQuery } from '@tanstack/react-query';
import { sessionsResponseSchema } from '../../../shared/wire/conversations.ts';
import { getJson } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { apiUrls } from '../api/urls.ts';
import { useListWanted } from './ListDemand.tsx';

/** Every conversation of every store, grouped by project, with the stores' states. */
export function useConversations() {
  const wanted = useListWanted();
  return useQuery({ queryKey: queryKeys.conversations(), queryFn: ({ signal }) => getJson(apiUrls.conversations(), sessionsResponseSchema, { signal }), enabled: wanted });
}
