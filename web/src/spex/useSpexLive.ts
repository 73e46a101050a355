import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { spexKeys } from './spexApi.ts';

/** A burst of appended lines gathers into one refetch. */
const GATHER_MS = 30;

/**
 * Keeps a spex session's view live: a `session-changed` notice that names this source and this
 * session (a line in its own log, or one in another log whose `from` is its id) refetches what the
 * view shows. Nothing is replayed after the stream breaks, so a new hello refetches too.
 */
export function useSpexLive(source: string, sessionId: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: number | null = null;
    const refetch = () => {
      timer ??= window.setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: spexKeys.session(source, sessionId) });
      }, GATHER_MS);
    };
    // The first hello comes as the view's first answer does: only a later one follows a break.
    let greeted = false;
    const events = new EventSource('/api/events');
    events.onmessage = (message: MessageEvent<string>) => {
      let notice: { type?: unknown; source?: { id?: unknown }; sessionId?: unknown };
      try {
        notice = JSON.parse(message.data) as typeof notice;
      } catch {
        return;
      }
      if (notice.type === 'hello') {
        if (greeted) refetch();
        greeted = true;
      }
      else if (notice.type === 'session-changed' && notice.source?.id === source && notice.sessionId === sessionId) refetch();
    };
    return () => {
      events.close();
      if (timer !== null) window.clearTimeout(timer);
    };
  }, [queryClient, source, sessionId]);
}
