import { useQuery } from '@tanstack/react-query';
import { fetchSessions } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { useListWanted } from './ListDemand.tsx';

export function useSessions() {
  const wanted = useListWanted();
  return useQuery({ queryKey: queryKeys.sessions(), queryFn: ({ signal }) => fetchSessions(signal), enabled: wanted });
}
