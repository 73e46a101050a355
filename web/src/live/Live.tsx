import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { Indexing, SourceStatus } from '../../../shared/wire/common.ts';
import type { ConversationSummary } from '../../../shared/wire/kinds.ts';
import { recordEventSchema, type SessionsResponse } from '../../../shared/wire/conversations.ts';
import { applySessionChanges, sessionKey } from '../../../shared/sessionList.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { createLiveFeed, type LiveFeed } from './liveFeed.ts';

// The live feed: /api/events says what changed. A changed session's notice carries its summary,
// which goes into the list of sessions as it is; its entries are fetched again. Nothing is
// replayed after a disconnect, so on every reconnect everything is fetched again.
// The app is shown once the feed has said hello: subscribed first, it can fetch once and miss
// nothing, rather than fetch everything twice (before and after the hello).

export type Connection = 'connecting' | 'open' | 'lost';
type LiveState = { connection: Connection; source: SourceStatus | null; lostSince: number | null };

const LiveContext = createContext<LiveState>({ connection: 'connecting', source: null, lostSince: null });
const LiveFeedContext = createContext<LiveFeed | null>(null);

/** A burst of writes gathers into one refetch per session; a lone write is fetched at once. */
const FIRST_FLUSH_MS = 30;
const MIN_FLUSH_GAP_MS = 100;
/**
 * The list is megabytes at 10,000 sessions: when it must be fetched again (the record's state
 * changed, or notices came while it was being fetched), at most this often.
 */
const MIN_LIST_GAP_MS = 1_500;
const RECONNECT_MS = 1_000;
/** A feed that has not said hello by then does not hold the app back; its hello refetches. */
const HELLO_WAIT_MS = 1_000;

export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>({ connection: 'connecting', source: null, lostSince: null });
  const [subscribed, setSubscribed] = useState(false);
  // Every item told since the page loaded, for the live view, wherever the reader is meanwhile.
  const [feed] = useState(createLiveFeed);

  useEffect(() => {
    let source: EventSource | null = null;
    let reconnectTimer: number | null = null;
    const helloTimer = window.setTimeout(() => setSubscribed(true), HELLO_WAIT_MS);
    let indexingState: Indexing['state'] | null = null;
    let lostAt: number | null = null;
    const changed = new Map<string, ConversationSummary>();

    const sessions = createThrottle(MIN_FLUSH_GAP_MS, () => {
      // One regrouping of the list for all the notices of a flush, however many sessions.
      queryClient.setQueryData<SessionsResponse>(queryKeys.sessions(), (old) => (old === undefined ? old : applySessionChanges(old, changed.values())));
      // An answer on its way may predate these notices and would put the old summaries back.
      if (queryClient.isFetching({ queryKey: queryKeys.sessions() }) > 0) list.schedule();
      for (const session of changed.values()) void queryClient.invalidateQueries({ queryKey: queryKeys.session(session.id) });
      void queryClient.invalidateQueries({ queryKey: ['search'] });
      changed.clear();
    });
    const list = createThrottle(MIN_LIST_GAP_MS, () => void queryClient.invalidateQueries({ queryKey: queryKeys.sessions() }));

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
            // or before a first hello that came late) is only had by fetching again.
            window.clearTimeout(helloTimer);
            setSubscribed(true);
            if (lostAt !== null) feed.addBreak(lostAt, Date.now());
            lostAt = null;
            void queryClient.invalidateQueries();
            break;
          case 'source': {
            // What the first scan reads is not told session by session; when it ends, fetch it all.
            const indexing = event.source.indexing;
            if (indexingState !== null && indexingState !== 'ready' && indexing.state === 'ready') void queryClient.invalidateQueries();
            // The root's state and the files directly in it are in the list.
            list.schedule();
            indexingState = indexing.state;
            setState((old) => ({ ...old, source: event.source }));
            break;
          }
          case 'session-changed':
            changed.set(sessionKey(event.session), event.session);
            sessions.schedule();
            break;
          case 'items':
            feed.add(event.source, event.sessionId, event.items);
            break;
        }
      };
      source.onerror = () => {
        setSubscribed(true);
        lostAt ??= Date.now();
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
      window.clearTimeout(helloTimer);
      if (reconnectTimer !== null) window.clearTimeout(reconnectTimer);
      sessions.cancel();
      list.cancel();
    };
  }, [queryClient, feed]);

  return (
    <LiveContext value={state}>
      <LiveFeedContext value={feed}>{subscribed ? children : null}</LiveFeedContext>
    </LiveContext>
  );
}

/** Runs `run` FIRST_FLUSH_MS after the first call, then at most once per `gapMs`. */
function createThrottle(gapMs: number, run: () => void) {
  let timer: number | null = null;
  let last = 0;
  return {
    schedule() {
      if (timer !== null) return;
      const wait = Math.max(FIRST_FLUSH_MS, last + gapMs - Date.now());
      timer = window.setTimeout(() => {
        timer = null;
        last = Date.now();
        run();
      }, wait);
    },
    cancel() {
      if (timer !== null) window.clearTimeout(timer);
    },
  };
}

export function useLive(): LiveState {
  return useContext(LiveContext);
}

export function useLiveFeed(): LiveFeed {
  const feed = useContext(LiveFeedContext);
  if (feed === null) throw new Error('useLiveFeed outside LiveProvider');
  return feed;
}
