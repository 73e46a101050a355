import type { SessionsResponse } from '../../../shared/wire/conversations.ts';
import { Link } from '../router/Router.tsx';
import { SourceViewLinks } from './SourceViewLinks.tsx';
import { conversationWord } from '../sessions/conversations.ts';
import { useSettings } from '../settings/Settings.tsx';
import { SettingsMenu } from '../settings/SettingsMenu.tsx';
import { countOf } from '../text/count.ts';

type Props = { sessions: SessionsResponse | undefined; sidebarOpen: boolean; onToggleSidebar(): void; onShowDegraded(): void; onShowKeys(): void };

export function TopBar({ sessions, sidebarOpen, onToggleSidebar, onShowDegraded, onShowKeys }: Props) {
  const { timeZone, setTimeZone, monospace, setMonospace } = useSettings();
  const total = sessions?.projects.reduce((sum, project) => sum + project.sessions.length, 0) ?? 0;
  const degraded = sessions?.degradedSessions ?? 0;
  return (
    <header className="topbar">
      <button type="button" className="sidebar-toggle" aria-expanded={sidebarOpen} aria-controls="sidebar" aria-label="Sessions list" title={sidebarOpen ? 'Hide the list of sessions' : 'Show the list of sessions'} onClick={onToggleSidebar}>
        ☰ Sessions
      </button>
      <Link to="/" className="brand">
        rec-dashboard
      </Link>
      <span className="record-dir" title={sessions === undefined ? undefined : `Read only: ${sessions.sources.map((source) => source.root).join(', ')}`}>
        {sessions === undefined ? '' : sessions.sources.length === 1 ? sessions.sources[0]!.root : `${sessions.sources.length} stores`}
      </span>
      <span className="topbar-counts">
        {countOf(total, conversationWord(sessions?.sources ?? []))}
        {' · '}
        <button type="button" className={`link-button${degraded > 0 ? ' degraded-count' : ''}`} onClick={onShowDegraded} title="Show only degraded sessions in the list">
          {degraded} degraded
        </button>
      </span>
      <span className="topbar-tools">
        <SourceViewLinks sources={sessions?.sources} />
        <Link to="/search" className="button" aria-label="Search all sessions (/)">
          Search
        </Link>
        <Link to="/live" className="button" aria-label="Live: every new item (l)">
          Live
        </Link>
        <Link to="/map" className="button" aria-label="Map: who talks to whom (g)">
          Map
        </Link>
        <span className="segmented" role="group" aria-label="Time zone for all times">
          <button type="button" aria-pressed={timeZone === 'utc'} onClick={() => setTimeZone('utc')}>
            UTC
          </button>
          <button type="button" aria-pressed={timeZone === 'local'} onClick={() => setTimeZone('local')}>
            Local
          </button>
        </span>
        <label className="check" title="Show texts in a monospace font">
          <input type="checkbox" checked={monospace} onChange={(event) => setMonospace(event.target.checked)} />
          monospace
        </label>
        <SettingsMenu />
        <button type="button" onClick={onShowKeys} aria-label="Keyboard shortcuts (?)" data-key-help>
          ?
        </button>
      </span>
    </header>
  );
}
