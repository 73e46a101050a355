import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useRouter } from '../router/Router.tsx';
import { projectPath, sessionPath } from '../router/routes.ts';
import { sessionKey } from '../../../shared/sessionList.ts';
import { conversationPath, openConversationPath } from './conversations.ts';
import { SessionRow } from './SessionRow.tsx';
import { buildTree, countMoved, flattenSessions, flattenTree, keepOrder, orderOf, projectName, shortId, type ListOrder, type SessionNode, type SidebarRow } from './sessionTree.ts';
import { recordSourceOf, useSessions } from './useSessions.ts';
import { countOf } from '../text/count.ts';

export type SidebarFilter = { text: string; degradedOnly: boolean };

// A record may hold 10,000 sessions: only the rows in view are in the DOM. A row is a project's
// heading or a top-level session with its chain children; the rows in view are still grouped in
// their project's section, so the sidebar reads the same as a full list.

const PROJECT_HEIGHT = 52;
const SESSION_HEIGHT = 66;

export function Sidebar({ filter, onFilter }: { filter: SidebarFilter; onFilter(filter: SidebarFilter): void }) {
  const { data, error } = useSessions();
  const strays = data === undefined ? [] : (recordSourceOf(data)?.strays ?? []);
  const { route } = useRouter();
  const fresh = useMemo(() => (data ? buildTree(data.projects, filter.text, filter.degradedOnly) : []), [data, filter]);
  // While the pointer is over the list, its order is kept: a live write does not move the row the
  // reader is about to click. The list re-sorts when the pointer leaves, or when asked to.
  const [kept, setKept] = useState<ListOrder | null>(null);
  const tree = useMemo(() => (kept === null ? fresh : keepOrder(fresh, kept)), [fresh, kept]);
  const moved = useMemo(() => (kept === null ? 0 : countMoved(flattenSessions(tree), flattenSessions(fresh))), [kept, tree, fresh]);
  const rows = useMemo(() => flattenTree(tree), [tree]);
  const selectedSession = openConversationPath(route);
  const selectedProject = route.view === 'project' ? route.cwd : undefined;
  const total = data?.projects.reduce((sum, project) => sum + project.sessions.length, 0) ?? 0;

  const listRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listRef.current,
    estimateSize: (index) => (rows[index]?.kind === 'project' ? PROJECT_HEIGHT : SESSION_HEIGHT * (1 + countNested(rows[index]))),
    getItemKey: (index) => rowKey(rows[index], index),
    overscan: 6,
  });

  // Bring the open session into the list's view when it changes (a link, a key, a reload).
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    if (selectedSession === null || shownFor.current === selectedSession) return;
    const index = rows.findIndex((row) => row.kind === 'session' && containsSession(row.node, selectedSession));
    if (index === -1) return;
    shownFor.current = selectedSession;
    virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [rows, selectedSession, virtualizer]);

  const renderNode = (node: SessionNode) => (
    <li key={sessionKey(node.session)}>
      <SessionRow session={node.session} depth={node.depth} selected={conversationPath(node.session) === selectedSession} />
      {node.children.length > 0 && <ul className="session-list">{node.children.map(renderNode)}</ul>}
      <ChainElsewhere node={node} />
    </li>
  );

  const groups = groupByProject(virtualizer.getVirtualItems(), rows);

  return (
    <nav className="sidebar" id="sidebar" aria-label="Projects and sessions" onPointerEnter={() => setKept(orderOf(fresh))} onPointerLeave={() => setKept(null)}>
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
      {/* Over the list, not above it: a line added above would move every row down. */}
      {moved > 0 && (
        <button type="button" className="resort" onClick={() => setKept(orderOf(fresh))} title="The list keeps its order while the pointer is over it">
          {countOf(moved, 'session')} moved: re-sort
        </button>
      )}
      <div className="sidebar-list" ref={listRef}>
        {error !== null && <p className="sidebar-note error">Could not load sessions: {error.message}</p>}
        {data !== undefined && total === 0 && <p className="sidebar-note">No sessions in the record yet.</p>}
        {data !== undefined && total > 0 && tree.length === 0 && <p className="sidebar-note">No session matches the filter.</p>}
        <div className="sidebar-inner" style={{ height: virtualizer.getTotalSize() }}>
          {groups.map(({ project, items }) => (
            <section
              className="project"
              key={`${project.cwd ?? '\u0000none'}@${items[0]!.index}`}
              aria-label={`Project ${project.cwd ?? 'with no directory'}`}
              style={{ transform: `translateY(${items[0]!.start}px)` }}
            >
              {items[0]!.row.kind === 'project' && (
                <div className="project-head" data-index={items[0]!.index} ref={virtualizer.measureElement}>
                  <Link
                    to={projectPath(project.cwd)}
                    className={`project-name${selectedProject === project.cwd ? ' selected' : ''}`}
                    title={project.cwd ?? 'Sessions whose entries name no working directory'}
                  >
                    <span className="project-base">{projectName(project.cwd)}</span>
                    <span className="project-path">{project.cwd ?? ''}</span>
                  </Link>
                </div>
              )}
              <ul className="session-list">
                {items.map(({ index, row }) =>
                  row.kind === 'session' ? (
                    <li key={sessionKey(row.node.session)} data-index={index} ref={virtualizer.measureElement}>
                      <SessionRow session={row.node.session} depth={row.node.depth} selected={conversationPath(row.node.session) === selectedSession} />
                      {row.node.children.length > 0 && <ul className="session-list">{row.node.children.map(renderNode)}</ul>}
                      <ChainElsewhere node={row.node} />
                    </li>
                  ) : null,
                )}
              </ul>
            </section>
          ))}
        </div>
        {strays.length > 0 && (
          <p className="sidebar-note" title={strays.join('\n')}>
            {countOf(strays.length, 'stray file')} in the record directory: not in a session folder, so not entries.
          </p>
        )}
      </div>
    </nav>
  );
}

/** Chain children whose project is another: listed there, and here as links that name it. */
function ChainElsewhere({ node }: { node: SessionNode }) {
  if (node.elsewhere.length === 0) return null;
  return (
    <ul className="session-list chain-elsewhere">
      {node.elsewhere.map((child) => (
        <li key={child.sessionId}>
          <Link
            to={sessionPath(child.sessionId)}
            className="chain-ref"
            style={{ paddingLeft: `${0.6 + (node.depth + 1) * 1.1}rem` }}
            aria-label={`Chain child ${child.sessionId}, in project ${child.cwd ?? 'with no directory'}`}
            title={`${child.sessionId}: part ${String(child.chain?.part)} of a chain under this session, listed in project ${child.cwd ?? 'with no directory'}`}
          >
            <span className="chain-mark" aria-hidden="true">↳</span> <code className="sid">{shortId(child.sessionId)}</code>{' '}
            <span className="badge badge-chain">part {String(child.chain?.part)}</span> <span className="muted">in {projectName(child.cwd)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

type Shown = { index: number; start: number; row: SidebarRow };

/** Rows in view, in runs that share a project, so each run sits in its project's section. */
function groupByProject(items: VirtualItem[], rows: SidebarRow[]): { project: SidebarRow['project']; items: Shown[] }[] {
  const groups: { project: SidebarRow['project']; items: Shown[] }[] = [];
  for (const item of items) {
    const row = rows[item.index];
    if (row === undefined) continue;
    const last = groups.at(-1);
    if (last !== undefined && last.project === row.project && row.kind === 'session') last.items.push({ index: item.index, start: item.start, row });
    else groups.push({ project: row.project, items: [{ index: item.index, start: item.start, row }] });
  }
  return groups;
}

function rowKey(row: SidebarRow | undefined, index: number): string {
  if (row === undefined) return `#${index}`;
  return row.kind === 'project' ? `project:${row.project.cwd ?? '\u0000none'}` : `session:${sessionKey(row.node.session)}`;
}

function countNested(row: SidebarRow | undefined): number {
  if (row === undefined || row.kind === 'project') return 0;
  let count = 0;
  const walk = (node: SessionNode) => {
    count += node.elsewhere.length / 2;
    for (const child of node.children) {
      count++;
      walk(child);
    }
  };
  walk(row.node);
  return count;
}

function containsSession(node: SessionNode, path: string): boolean {
  return conversationPath(node.session) === path || node.children.some((child) => containsSession(child, path));
}
