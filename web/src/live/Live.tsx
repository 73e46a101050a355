import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { recordEventSchema, type Indexing, type RecordState } from '../../../shared/api.ts';
import { queryKeys } from '../api/queryKeys.ts';

// The live feed: /api/events says what changed and the client refetches it. Events are small
// notices, nothing is replayed after a disconnect, so on every reconnect everything is refetched.

export type Connection = 'connecting' | 'open' | 'lost';
export type LiveState = { connection: Connection; indexing: Indexing | null; record: RecordState | null; lostSince: number | null };

const LiveContext = createContext<LiveState>({ connection: 'connecting', indexing: null, record: null, lostSince: null });

/** A burst of writes gathers into one refetch per session; a lone write is fetched at once. */
const FIRST_FLUSH_MS = 30;
const MIN_FLUSH_GAP_MS = 300;
const RECONNECT_MS = 1_000;

export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>({ connection: 'connecting', indexing: null, record: null, lostSince: null });

  useEffect(() => {
    let source: EventSource | null = null;
    let reconnectTimer: number | null = null;
    let flushTimer: number | null = null;
    let lastFlush = 0;
    let indexingState: Indexing['state'] | null = null;
    const changed = new Set<string>();
    let listChanged = false;

    const flush = () => {
      flushTimer = null;
      lastFlush = Date.now();
      if (listChanged || changed.size > 0) void queryClient.invalidateQueries({ queryKey: queryKeys.sessions() });
      for (const sessionId of changed) void queryClient.invalidateQueries({ queryKey: queryKeys.session(sessionId) });
      if (changed.size > 0) void queryClient.invalidateQueries({ queryKey: ['search'] });
      changed.clear();
      listChanged = false;
    };
    const scheduleFlush = () => {
      if (flushTimer !== null) return;
      const wait = Math.max(FIRST_FLUSH_MS, lastFlush + MIN_FLUSH_GAP_MS - Date.now());
      flushTimer = window.setTimeout(flush, wait);
    };

    const connect = () => {
      source = new EventSource('/api/events');
      source.onopen = () => {
        setState((old) => ({ ...old, connection: 'open', lostSince: null }));
      };
      source.onmessage = (message: MessageEvent<string>) => {
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return;
        }
        const parsed = recordEventSchema.safeParse(data);
        if (!parsed.success) return;
        const event = parsed.data;
        switch (event.type) {
          case 'hello':
            // Nothing is replayed: what changed before this stream began (while we were away,
            // or between the first fetches and this connection) is only had by fetching again.
            void queryClient.invalidateQueries();
            break;
          case 'record':
            setState((old) => ({ ...old, record: event.record }));
            listChanged = true;
            scheduleFlush();
            break;
          case 'indexing':
            // Session notices are held back during the first scan; when it ends, fetch it all.
            if (indexingState !== null && indexingState !== 'ready' && event.indexing.state === 'ready') void queryClient.invalidateQueries();
            indexingState = event.indexing.state;
            setState((old) => ({ ...old, indexing: event.indexing }));
            break;
          case 'session-changed':
            changed.add(event.sessionId);
            scheduleFlush();
            break;
          case 'session-removed':
            changed.add(event.sessionId);
            listChanged = true;
            scheduleFlush();
            break;
        }
      };
      source.onerror = () => {
        setState((old) => ({ ...old, connection: 'lost', lostSince: old.lostSince ?? Date.now() }));
        // EventSource retries by itself while the server answers badly; once it gives up
        // (CLOSED), we start again ourselves.
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          reconnectTimer = window.setTimeout(connect, RECONNECT_MS);
        }
      };
    };
    connect();
    return () => {
      source?.close();
      if (reconnectTimer !== null) window.clearTimeout(reconnectTimer);
      if (flushTimer !== null) window.clearTimeout(flushTimer);
    };
  }, [queryClient]);

  return <LiveContext value={state}>{children}</LiveContext>;
}

export function useLive(): LiveState {
  return useContext(LiveContext);
}
