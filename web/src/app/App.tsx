import { Suspense, memo, useEffect, useRef, useState, useSyncExternalStore, type MouseEvent } from 'react';
import { KeyHelp } from '../keyboard/KeyHelp.tsx';
import { useKeys } from '../keyboard/useKeys.ts';
import { kindNamed } from '../kinds/registry.ts';
import { NotFoundOrMoved, movedRoute } from '../router/legacyRoutes.tsx';
import { useRouter } from '../router/Router.tsx';
import type { Route } from '../router/routes.ts';
import { HomeView, ProjectView } from '../sessions/OverviewViews.tsx';
import { Sidebar, type SidebarFilter } from '../sessions/Sidebar.tsx';
import { openListedPath } from '../sessions/conversations.ts';
import { buildTree, flattenSessions } from '../sessions/sessionTree.ts';
import { useConversations } from '../sessions/useConversations.ts';
import { useSettings } from '../settings/Settings.tsx';
import { StatusBanners } from './StatusBanners.tsx';
import { TopBar } from './TopBar.tsx';
import { viewCode } from '../router/viewCode.ts';
import { focusView } from './focusView.ts';

// The shell: the top bar, the stores' banners, the sidebar, and the view the address names. It
// knows no kind of store: a conversation's page and a kind's own views come from the registry
// (kinds/registry.ts), each loaded when first shown.

/** Steps between conversations this close together walk the order the first of them found. */
const STEPS_IN_A_ROW_MS = 30_000;

/** Narrower than this, the sidebar starts closed: open, it would leave the view too little room. */
const SIDEBAR_FROM = '(min-width: 1000px)';

const SearchView = viewCode(() => import('../search/SearchView.tsx'));
const LiveView = viewCode(() => import('../live/LiveView.tsx'));
const SessionPage = viewCode(() => import('../session/SessionPage.tsx'));
const MapView = viewCode(() => import('../map/MapView.tsx'));

export function App() {
  const { route, path, navigate } = useRouter();
  const { data: sessions } = useConversations();
  const settings = useSettings();
  const [filter, setFilter] = useState<SidebarFilter>({ text: '', degradedOnly: false });
  const [showKeys, setShowKeys] = useState(false);
  const [sidebarOpen, setSidebarOpen] = useState(() => window.matchMedia(SIDEBAR_FROM).matches);
  const phone = useSyncExternalStore(watchPhone, () => window.matchMedia(PHONE).matches);
  // Below SIDEBAR_FROM the list is over the page: a page picked (a new path, not a filter of the
  // address) closes it, as a phone's menu does, so the page has the width it needs.
  const pathname = pathnameOf(path);
  const [listShownFor, setListShownFor] = useState(pathname);
  if (listShownFor !== pathname) {
    setListShownFor(pathname);
    if (sidebarOpen && !window.matchMedia(SIDEBAR_FROM).matches) setSidebarOpen(false);
  }
  // A page picked in the sidebar, or opened by a key (`]`, `g`, `l`), takes the focus, as a link
  // to another page would: left on its row, it stayed in a list that live writes re-sort, and the
  // next Tab went on from wherever that row had moved to (or, the list closed on a phone, from the
  // top of the page); left on the page's body, the next Tab began at the top bar. The pick is kept
  // by its path and read at the changes of page that follow, and dropped at the first that finds
  // the address elsewhere: a pick that opened no page here (a click with a key held opens a tab;
  // the page already open) leaves nothing to act on later. A view whose code is still loading
  // shows "loading…" while the page before it is kept hidden: the focus waits for the new view
  // alone (for at most two seconds of frames). A page shown on the way is not the one picked: an
  // address written just before the pick (`j` writes the item selected into it) may be shown just
  // after it, and the pick waits past it for its own page, as long as the address is still the
  // one picked.
  const focusOnArrival = useRef<string | null>(null);
  useEffect(() => {
    const picked = focusOnArrival.current;
    if (picked === null) return;
    if (picked !== pathname) {
      if (window.location.pathname !== picked) focusOnArrival.current = null;
      return;
    }
    focusOnArrival.current = null;
    let frames = 0;
    let frame = 0;
    const whenShown = () => {
      const views = document.querySelectorAll('main');
      if ((views.length === 1 && !views[0]!.classList.contains('view-loading')) || ++frames > 120) focusView();
      else frame = requestAnimationFrame(whenShown);
    };
    frame = requestAnimationFrame(whenShown);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);

  // The sidebar's order, made when a key asks for it: made for every new list, it was a second
  // tree of every conversation built at once for each write told while a store was indexed.
  // Steps in a row walk one order, as the list keeps its order under the pointer: a live write
  // that re-sorts the list between `]` and `[` does not make `[` land on another conversation.
  const stepping = useRef<{ order: string[]; at: number } | null>(null);
  /** The pages the sidebar lists, in the order it shows them, while it is shown. */
  const sidebarOrder = useRef<(() => string[]) | null>(null);
  // The conversation open, whether or not its address names one of its items (j and k put the
  // item selected there: read as a path, `]` found no place in the list and went to its top).
  const stepConversation = (delta: number) => {
    const now = performance.now();
    const kept = stepping.current;
    const open = openListedPath(route);
    // The order the sidebar shows (held while the reader is on it), else the list's own.
    const shown = sidebarOrder.current?.();
    const order =
      kept !== null && now - kept.at < STEPS_IN_A_ROW_MS && open !== null && kept.order.includes(open)
        ? kept.order
        : (shown ?? (sessions ? flattenSessions(buildTree(sessions.projects, filter.text, filter.degradedOnly)) : []));
    stepping.current = { order, at: now };
    if (order.length === 0) return;
    const current = open === null ? -1 : order.indexOf(open);
    const next = current === -1 ? (delta > 0 ? 0 : order.length - 1) : Math.max(0, Math.min(order.length - 1, current + delta));
    // Past either end of the list: the conversation open stays as it is, its item and filter too.
    if (next === current) return;
    openByKey(order[next]!);
  };
  /** A view a key opens takes the focus, as one picked in the sidebar does: Tab goes on in it, not from the top bar. */
  const openByKey = (to: string) => {
    focusOnArrival.current = pathnameOf(to);
    navigate(to);
  };
  /**
   * A view's own key on that view keeps what the view holds (a search's words and filters, the live
   * view's or the map's filters) and gives it the focus: opened afresh, it dropped them without a
   * word. `/` gives the search's box the focus with its words selected: typed over, they are a new
   * search; kept, the search they found.
   */
  const onViewOrOpen = (view: string, focus: () => void, open: () => void) => (pathname === view ? focus() : open());
  const selectSearchWords = () => {
    const box = document.querySelector<HTMLInputElement>('main input[type="search"]');
    box?.focus();
    box?.select();
  };
  useKeys(
    {
      '/': () => onViewOrOpen('/search', selectSearchWords, () => navigate('/search')),
      l: () => onViewOrOpen('/live', () => void focusView(), () => openByKey('/live')),
      g: () => onViewOrOpen('/map', () => void focusView(), () => openByKey('/map')),
      '?': () => setShowKeys(true),
      ']': () => stepConversation(1),
      '[': () => stepConversation(-1),
      t: () => settings.setTimeZone(settings.timeZone === 'utc' ? 'local' : 'utc'),
      m: () => settings.setMonospace(!settings.monospace),
    },
  );

  return (
    <div className="app">
      {/* The first stop of the keyboard: past the top bar and the sidebar's list, to the view. */}
      <a className="skip-link" href="#main" onClick={skipToView}>
        Skip to the view
      </a>
      <TopBar
        sessions={sessions}
        sidebarOpen={sidebarOpen}
        onToggleSidebar={() => setSidebarOpen((open) => !open)}
        onShowDegraded={() => {
          setFilter({ ...filter, degradedOnly: true });
          setSidebarOpen(true);
        }}
        onShowKeys={() => setShowKeys(true)}
      />
      <StatusBanners sessions={sessions} />
      <div className={`layout${sidebarOpen ? '' : ' sidebar-closed'}`}>
        {sidebarOpen && (
          <div
            className="sidebar-box"
            onClickCapture={(event) => {
              const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
              const opensHere = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
              focusOnArrival.current = link !== null && opensHere ? pathnameOf(link.getAttribute('href')!) : null;
            }}
          >
            <ShownSidebar filter={filter} onFilter={setFilter} order={sidebarOrder} covering={phone} />
          </div>
        )}
        {/* On a phone the open list covers the page (app.css): what is under it takes no key, Tab or click. */}
        <div className="view-box" inert={sidebarOpen && phone}>
          <Suspense fallback={<Loading />}>
            <ShownRoute route={route} path={path} />
          </Suspense>
        </div>
      </div>
      {showKeys && <KeyHelp onClose={() => setShowKeys(false)} />}
    </div>
  );
}

/** A phone's width, where the open sessions list covers the page (app.css has the same). */
const PHONE = '(max-width: 640px)';
function watchPhone(changed: () => void): () => void {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
}

/** Moves the focus into the view (every view is a `main`), as the address would not: a view has no fixed id. */
function skipToView(event: MouseEvent<HTMLAnchorElement>): void {
  if (focusView()) event.preventDefault();
}

/** An address's path alone: what a page is, without its query. */
function pathnameOf(address: string): string {
  return new URL(address, window.location.origin).pathname;
}

// The sidebar and the view keep the list themselves: a new list (one per write told) draws them
// again from there, not from here as well.
const ShownSidebar = memo(Sidebar);
const ShownRoute = memo(RouteView);

/**
 * Loads the code of the view an address opens, for main.tsx to await before the first render
 * (router/viewCode.ts); nothing for a view that is in the main chunk.
 */
export function loadViewCode(route: Route): Promise<unknown> {
  const views = { search: SearchView, live: LiveView, session: SessionPage, map: MapView } as const;
  switch (route.view) {
    case 'search':
    case 'live':
    case 'session':
    case 'map':
      return views[route.view].load();
    case 'conversation':
      return kindNamed(route.kind)?.ConversationView.load() ?? Promise.resolve();
    case 'source-view': {
      const views = kindNamed(route.kind)?.views ?? {};
      return Object.hasOwn(views, route.name) ? views[route.name]!.View.load() : Promise.resolve();
    }
    case 'not-found': {
      const moved = movedRoute(route.path);
      return moved === null ? Promise.resolve() : loadViewCode(moved);
    }
    default:
      return Promise.resolve();
  }
}

function RouteView({ route, path }: { route: Route; path: string }) {
  switch (route.view) {
    case 'home':
      return <HomeView />;
    case 'project':
      return <ProjectView cwd={route.cwd} />;
    case 'search':
      return <SearchView query={route.query} />;
    case 'live':
      return <LiveView query={route.query} />;
    case 'session':
      return <SessionPage key={route.session} session={route.session} item={route.item} query={route.query} />;
    case 'map':
      return <MapView query={route.query} />;
    case 'conversation': {
      const View = kindNamed(route.kind)?.ConversationView;
      if (View === undefined) return <UnknownStore source={route.source} />;
      return <View key={`${route.source}/${route.id}`} source={route.source} id={route.id} item={route.item} query={route.query} />;
    }
    case 'source-view': {
      const views = kindNamed(route.kind)?.views ?? {};
      const View = Object.hasOwn(views, route.name) ? views[route.name]!.View : undefined;
      if (View === undefined) return <NotFoundOrMoved path={path} />;
      return <View key={`${route.source}/${route.subject ?? ''}`} source={route.source} subject={route.subject} item={route.item} query={route.query} />;
    }
    case 'not-found':
      return <NotFoundOrMoved path={path} />;
  }
}

function UnknownStore({ source }: { source: string }) {
  return (
    <main className="view">
      <p className="notice warn">
        The store <code>{source}</code> is of a kind this page does not know.
      </p>
    </main>
  );
}

function Loading() {
  return (
    <main className="view view-loading">
      <p className="muted">loading…</p>
    </main>
  );
}
