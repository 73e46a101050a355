import { useQuery } from '@tanstack/react-query';
import { fetchSessions } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';

export function useSessions() {
  return useQuery({ queryKey: queryKeys.sessions(), queryFn: ({ signal }) => fetchSessions(signal) });
}
