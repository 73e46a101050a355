import { useQuery } from '@tanstack/react-query';
import type { SessionsResponse } from '../../../shared/wire/conversations.ts';
import { fetchSessions } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { useListWanted } from './ListDemand.tsx';

export function useSessions() {
  const wanted = useListWanted();
  return useQuery({ queryKey: queryKeys.sessions(), queryFn: ({ signal }) => fetchSessions(signal), enabled: wanted });
}

/** The record's entry in the list of sources: the one store the dashboard reads so far. */
export function recordSourceOf(list: SessionsResponse): SessionsResponse['sources'][number] | null {
  return list.sources.find((source) => source.kind === 'record') ?? null;
}
