import type { SessionsResponse } from '../../../shared/wire/conversations.ts';
import { Link } from '../router/Router.tsx';
import { SourceViewLinks } from './SourceViewLinks.tsx';
import { conversationWord } from '../sessions/conversations.ts';
import { ReadingPrefs, SettingsMenu } from '../settings/SettingsMenu.tsx';
import { countOf } from '../text/count.ts';

type Props = { sessions: SessionsResponse | undefined; sidebarOpen: boolean; onToggleSidebar(): void; onShowDegraded(): void; onShowKeys(): void };

export function TopBar({ sessions, sidebarOpen, onToggleSidebar, onShowDegraded, onShowKeys }: Props) {
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
        <ReadingPrefs className="not-phone" />
        <SettingsMenu />
        <button type="button" onClick={onShowKeys} aria-label="Keyboard shortcuts (?)" data-key-help>
          ?
        </button>
      </span>
    </header>
  );
}
