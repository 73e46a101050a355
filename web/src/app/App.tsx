import { useMemo, useState } from 'react';
import { SacRoomView, SacRoomsView, SacSeatView } from '../sac/SacViews.tsx';
import { SpexSessionView } from '../spex/SpexSessionView.tsx';
import { KeyHelp } from '../keyboard/KeyHelp.tsx';
import { useKeys } from '../keyboard/useKeys.ts';
import { LiveView } from '../live/LiveView.tsx';
import { StatusBanners } from '../live/StatusBanners.tsx';
import { useRouter } from '../router/Router.tsx';
import { SearchView } from '../search/SearchView.tsx';
import { HomeView, ProjectView } from '../sessions/OverviewViews.tsx';
import { SessionView } from '../sessions/SessionView.tsx';
import { Sidebar, type SidebarFilter } from '../sessions/Sidebar.tsx';
import { buildTree, flattenSessions } from '../sessions/sessionTree.ts';
import { useSessions } from '../sessions/useSessions.ts';
import { useSettings } from '../settings/Settings.tsx';
import { TopBar } from './TopBar.tsx';

export function App() {
  const { route, navigate } = useRouter();
  const { data: sessions } = useSessions();
  const settings = useSettings();
  const [filter, setFilter] = useState<SidebarFilter>({ text: '', degradedOnly: false });
  const [showKeys, setShowKeys] = useState(false);
  const [sidebarOpen, setSidebarOpen] = useState(true);
  const order = useMemo(() => (sessions ? flattenSessions(buildTree(sessions.projects, filter.text, filter.degradedOnly)) : []), [sessions, filter]);

  const stepSession = (delta: number) => {
    if (order.length === 0) return;
    const current = order.indexOf(window.location.pathname);
    const next = current === -1 ? (delta > 0 ? 0 : order.length - 1) : Math.max(0, Math.min(order.length - 1, current + delta));
    navigate(order[next]!);
  };
  useKeys(
    {
      '/': () => navigate('/search'),
      l: () => navigate('/live'),
      '?': () => setShowKeys(true),
      ']': () => stepSession(1),
      '[': () => stepSession(-1),
      t: () => settings.setTimeZone(settings.timeZone === 'utc' ? 'local' : 'utc'),
      m: () => settings.setMonospace(!settings.monospace),
    },
    !showKeys,
  );

  return (
    <div className="app">
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
        {sidebarOpen && <Sidebar filter={filter} onFilter={setFilter} />}
        {route.view === 'home' && <HomeView />}
        {route.view === 'project' && <ProjectView cwd={route.cwd} />}
        {route.view === 'session' && <SessionView sessionId={route.sessionId} file={route.file} />}
        {route.view === 'search' && <SearchView query={route.query} />}
        {route.view === 'live' && <LiveView query={route.query} />}
        {route.view === 'sac-rooms' && <SacRoomsView source={route.source} />}
        {route.view === 'sac-room' && <SacRoomView source={route.source} room={route.room} entry={route.entry} />}
        {route.view === 'sac-seat' && <SacSeatView source={route.source} seat={route.seat} />}
        {route.view === 'spex-session' && <SpexSessionView key={`${route.source}/${route.sessionId}`} source={route.source} sessionId={route.sessionId} item={route.item} />}
        {route.view === 'not-found' && (
          <main className="view">
            <p className="notice">Nothing at {route.path}.</p>
          </main>
        )}
      </div>
      {showKeys && <KeyHelp onClose={() => setShowKeys(false)} />}
    </div>
  );
}
