import { useMemo } from 'react';
import { Link, useRouter } from '../router/Router.tsx';
import { projectPath } from '../router/routes.ts';
import { SessionRow } from './SessionRow.tsx';
import { buildTree, projectName, type SessionNode } from './sessionTree.ts';
import { useSessions } from './useSessions.ts';

export type SidebarFilter = { text: string; degradedOnly: boolean };

export function Sidebar({ filter, onFilter }: { filter: SidebarFilter; onFilter(filter: SidebarFilter): void }) {
  const { data, error } = useSessions();
  const { route } = useRouter();
  const tree = useMemo(() => (data ? buildTree(data.projects, filter.text, filter.degradedOnly) : []), [data, filter]);
  const selectedSession = route.view === 'session' ? route.sessionId : null;
  const selectedProject = route.view === 'project' ? route.cwd : undefined;
  const total = data?.projects.reduce((sum, project) => sum + project.sessions.length, 0) ?? 0;

  const renderNode = (node: SessionNode) => (
    <li key={node.session.sessionId}>
      <SessionRow session={node.session} depth={node.depth} selected={node.session.sessionId === selectedSession} />
      {node.children.length > 0 && <ul className="session-list">{node.children.map(renderNode)}</ul>}
    </li>
  );

  return (
    <nav className="sidebar" aria-label="Projects and sessions">
      <div className="sidebar-tools">
        <input
          type="search"
          className="sidebar-filter"
          aria-label="Filter sessions"
          placeholder="Filter: id, directory, chain brief"
          value={filter.text}
          onChange={(event) => onFilter({ ...filter, text: event.target.value })}
        />
        <label className="check">
          <input type="checkbox" checked={filter.degradedOnly} onChange={(event) => onFilter({ ...filter, degradedOnly: event.target.checked })} />
          degraded only
        </label>
      </div>
      <div className="sidebar-list">
        {error !== null && <p className="sidebar-note error">Could not load sessions: {error.message}</p>}
        {data !== undefined && total === 0 && <p className="sidebar-note">No sessions in the record yet.</p>}
        {data !== undefined && total > 0 && tree.length === 0 && <p className="sidebar-note">No session matches the filter.</p>}
        {tree.map((project) => (
          <section className="project" key={project.cwd ?? '\u0000none'} aria-label={`Project ${project.cwd ?? 'with no directory'}`}>
            <Link
              to={projectPath(project.cwd)}
              className={`project-name${selectedProject === project.cwd ? ' selected' : ''}`}
              title={project.cwd ?? 'Sessions whose entries name no working directory'}
            >
              <span className="project-base">{projectName(project.cwd)}</span>
              <span className="project-path">{project.cwd ?? ''}</span>
            </Link>
            <ul className="session-list">{project.sessions.map(renderNode)}</ul>
          </section>
        ))}
        {data !== undefined && data.strays.length > 0 && (
          <p className="sidebar-note" title={data.strays.join('\n')}>
            {data.strays.length} stray {data.strays.length === 1 ? 'file' : 'files'} in the record directory: not in a session folder, so not entries.
          </p>
        )}
      </div>
    </nav>
  );
}
