import { useQueryClient, type InvalidateQueryFilters } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { type Indexing, type SourceRef, type SourceStatus } from '../../../shared/wire/common.ts';
import { recordEventSchema, type SessionsResponse } from '../../../shared/wire/conversations.ts';
import { type ConversationSummary } from '../../../shared/wire/kinds.ts';
import { applySessionChanges, sessionKey } from '../../../shared/sessionList.ts';
import { isRefusal } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { createLiveFeed, type LiveFeed } from './liveFeed.ts';
import { openSharedStream, type StreamMessage } from './sharedStream.ts';

// The app's one event stream (events/sharedStream.ts: one for every tab), read here for every
// view: /api/events says what changed. A changed conversation's notice carries its summary, which
// goes into the list as it is; what a view shows of it, and the views of its store, are fetched
// again. Each store's status is kept by its id, so that a notice of one store never stands for
// another's. Nothing is replayed after a disconnect, so on every reconnect everything is fetched
// again. The app is shown once the stream has said hello: subscribed first, it can fetch once and
// miss nothing, rather than fetch everything twice (before and after the hello).

export type Connection = 'connecting' | 'open' | 'lost';
type ConnectionState = { connection: Connection; lostSince: number | null };
/** `sources`: the stores the stream said hello with (null before it did); `statuses`: each store's last status, by its id. */
type Stores = { sources: readonly SourceRef[] | null; statuses: ReadonlyMap<string, SourceStatus> };

const ConnectionContext = createContext<ConnectionState>({ connection: 'connecting', lostSince: null });
const StoresContext = createContext<Stores>({ sources: null, statuses: new Map() });
const LiveFeedContext = createContext<LiveFeed | null>(null);

/** A burst of writes gathers into one refetch per conversation; a lone write is fetched at once. */
const FIRST_FLUSH_MS = 30;
const MIN_FLUSH_GAP_MS = 100;
/**
 * The list is megabytes at 10,000 conversations: when it must be fetched again (a store's state
 * changed, or notices came while it was being fetched), at most this often.
 */
const MIN_LIST_GAP_MS = 1_500;
/**
 * A search may take a thread seconds: while stores change, its results are asked for again at
 * most this often, and a search under way is let finish. Asked again on every notice, a search on
 * a busy store was cancelled and asked again before it could answer, and never showed results.
 */
const MIN_SEARCH_GAP_MS = 5_000;
/** A stream that has not said hello by then does not hold the app back; its hello refetches. */
const HELLO_WAIT_MS = 1_000;

export function EventStreamProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [connection, setConnection] = useState<ConnectionState>({ connection: 'connecting', lostSince: null });
  const [stores, setStores] = useState<Stores>({ sources: null, statuses: new Map() });
  const [subscribed, setSubscribed] = useState(false);
  // Every item told since the page loaded, for the live view, wherever the reader is meanwhile.
  const [feed] = useState(createLiveFeed);

  useEffect(() => {
    const helloTimer = window.setTimeout(() => setSubscribed(true), HELLO_WAIT_MS);
    const indexing = new Map<string, Indexing['state']>();
    let lostAt: number | null = null;
    const changed = new Map<string, ConversationSummary>();

    /**
     * What a notice made stale is fetched again, but a fetch under way is let finish and followed
     * by one more once it ends: cancelled on every notice, a busy room's flow (84 KB, ten notices
     * a second) was asked again and again and never arrived. What the server refused (a 404, a
     * query it cannot run) is asked again only where the notice names it (`named`).
     */
    const again: { filters: InvalidateQueryFilters; named: boolean }[] = [];
    const refresh = (filters: InvalidateQueryFilters, named = false) => {
      if (queryClient.isFetching(filters) > 0) {
        again.push({ filters, named });
        refreshAgain.schedule();
      }
      const wanted = filters.predicate;
      void queryClient.invalidateQueries({ ...filters, predicate: (query) => (named || !isRefusal(query.state.error)) && (wanted === undefined || wanted(query)) }, { cancelRefetch: false });
    };
    const refreshAgain = createThrottle(MIN_FLUSH_GAP_MS, () => {
      // Each as it was asked: a key once; a predicate (the conversations a notice named) each.
      const asked = new Set<string>();
      for (const { filters, named } of again.splice(0)) {
        const key = `${JSON.stringify(filters.queryKey)} ${named}`;
        if (filters.predicate === undefined && asked.has(key)) continue;
        asked.add(key);
        refresh(filters, named);
      }
    });

    const conversations = createThrottle(MIN_FLUSH_GAP_MS, () => {
      // One regrouping of the list for all the notices of a flush, however many conversations.
      queryClient.setQueryData<SessionsResponse>(queryKeys.conversations(), (old) => (old === undefined ? old : applySessionChanges(old, changed.values())));
      // An answer on its way may predate these notices and would put the old summaries back.
      if (queryClient.isFetching({ queryKey: queryKeys.conversations() }) > 0) list.schedule();
      const sources = new Set<string>();
      for (const conversation of changed.values()) {
        // A page that said "no such conversation" is asked again when the notice names it: it may be there now.
        refresh({ queryKey: queryKeys.conversation(conversation.source.id, conversation.id) }, true);
        sources.add(conversation.source.id);
      }
      for (const source of sources) refresh({ queryKey: queryKeys.views(source) });
      searches.schedule();
      changed.clear();
    });
    // A search the server refused (a regular expression it cannot run) is refused the same after any write.
    const searches = createThrottle(MIN_SEARCH_GAP_MS, () => void queryClient.invalidateQueries({ queryKey: queryKeys.searches(), predicate: (query) => !isRefusal(query.state.error) }, { cancelRefetch: false }));
    const list = createThrottle(MIN_LIST_GAP_MS, () => void queryClient.invalidateQueries({ queryKey: queryKeys.conversations() }));
    // The sessions across the stores are joined by the server: its list is fetched again, at most this often.
    const joinedList = createThrottle(MIN_LIST_GAP_MS, () => void queryClient.invalidateQueries({ queryKey: queryKeys.joinedSessions() }));
    // A session's page across the stores is fetched again when one of its conversations has new
    // items, or has changed (less often); the server's answer names them, so nothing here joins anything.
    const itemsOf = new Set<string>();
    /** The sessions the told items' stores state: a page that found none of a session's stores may find one now. */
    const sessionsOf = new Set<string>();
    const refreshSessionPages = (told: ReadonlySet<string>, toldSessions: ReadonlySet<string>) =>
      refresh(
        {
          queryKey: queryKeys.joinedSession(),
          predicate: (query) => {
            const data = query.state.data as { conversations?: readonly { source: SourceRef; id: string }[] } | undefined;
            if (data?.conversations === undefined) return toldSessions.has(String(query.queryKey[1]));
            return data.conversations.some((one) => told.has(`${one.source.id}\u0000${one.id}`));
          },
        },
        true,
      );
    const sessionPages = createThrottle(MIN_FLUSH_GAP_MS, () => {
      const told = new Set(itemsOf);
      const toldSessions = new Set(sessionsOf);
      itemsOf.clear();
      sessionsOf.clear();
      refreshSessionPages(told, toldSessions);
    });
    // A conversation that changed without new items of its own: its summary, what it may lack (a
    // spex session's Sent, when another log changed), a seat's Received (another seat wrote in its
    // room, which tells every seat of the room). A busy room tells this many times a second, and a
    // page across the stores reads each store's newest items again: at most this often.
    const changedOf = new Set<string>();
    const changedSessionPages = createThrottle(MIN_LIST_GAP_MS, () => {
      const told = new Set(changedOf);
      changedOf.clear();
      refreshSessionPages(told, new Set());
    });

    const onMessage = (message: StreamMessage) => {
      if (message.type === 'open') {
        feed.listening();
        return setConnection({ connection: 'open', lostSince: null });
      }
      if (message.type === 'lost') {
        setSubscribed(true);
        lostAt ??= message.since;
        return setConnection((old) => ({ connection: 'lost', lostSince: old.lostSince ?? message.since }));
      }
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
          // Nothing is replayed: what changed before this stream began (while we were away, or
          // before a first hello that came late) is only had by fetching again.
          window.clearTimeout(helloTimer);
          setSubscribed(true);
          if (lostAt !== null) feed.addBreak(lostAt, Date.now());
          lostAt = null;
          indexing.clear();
          setStores({ sources: event.sources, statuses: new Map() });
          void queryClient.invalidateQueries();
          break;
        case 'source': {
          const { source } = event;
          // What a store's first scan reads is not told conversation by conversation: when it ends, fetch it all.
          const was = indexing.get(source.id);
          if (was !== undefined && was !== 'ready' && source.indexing.state === 'ready') void queryClient.invalidateQueries();
          indexing.set(source.id, source.indexing.state);
          // The root's state and the files directly in it are in the list.
          list.schedule();
          setStores((old) => ({ sources: old.sources, statuses: new Map(old.statuses).set(source.id, source) }));
          break;
        }
        case 'session-changed':
          changed.set(sessionKey(event.session), event.session);
          conversations.schedule();
          joinedList.schedule();
          changedOf.add(`${event.session.source.id}\u0000${event.session.id}`);
          changedSessionPages.schedule();
          break;
        case 'items':
          feed.add(event.source, event.sessionId, event.session, event.items);
          itemsOf.add(`${event.source.id}\u0000${event.sessionId}`);
          if (event.session !== null) sessionsOf.add(event.session);
          sessionPages.schedule();
          break;
      }
    };
    const close = openSharedStream(onMessage);
    return () => {
      close();
      window.clearTimeout(helloTimer);
      conversations.cancel();
      list.cancel();
      sessionPages.cancel();
      changedSessionPages.cancel();
      refreshAgain.cancel();
      joinedList.cancel();
      searches.cancel();
    };
  }, [queryClient, feed]);

  return (
    <ConnectionContext value={connection}>
      <StoresContext value={stores}>
        <LiveFeedContext value={feed}>{subscribed ? children : null}</LiveFeedContext>
      </StoresContext>
    </ConnectionContext>
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

export function useConnection(): ConnectionState {
  return useContext(ConnectionContext);
}

/** The stores the stream told of, and each one's last status. */
export function useStores(): Stores {
  return useContext(StoresContext);
}

export function useLiveFeed(): LiveFeed {
  const feed = useContext(LiveFeedContext);
  if (feed === null) throw new Error('useLiveFeed outside EventStreamProvider');
  return feed;
}
