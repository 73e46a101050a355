import { SessionLink } from '../session/SessionLink.tsx';
import { describeLiveSelection, downloadText } from './liveExport.ts';
import { chosenOf, keepChosen, keepPlace, liveEntryKey, placeOf, type LiveChoice, type LivePlace } from './livePlace.ts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { SOURCE_KINDS, type SourceKind, type SourceRef } from '../../../shared/wire/common.ts';
import { useRouter, Link } from '../router/Router.tsx';
import { kindNamed, kindOf } from '../kinds/registry.ts';
import { StoreSelect } from '../kinds/StoreSelect.tsx';
import { conversationPath, livePath } from '../router/routes.ts';
import { projectName } from '../sessions/names.ts';
import { findConversation } from '../../../shared/projects.ts';
import { clipApart } from '../text/clipApart.ts';
import { REFUSED_ONLY_TITLE } from '../text/refused.ts';
import { useConversations } from '../sessions/useConversations.ts';
import { ProjectSelect } from '../sessions/ProjectSelect.tsx';
import { countOf } from '../text/count.ts';
import { VerbatimText } from '../text/VerbatimText.tsx';
import { Mark } from '../conversation/marks.tsx';
import { Time } from '../time/Time.tsx';
import { useFollow } from '../conversation/useFollow.ts';
import { FoldedFilters } from '../conversation/FoldedFilters.tsx';
import { Folded } from '../app/Folded.tsx';
import { SideSelect } from '../conversation/SideSelect.tsx';
import { RATE_WINDOW_MS, type LiveFeed, type LiveRow } from '../events/liveFeed.ts';
import { isFiltered, LIVE_PARAMS, liveFilterQuery, liveTypeValue, matchesLive, isSourceRead, parseLiveFilter, parseLiveType, type LiveFilter } from './liveFilter.ts';
import { ParamsNotApplied } from '../conversation/ParamsNotApplied.tsx';
import { useConnection, useLiveFeed } from '../events/EventStream.tsx';
import { useKeys } from '../keyboard/useKeys.ts';
import { stepFrom, walkKeys } from '../keyboard/walkKeys.ts';
import '../export/export.css';
import './live.css';
import { PERSON_WORDS } from '../../../shared/peerMatch.ts';

// Every new item of every source, in the order it arrived, a row each. Virtualized: a burst of
// 10,000 writes is 10,000 rows, of which only those on screen are in the DOM.

/** A row's height where the list's style does not say (`--live-row-px`: two lines in a narrow list, three on a phone). */
const ROW_PX = 30;

/** The most characters of an id or a peer a row shows where the list's style does not say; a longer one is cut in its middle, apart from the others. */
const NAME_CHARS = 20;

/**
 * Every row's height and the characters of a name, as the list's style gives them for its width
 * (live.css `--live-row-px`, `--live-name-chars`): one line where the list is wide, two where it is
 * not, so what came of it and the first line keep their room; a whole seat name or session id
 * where the list is wide enough for it. Read again whenever the list changes width; the thresholds
 * are the style's alone.
 */
function useListStyle(scrollElement: HTMLElement | null): { rowPx: number; nameChars: number } {
  const [style, setStyle] = useState({ rowPx: ROW_PX, nameChars: NAME_CHARS });
  useEffect(() => {
    if (scrollElement === null) return;
    const read = () => {
      const computed = getComputedStyle(scrollElement);
      const rowPx = Number.parseFloat(computed.getPropertyValue('--live-row-px')) || ROW_PX;
      const nameChars = Number.parseInt(computed.getPropertyValue('--live-name-chars'), 10) || NAME_CHARS;
      setStyle((was) => (was.rowPx === rowPx && was.nameChars === nameChars ? was : { rowPx, nameChars }));
    };
    read();
    const resized = new ResizeObserver(read);
    resized.observe(scrollElement);
    return () => resized.disconnect();
  }, [scrollElement]);
  return style;
}

/** A stream lost for longer than this is said to have stopped (it is still tried again). */
const STOPPED_AFTER_MS = 30_000;

/** The feed's version, taken at most once a frame: a burst tells hundreds of notices a second. */
function useFeedVersion(feed: LiveFeed): number {
  const subscribe = useMemo(
    () => (onChange: () => void) => {
      let frame: number | null = null;
      const unsubscribe = feed.subscribe(() => {
        frame ??= window.requestAnimationFrame(() => {
          frame = null;
          onChange();
        });
      });
      return () => {
        unsubscribe();
        if (frame !== null) window.cancelAnimationFrame(frame);
      };
    },
    [feed],
  );
  return useSyncExternalStore(subscribe, feed.version);
}

/**
 * Where a paused list is: the row drawn at its top, how far into it (a fraction of a row), and the
 * last row its reader had. Read from the rows drawn, not from the offset and the rows' height:
 * that height, read from the style after a change of width, may not be the one drawn yet.
 */
function placeIn(scrollElement: HTMLElement, shown: readonly LiveRow[], seenId: string | number | null): LivePlace | null {
  const top = scrollElement.getBoundingClientRect().top;
  let found: { index: number; rect: DOMRect } | null = null;
  for (const row of scrollElement.querySelectorAll<HTMLElement>('.live-row[data-index]')) {
    const rect = row.getBoundingClientRect();
    const index = Number(row.dataset['index']);
    if (rect.bottom > top + 1 && (found === null || index < found.index)) found = { index, rect };
  }
  const row = found === null ? undefined : shown[found.index];
  if (found === null || row === undefined) return null;
  return { topId: row.id, intoRow: Math.min(1, Math.max(0, (top - found.rect.top) / Math.max(1, found.rect.height))), seenId };
}

/** Re-renders every `ms`, for what changes with time alone (the rate, "stopped"). */
function useTick(ms: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(timer);
  }, [ms]);
  return now;
}

const EXPORT_LABELS = { ndjson: 'NDJSON', json: 'JSON', md: 'Markdown' } as const;
const EXPORT_TYPES = { ndjson: 'application/x-ndjson', json: 'application/json', md: 'text/markdown' } as const;

export default function LiveView({ query }: { query: string }) {
  const feed = useLiveFeed();
  const version = useFeedVersion(feed);
  const live = useConnection();
  const now = useTick(5_000);
  const { navigate } = useRouter();
  // The list of every conversation changes with each write told, and is refetched whole while a
  // store is indexed: what the view takes from it (projects, labels, the filters' choices) is
  // rendered after, never before, the rows that arrived meanwhile.
  const sessions = useDeferredValue(useConversations().data);
  const filterSources = useMemo(() => sessions?.sources ?? [], [sessions]);
  const asked = useMemo(() => parseLiveFilter(query), [query]);
  // The same filter while the list changes with each write; a store none read here is (once they are known) not applied.
  const sourceRead = sessions === undefined || isSourceRead(asked.source, filterSources);
  const filter = useMemo(() => (sourceRead ? asked : { ...asked, source: null }), [asked, sourceRead]);
  const setFilter = useCallback((next: LiveFilter) => navigate(livePath(liveFilterQuery(next)), { replace: true }), [navigate]);
  const filterProjects = useMemo(() => sessions?.projects.map((project) => project.cwd) ?? [], [sessions]);

  // A row's project and label are looked up for the rows drawn only, in the projects the list
  // changed only (findConversation): what a write costs the view does not grow with the list.
  const projects = sessions?.projects;
  const conversationOf = useCallback((sourceId: string, id: string) => (projects === undefined ? undefined : findConversation(projects, sourceId, id)), [projects]);
  const all = feed.rows();
  // Filtered again whenever the feed or the filter changes: a row being written may turn into an entry.
  const shown = useMemo(() => {
    const projectOf = (sourceId: string, id: string) => conversationOf(sourceId, id)?.cwd;
    return isFiltered(filter) ? all.filter((row) => matchesLive(row, filter, projectOf)) : all.slice();
  }, [all, version, filter, conversationOf]);
  const [scrollElement, scrollRef] = useState<HTMLDivElement | null>(null);
  const { rowPx, nameChars } = useListStyle(scrollElement);
  const names = useMemo(() => {
    const seen = new Set<string>();
    for (const row of all) {
      if (row.type !== 'item') continue;
      seen.add(row.sessionId);
      if (row.item.peer !== null) seen.add(row.item.peer);
    }
    return clipApart(seen, nameChars);
  }, [all, version, nameChars]);
  const itemCount = useMemo(() => all.reduce((n, row) => n + (row.type === 'item' ? 1 : 0), 0), [all, version]);
  const shownCount = isFiltered(filter) ? shown.reduce((n, row) => n + (row.type === 'item' ? 1 : 0), 0) : itemCount;
  const kinds = useMemo(() => {
    const seen = new Map<SourceKind, Set<string>>();
    const see = (store: SourceKind, kind: string) => {
      const words = seen.get(store) ?? new Set<string>();
      seen.set(store, words.add(kind));
    };
    for (const row of all) if (row.type === 'item' && row.item.kind !== null) see(row.source.kind, row.item.kind);
    if (filter.type !== null && filter.type.store !== null) see(filter.type.store, filter.type.kind);
    return SOURCE_KINDS.filter((store) => seen.has(store)).map((store) => ({ store, kinds: [...seen.get(store)!].sort() }));
  }, [all, version, filter.type]);

  // Made again only with the rows shown: the virtualizer places every row again whenever its key function is another.
  const getItemKey = useCallback((index: number) => shown[index]!.id, [shown]);
  const estimateRow = useCallback(() => rowPx, [rowPx]);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollElement,
    estimateSize: estimateRow,
    getItemKey,
    overscan: 10,
  });
  // Back to a view left paused (a row opened, then Back): paused at the row it was at, with what
  // came meanwhile counted as new (livePlace.ts).
  const [entry] = useState(liveEntryKey);
  const [kept] = useState(() => placeOf(entry));
  const follow = useFollow(scrollElement, virtualizer, shown.length, kept === null, getItemKey, kept?.seenId);
  // Gone back to below, where the rows' height is kept track of, once the rows are here.
  const toPlace = useRef(kept);
  // Its place as the reader leaves it, noted as they scroll or pause, and kept with the history
  // entry when the view goes.
  const leaving = useRef<LivePlace | null>(kept);
  const placeNow = useRef(() => {});
  placeNow.current = () => {
    // A list not yet here (its rows filtered on a list of sessions still to come) has not moved.
    if (!follow.following && shown.length === 0) return;
    if (follow.following || scrollElement === null) {
      leaving.current = null;
      return;
    }
    // A list that has left the page (a scroll told after a row opened) has no row drawn to read:
    // the place the reader left stays.
    leaving.current = placeIn(scrollElement, shown, follow.seenKey) ?? leaving.current;
  };
  useEffect(() => {
    if (scrollElement === null) return;
    const note = () => placeNow.current();
    scrollElement.addEventListener('scroll', note, { passive: true });
    return () => scrollElement.removeEventListener('scroll', note);
  }, [scrollElement]);
  useEffect(() => placeNow.current(), [follow.following, follow.seenKey]);
  useEffect(() => () => keepPlace(entry, leaving.current), [entry]);
  // Every row is placed again at its new height. A reader who stopped following keeps the row
  // that was at the top there; following, the newest row is shown again as ever. A place gone
  // back to is set here too, in the rows' height this effect keeps track of, so that the height
  // it was set in is the one it is scaled from when the style's height is read.
  const lastRowPx = useRef(rowPx);
  const following = follow.following;
  useLayoutEffect(() => {
    const before = lastRowPx.current;
    lastRowPx.current = rowPx;
    const place = toPlace.current;
    // Once its rows are here (a project filter waits for the list of sessions); a row no longer
    // among them leaves no place to go back to, and the view follows again.
    if (place !== null && scrollElement !== null && shown.length > 0) {
      toPlace.current = null;
      const index = shown.findIndex((row) => row.id === place.topId);
      if (before !== rowPx) virtualizer.measure();
      if (index === -1) follow.resume();
      else scrollElement.scrollTop = (index + place.intoRow) * rowPx;
      return;
    }
    if (before === rowPx) return;
    const topRow = scrollElement === null ? 0 : scrollElement.scrollTop / before;
    virtualizer.measure();
    if (scrollElement !== null && !following) scrollElement.scrollTop = topRow * rowPx;
  }, [virtualizer, rowPx, scrollElement, following, shown]);

  // The keys, as over a conversation's entries: j and k (↓ ↑) the next row and the one before
  // (from the rows on screen when none is selected), Home the first, End or G the newest (and
  // follow); Enter opens the selected item in its place, as a click on its row does. The selection
  // is a row, by its id: it stays on it as rows arrive, and a row chosen above the newest pauses
  // the list, as scrolling up does. A row opened (by Enter or a click) is the one chosen, and the
  // choice is kept with the history entry: Back finds it chosen still.
  const [restored] = useState(() => chosenOf(entry));
  const [selectedId, setSelectedId] = useState<LiveRow['id'] | null>(restored?.id ?? null);
  // The newest item: a break (the stream lost, then back) is a row no key opens.
  const newestId = shown.findLast((row) => row.type === 'item')?.id ?? null;
  const chosenNow = useRef<LiveChoice | null>(null);
  chosenNow.current = selectedId === null ? null : { id: selectedId, newest: follow.following && selectedId === newestId };
  useEffect(() => () => keepChosen(entry, chosenNow.current), [entry]);
  // A row opened above the newest pauses the list where it is, as a row chosen there does: Back
  // finds it where it was, not scrolled away by the rows come meanwhile. Noted at once: the view
  // leaves with this event, before a render would note it.
  const openNow = useRef((_id: LiveRow['id'], _link: string) => {});
  openNow.current = (id, link) => {
    setSelectedId(id);
    const at = shown.findIndex((row) => row.id === id);
    const above = at !== -1 && at < shown.length - 1;
    chosenNow.current = { id, newest: follow.following && !above };
    if (follow.following && above && scrollElement !== null) {
      follow.stopFollowing();
      leaving.current = placeIn(scrollElement, shown, shown.at(-1)!.id) ?? leaving.current;
    }
    navigate(link);
  };
  // One function for every row's whole life: the rows are drawn again only when they change.
  const openRow = useCallback((id: LiveRow['id'], link: string) => openNow.current(id, link), []);
  // Following with the newest chosen (End, G, or j to it), the choice goes on to each newer item
  // as it comes: Enter opens the newest, as the list shows it. So too back to a view left so: its
  // choice goes on to what came meanwhile.
  const newestBefore = useRef(restored?.newest === true ? restored.id : newestId);
  useEffect(() => {
    if (newestId === null) return;
    const before = newestBefore.current;
    newestBefore.current = newestId;
    if (follow.following && newestId !== before && selectedId !== null && selectedId === before) setSelectedId(newestId);
  }, [newestId, follow.following, selectedId]);
  const selectedAt = selectedId === null ? -1 : shown.findIndex((row) => row.id === selectedId);
  const select = (index: number) => {
    if (shown.length === 0) return;
    const at = Math.max(0, Math.min(shown.length - 1, index));
    setSelectedId(shown[at]!.id);
    if (at < shown.length - 1) follow.stopFollowing();
    virtualizer.scrollToIndex(at, { align: 'auto' });
  };
  const toNewest = () => {
    if (newestId !== null) setSelectedId(newestId);
    follow.resume();
  };
  useKeys({
    ...walkKeys({ step: (delta) => select(stepFrom(selectedAt === -1 ? null : selectedAt, delta, virtualizer, shown.length)), first: () => select(0), newest: toNewest }),
    Enter: () => {
      const row = shown[selectedAt];
      if (row?.type === 'item') openRow(row.id, row.item.link);
    },
  });

  const connection = live.connection === 'open' ? 'live' : live.connection === 'connecting' ? 'connecting' : live.lostSince !== null && now - live.lostSince > STOPPED_AFTER_MS ? 'stopped' : 'reconnecting';
  // Paused, the stream is still open and counts what comes; the list is what stopped, and says so beside the dot.
  const connectionWords = {
    live: follow.following ? 'live' : 'live · list paused',
    connecting: 'connecting…',
    reconnecting: 'reconnecting…: items written meanwhile will not be listed',
    stopped: 'stopped: the server has not answered for a while (still trying); items written meanwhile will not be listed',
  }[connection];
  // Read as the view is drawn (for each item told, and at each tick): the tick's time alone lagged
  // the items counted by up to its 5 s ("7 items in 1 s").
  const rateAt = Date.now();
  const perMinute = feed.perMinute(rateAt);
  // Before the page has listened for a minute, a count per minute is a rate it has not watched;
  // before its stream first opened, it has watched nothing.
  const countedFor = feed.countedFor(rateAt);
  // Said as they arrived, apart from how many are listed beside it (the same number at first: "53 arrived in 28 s", "53 items listed").
  const rate = countedFor === null ? '–' : countedFor < RATE_WINDOW_MS ? `${perMinute.toLocaleString('en')} arrived in ${Math.max(1, Math.round(countedFor / 1000))} s` : `${perMinute.toLocaleString('en')} a minute`;

  return (
    <main className="view live-view" aria-label="Live">
      <header className="live-header">
        <h1>Live</h1>
        <span className={`live-state live-state-${connection}`} role="status" aria-label="Connection">
          <span className="live-dot" aria-hidden="true" /> {connectionWords}
        </span>
        <span className="live-rate" aria-label="Rate">
          {rate}
        </span>
        <span className="live-count" aria-label="Items listed">
          {isFiltered(filter) ? `${shownCount.toLocaleString('en')} of ${countOf(itemCount, 'item')} listed` : `${countOf(itemCount, 'item')} listed`}
        </span>
        <span className="download-links" role="group" aria-label="Download the selection">
          <span className="muted">Download:</span>
          {(['ndjson', 'json', 'md'] as const).map((format) => (
            <button
              key={format}
              type="button"
              className="small"
              aria-label={`Download the selection as ${EXPORT_LABELS[format]}`}
              title="The items listed here, as the live view was told them; each conversation's export has them whole"
              onClick={() => {
                const at = new Date().toISOString();
                downloadText(`live-${at.replace(/[:.]/g, '-')}.${format}`, EXPORT_TYPES[format], describeLiveSelection(format, shown, filter, at));
              }}
            >
              {EXPORT_LABELS[format]}
            </button>
          ))}
        </span>
        {follow.following ? (
          <button type="button" onClick={follow.stopFollowing} title="Stop following new items">
            Pause
          </button>
        ) : (
          <button type="button" onClick={follow.resume} title="Jump to the newest item and follow">
            Resume{follow.newCount > 0 ? ` (${follow.newCount.toLocaleString('en')} new)` : ''}
          </button>
        )}
      </header>
      <FoldedFilters applied={liveFilterQuery(filter).size}>
        <LiveFilters filter={filter} onFilter={setFilter} sources={filterSources} projects={filterProjects} kinds={kinds} />
      </FoldedFilters>
      <ParamsNotApplied query={query} reads={LIVE_PARAMS} applied={liveFilterQuery(filter)} />
      {/* Nine lines above the rows on a phone: folded there under what it must not leave unsaid; open, with no summary, on a wider window (live.css). */}
      <Folded className="live-note-fold" summary={<>About this list<span className="muted"> (in the order they arrived; nothing pairs a received item with a sent one)</span></>}>
        <p className="live-note muted">
          Items as they are written since the dashboard was opened in this tab (not only since this view was), in the order they arrived, each as one store states it: nothing pairs a
          received item with a sent one. A spex line from one session of a home to another is one line of the receiver's log: it is a row of each session, both read from that
          line and marked <Mark name="two-sides" />, joined by the id spex wrote in it. A row opens the item in its place. What was written before then is in each session.
        </p>
      </Folded>
      <div className="live-list">
        <div className="live-row live-columns" aria-hidden="true">
          <span>time</span>
          <span>source</span>
          <span>session</span>
          <span>side</span>
          <span>peer</span>
          <span>what came of it</span>
          <span>first line</span>
        </div>
        {shown.length === 0 && <p className="notice">{itemCount === 0 ? 'Nothing written since this page opened yet.' : 'No item matches these filters.'}</p>}
        <div ref={scrollRef} className="live-scroll" tabIndex={0} role="feed" aria-label="Live items">
          <div className="live-inner" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((virtual) => {
              const row = shown[virtual.index]!;
              if (row.type === 'break') return <LiveBreakView key={virtual.key} row={row} index={virtual.index} start={virtual.start} />;
              const conversation = conversationOf(row.source.id, row.sessionId);
              return (
                <LiveRowView
                  key={virtual.key}
                  row={row}
                  index={virtual.index}
                  start={virtual.start}
                  cwd={conversation?.cwd}
                  label={conversation === undefined ? undefined : (kindOf(conversation).tableName(conversation).label ?? undefined)}
                  sessionName={names.get(row.sessionId) ?? row.sessionId}
                  peerName={row.item.peer === null ? null : (names.get(row.item.peer) ?? row.item.peer)}
                  onOpen={openRow}
                  selected={virtual.index === selectedAt}
                />
              );
            })}
          </div>
        </div>
        {!follow.following && follow.newBelow && (
          <button type="button" className="new-marker" onClick={follow.resume}>
            {follow.newCount.toLocaleString('en')} new ↓
          </button>
        )}
      </div>
    </main>
  );
}

type ItemRow = Extract<LiveRow, { type: 'item' }>;

type RowProps = {
  row: ItemRow;
  index: number;
  start: number;
  /** The conversation's project: undefined while the list does not hold it. */
  cwd: string | null | undefined;
  /** The conversation's label (a spex session's title). */
  label: string | undefined;
  /** How the id and the peer are shown: see clipApart. */
  sessionName: string;
  peerName: string | null;
  onOpen(id: LiveRow['id'], path: string): void;
  /** Chosen by the keys (j, k, Home, End): Enter opens it. */
  selected: boolean;
};

function LiveBreakView({ row, index, start }: { row: Extract<LiveRow, { type: 'break' }>; index: number; start: number }) {
  return (
    <div className="live-row live-break" data-index={index} style={{ transform: `translateY(${start}px)` }} role="note">
      The connection was lost from <Time at={new Date(row.lostAt).toISOString()} short /> to <Time at={new Date(row.backAt).toISOString()} short />: what was written meanwhile is not listed here.
    </div>
  );
}

// A row is drawn again only when what it shows changed: a new item, a scroll or a list refetched
// while a store is indexed leaves the other rows as they are.
const LiveRowView = memo(function LiveRowView({ row, index, start, cwd, label, sessionName, peerName, onOpen, selected }: RowProps) {
  const style = { transform: `translateY(${start}px)` };
  const { item, source, sessionId } = row;
  const classes = ['live-row', 'live-item', item.refused ? 'live-refused' : '', item.degraded ? 'live-degraded' : '', item.side !== null ? `live-${item.side}` : '', selected ? 'selected' : ''].join(' ');
  return (
    <div
      className={classes}
      data-index={index}
      data-key={item.key}
      data-evidence={item.evidence}
      style={style}
      role="article"
      aria-label={`${item.kind ?? item.evidence} ${item.key}`}
      aria-current={selected ? 'true' : undefined}
      onClick={(event) => {
        if ((event.target as HTMLElement).closest('a') !== null) return;
        onOpen(row.id, item.link);
      }}
    >
      <span className="live-time">{item.at !== null ? <Time at={item.at} withDate={false} /> : "–"}</span>
      <span className="live-source" title={source.id}>
        {source.kind}
      </span>
      <span className="live-session" title={[sessionId, label, cwd === undefined ? undefined : (cwd ?? 'no directory named')].filter((part) => part !== undefined).join(' · ')}>
        <Link to={conversationPath(source.id, sessionId)} className="live-name">
          {sessionName}
        </Link>
        {label !== undefined && <span className="live-label"> {label}</span>}
        {row.session !== null && ' '}
        <SessionLink session={row.session}>across</SessionLink>
        {cwd !== undefined && <span className="muted"> {projectName(cwd)}</span>}
      </span>
      <span className="live-side">{item.side ?? ''}</span>
      <span className="live-peer" title={item.fromPerson === true ? undefined : [item.peer, item.peerNamed].filter((part) => part != null).join(' · ') || undefined}>
        {item.fromPerson === true && (
          <strong className="live-person" title="from: null — a person, not a session">
            {PERSON_WORDS}
          </strong>
        )}
        {peerName !== null && <span className="live-name">{peerName}</span>}
        {item.peerNamed !== undefined && <span className="live-label"> {item.peerNamed}</span>}
      </span>
      <span className="live-words" title={item.words}>
        <Link to={item.link}>{item.words}</Link>
        {/* The same line is another row too, under the other session: one event, not two. */}
        {item.twoSides === true && <Mark name="two-sides" />}
      </span>
      <span className="live-line">{item.firstLine !== null ? <VerbatimText text={item.firstLine} inline /> : <span className="muted">{kindNamed(source.kind)?.liveNoText?.(item) ?? ''}</span>}</span>
    </div>
  );
});

const LiveFilters = memo(function LiveFilters({
  filter,
  onFilter,
  sources,
  projects,
  kinds,
}: {
  filter: LiveFilter;
  onFilter(next: LiveFilter): void;
  sources: readonly SourceRef[];
  projects: readonly (string | null)[];
  kinds: readonly { store: SourceKind; kinds: readonly string[] }[];
}) {
  return (
    <form className="live-filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
      <ProjectSelect value={filter.project ?? ''} onChange={(value) => onFilter({ ...filter, project: value === '' ? null : value })} projects={projects} any="any" />
      <StoreSelect value={filter.source ?? ''} onChange={(value) => onFilter({ ...filter, source: value === '' ? null : value })} sources={sources} any="any" />
      <label>
        session <input type="text" size={12} value={filter.session} onChange={(event) => onFilter({ ...filter, session: event.target.value })} placeholder="id or seat" />
      </label>
      <SideSelect value={filter.side} onChange={(side) => onFilter({ ...filter, side })} any="any" />
      <label>
        peer <input type="text" size={16} value={filter.peer} onChange={(event) => onFilter({ ...filter, peer: event.target.value })} placeholder="a part of its name" />
      </label>
      <label>
        type{' '}
        <select
          title="Each store names its own kinds, listed under its name: spex's “sent” is a line of a message sent to the session"
          value={filter.type === null ? '' : liveTypeValue(filter.type)} onChange={(event) => onFilter({ ...filter, type: parseLiveType(event.target.value) })}>
          <option value="">any</option>
          {filter.type !== null && filter.type.store === null && <option value={filter.type.kind}>{filter.type.kind} (any store)</option>}
          {kinds.map(({ store, kinds: words }) => (
            <optgroup key={store} label={kindNamed(store)?.name ?? store}>
              {words.map((kind) => (
                <option key={kind} value={liveTypeValue({ store, kind })}>
                  {kind}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      {/* In the words of a session's own filter: one word for both sides' refusals, said whole on hover. */}
      <label className="check" title={REFUSED_ONLY_TITLE}>
        <input type="checkbox" checked={filter.refused} onChange={(event) => onFilter({ ...filter, refused: event.target.checked })} /> refused only
      </label>
      <label className="check">
        <input type="checkbox" checked={filter.degraded} onChange={(event) => onFilter({ ...filter, degraded: event.target.checked })} /> degraded evidence only
      </label>
    </form>
  );
});
