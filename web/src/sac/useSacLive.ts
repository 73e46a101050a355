import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { sacKeys } from './sacApi.ts';

/**
 * Keeps the set-agent-comm views live: any notice that names this source refetches what they
 * show (a new entry changes a room's flow and the seats in it). A stream of its own, so the views
 * read nothing of the notices but which source they name.
 */
export function useSacLive(source: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: number | null = null;
    const events = new EventSource('/api/events');
    events.onmessage = (message: MessageEvent<string>) => {
      if (!message.data.includes(`"${source}"`)) return;
      timer ??= window.setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: sacKeys.all(source) });
      }, 30);
    };
    return () => {
      events.close();
      if (timer !== null) window.clearTimeout(timer);
    };
  }, [queryClient, source]);
}
