import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { mapResponseSchema, type MapResponse } from '../../../shared/wire/map.ts';
import { getJson, isRefusal } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { apiUrls } from '../api/urls.ts';
import { Folded } from '../app/Folded.tsx';
import { useLiveFeed, useStores } from '../events/EventStream.tsx';
import { kindNamed } from '../kinds/registry.ts';
import { useKeys } from '../keyboard/useKeys.ts';
import { useRouter } from '../router/Router.tsx';
import { mapPath } from '../router/routes.ts';
import { countOf } from '../text/count.ts';
import { EdgeList } from './EdgeList.tsx';
import { EdgeMessages } from './EdgeMessages.tsx';
import { MapCanvas } from './MapCanvas.tsx';
import { tallyEdge } from './mapWords.ts';
import './map.css';

// The map of who talks to whom (top bar): every session and peer the stores name, grouped by
// project, an edge wherever a store states a message from one to another. The window, the stores
// and the edge whose messages are listed are in the address. Live: a notice of new items fetches
// the map again, and an edge whose count changed pulses.

const WINDOWS = [
  ['', 'all time'],
  ['15m', 'the last 15 minutes'],
  ['1h', 'the last hour'],
  ['24h', 'the last day'],
  ['7d', 'the last week'],
] as const;
/** The history state of an edge's entry pushed over the map without it. */
const EDGE_STEP = { mapEdgeStep: true } as const;
function isEdgeStep(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { mapEdgeStep?: unknown }).mapEdgeStep === true;
}

/** The window select's value for a window given by `since` and `until`, and for a `last` it does not take. */
const ADDRESS_WINDOW = ':address';
const UNKNOWN_WINDOW = ':unknown';
const WINDOW_MS: Readonly<Record<string, number>> = { '15m': 15 * 60_000, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };
/** How long an edge pulses after its count changed. */
const PULSE_MS = 2_000;

/** `list`: the edges as a table (`?view=list`); else the drawing. */
type MapFilter = { last: string; since: string | null; until: string | null; stores: string[] | null; from: string | null; to: string | null; list: boolean };

function parseMapFilter(query: string): MapFilter {
  const params = new URLSearchParams(query);
  const stores = params.get('stores');
  return {
    last: params.get('last') ?? '',
    since: params.get('since'),
    until: params.get('until'),
    stores: stores === null ? null : stores.split(',').filter((id) => id !== ''),
    from: params.get('from'),
    to: params.get('to'),
    list: params.get('view') === 'list',
  };
}

function mapQueryOf(filter: MapFilter, now: number): Record<string, string> {
  const query: Record<string, string> = {};
  const window = WINDOW_MS[filter.last];
  if (window !== undefined) query['since'] = new Date(now - window).toISOString();
  else if (filter.since !== null) query['since'] = filter.since;
  if (filter.until !== null) query['until'] = filter.until;
  if (filter.stores !== null) query['stores'] = filter.stores.join(',');
  return query;
}

function addressOf(filter: MapFilter): string {
  const params = new URLSearchParams();
  if (filter.last !== '') params.set('last', filter.last);
  if (filter.since !== null) params.set('since', filter.since);
  if (filter.until !== null) params.set('until', filter.until);
  if (filter.stores !== null) params.set('stores', filter.stores.join(','));
  if (filter.list) params.set('view', 'list');
  if (filter.from !== null && filter.to !== null) {
    params.set('from', filter.from);
    params.set('to', filter.to);
  }
  return mapPath(params);
}

export default function MapView({ query }: { query: string }) {
  const { navigate } = useRouter();
  const filter = useMemo(() => parseMapFilter(query), [query]);
  // A filter changed replaces the address; an edge opened, or the list shown, is a step that Back
  // undoes. Another edge opened over one open replaces it: one step, whatever was looked at in it.
  const set = (change: Partial<MapFilter>, step = false) => navigate(addressOf({ ...filter, ...change }), { replace: !step });
  // An edge opened over the map is a step marked as the map's own (EDGE_STEP, in the entry's
  // state, which the entry keeps while the filters replace its address).
  const openEdge = (from: string, to: string) => {
    if (filter.from !== null) return set({ from, to });
    navigate(addressOf({ ...filter, from, to }), { state: EDGE_STEP });
  };
  // Closing an edge (Escape, its close button) undoes its step, as Back does, so that Back after
  // it does not open the edge again; the step under it takes the filters as they are now. An edge
  // whose entry is not such a step (opened by its address) is closed in place.
  const closeEdge = () => {
    const closed = addressOf({ ...filter, from: null, to: null });
    if (!isEdgeStep(window.history.state)) return navigate(closed, { replace: true });
    window.addEventListener(
      'popstate',
      () => {
        // Unless another edge was opened in the moment before the step was undone.
        if (!new URLSearchParams(window.location.search).has('from')) navigate(closed, { replace: true });
      },
      { once: true },
    );
    window.history.back();
  };
  useKeys(filter.from !== null ? { Escape: closeEdge } : {});
  const { sources } = useStores();
  const keyParams = new URLSearchParams({ last: filter.last, since: filter.since ?? '', until: filter.until ?? '', stores: filter.stores?.join(',') ?? '' }).toString();
  const map = useQuery({
    queryKey: queryKeys.map(keyParams),
    // A window of "the last hour" is the last hour as of each fetch.
    queryFn: ({ signal }) => getJson(apiUrls.map(mapQueryOf(filter, Date.now())), mapResponseSchema, { signal }),
    placeholderData: (previous) => previous,
  });
  // A window the server refused (a time it cannot read) is refused the same after any write.
  useLiveRefetch(map.refetch, map.isFetching, isRefusal(map.error));
  const pulsing = usePulses(map.data);

  const selected = filter.from !== null && filter.to !== null ? `${filter.from}\n${filter.to}` : null;
  const chosen = (id: string) => filter.stores === null || filter.stores.includes(id);
  const toggleStore = (id: string) => {
    const all = (sources ?? []).map((source) => source.id);
    const next = chosen(id) ? all.filter((one) => one !== id && chosen(one)) : all.filter((one) => one === id || chosen(one));
    set({ stores: next.length === all.length ? null : next });
  };

  // The window as the address gives it: a time from and to (shown beside), or a word it does not
  // take, which leaves the map over all time; never "all time" beside a window of the address's.
  const windowShown = WINDOWS.some(([value]) => value === filter.last)
    ? filter.last === '' && (filter.since !== null || filter.until !== null)
      ? ADDRESS_WINDOW
      : filter.last
    : UNKNOWN_WINDOW;

  return (
    <main className="view map-view" aria-labelledby="map-title">
      <header className="map-head">
        <h1 id="map-title">Who talks to whom</h1>
        <span className="map-shown" role="group" aria-label="Shown as">
          <button type="button" aria-pressed={!filter.list} onClick={() => set({ list: false }, true)}>
            Drawing
          </button>
          <button type="button" aria-pressed={filter.list} onClick={() => set({ list: true }, true)}>
            List
          </button>
        </span>
        <label>
          Window{' '}
          <select value={windowShown} onChange={(event) => set({ last: event.target.value, since: null, until: null })} aria-label="Time window">
            {windowShown === ADDRESS_WINDOW && (
              <option value={ADDRESS_WINDOW} disabled>
                the address’s
              </option>
            )}
            {windowShown === UNKNOWN_WINDOW && (
              <option value={UNKNOWN_WINDOW} disabled>
                “{filter.last}” is no window{filter.since === null && filter.until === null ? ': all time' : ''}
              </option>
            )}
            {WINDOWS.map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </label>
        {WINDOW_MS[filter.last] === undefined && (filter.since !== null || filter.until !== null) && (
          <span className="muted">
            from {filter.since ?? 'the start'} to {filter.until ?? 'now'}
          </span>
        )}
        {/* A window word and an end of the address's: the map asks for both, and says the end. */}
        {WINDOW_MS[filter.last] !== undefined && filter.until !== null && <span className="muted">until {filter.until}</span>}
        <span className="map-stores" role="group" aria-label="Stores on the map">
          {(sources ?? []).map((source) => (
            <label key={source.id} className="check">
              <input type="checkbox" checked={chosen(source.id)} onChange={() => toggleStore(source.id)} />
              {kindNamed(source.kind)?.name ?? source.kind} <code className="muted">{source.id}</code>
            </label>
          ))}
        </span>
        {map.data !== undefined && (
          <span className="muted" role="status">
            {countOf(map.data.nodes.length, 'node')} · {countOf(map.data.edges.length, 'edge')} · {countOf(map.data.messages, 'statement')}
            {map.data.undated > 0 ? ` (${map.data.undated} with no time)` : ''}
          </span>
        )}
      </header>
      <Folded className="map-about" summary="What the map shows">
        <p className="muted map-lede">
          An edge is drawn wherever a store states who a message went from and to. Counts are kept apart by store and by the side that states them: the record holds a message on both sides
          when both sessions are recorded, and never says which sent entry a received one is, so nothing is added up or paired. A person, and peers known only by an address or a name,
          are in the box “no project known”.
        </p>
        {!filter.list && <Legend />}
      </Folded>
      {map.isError && (
        <p className="notice warn">
          {/* A window or a store the server does not take is the address's, not a failure to fetch. */}
          {isRefusal(map.error) ? 'The map was not drawn: its address asks for what it does not take' : 'The map could not be fetched'}: {map.error.message}
        </p>
      )}
      <div className={filter.list ? 'map-body map-body-list' : 'map-body'}>
        {map.data === undefined ? (
          map.isError ? null : <p className="muted">loading…</p>
        ) : map.data.nodes.length === 0 ? (
          <p className="notice">No store states a message in this window.</p>
        ) : filter.list ? (
          <EdgeList map={map.data} selected={selected} onSelectEdge={openEdge} />
        ) : (
          <MapCanvas map={map.data} pulsing={pulsing} selected={selected} onSelectEdge={openEdge} />
        )}
        {filter.from !== null && filter.to !== null && map.data !== undefined && (
          <EdgeMessages map={map.data} from={filter.from} to={filter.to} query={mapQueryOf(filter, Date.now())} onClose={closeEdge} />
        )}
      </div>
    </main>
  );
}

/** What the drawing's lines and dots mean, drawn as the map draws them (map.css). */
function Legend() {
  const line = (className: string) => (
    <svg className="map-legend-sample" viewBox="0 0 36 10" aria-hidden="true">
      <g className={`map-edge ${className}`}>
        <path d="M2,5 L32,5" className="map-edge-line" strokeWidth={2} />
        <path d="M28,1 L35,5 L28,9 z" className="map-arrow" />
      </g>
    </svg>
  );
  const dot = (type: string) => (
    <svg className="map-legend-sample map-legend-dot" viewBox="0 0 12 12" aria-hidden="true">
      <circle cx={6} cy={6} r={4.5} className={`map-dot map-dot-${type}`} />
    </svg>
  );
  return (
    <ul className="map-legend muted" aria-label="What the drawing shows">
      <li>{line('')} from a sender to a receiver, thicker for more messages</li>
      <li>{line('refused')} some not queued or rejected</li>
      <li>{line('broadcast')} only to everyone in a room</li>
      <li>{line('pulse')} thicker for a moment as a message lands</li>
      <li>{dot('session')} a session</li>
      <li>{dot('person')} a person</li>
      <li>{dot('as-written')} “a peer” known only as its store wrote it</li>
    </ul>
  );
}

/** Fetches the map again when the stores tell of new items: at once, or when the fetch in flight ends; never a refused one. */
function useLiveRefetch(refetch: () => Promise<unknown>, fetching: boolean, refused: boolean): void {
  const feed = useLiveFeed();
  const dirty = useRef(false);
  const inFlight = useRef(fetching);
  inFlight.current = fetching;
  const wasRefused = useRef(refused);
  wasRefused.current = refused;
  useEffect(
    () =>
      feed.subscribe(() => {
        if (wasRefused.current) return;
        if (inFlight.current) dirty.current = true;
        else void refetch();
      }),
    [feed, refetch],
  );
  useEffect(() => {
    if (!fetching && dirty.current) {
      dirty.current = false;
      void refetch();
    }
  }, [fetching, refetch]);
}

/** The edges whose count changed with the last answer, for PULSE_MS. */
function usePulses(map: MapResponse | undefined): ReadonlySet<string> {
  const last = useRef<Map<string, number> | null>(null);
  const timer = useRef<number | null>(null);
  const [pulsing, setPulsing] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (map === undefined) return;
    const now = new Map(map.edges.map((edge) => [edge.key, tallyEdge(edge)]));
    const before = last.current;
    last.current = now;
    if (before === null) return;
    const changed = [...now].filter(([key, tally]) => before.get(key) !== tally).map(([key]) => key);
    if (changed.length === 0) return;
    setPulsing(new Set(changed));
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      timer.current = null;
      setPulsing(new Set());
    }, PULSE_MS);
  }, [map]);
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
  return pulsing;
}
