import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import { onReaderMoves } from '../app/readerMoves.ts';
import { Link, useRouter } from '../router/Router.tsx';
import { projectPath, sessionPath } from '../router/routes.ts';
import { sessionKey } from '../../../shared/sessionList.ts';
import { kindNamed, kindOf } from '../kinds/registry.ts';
import { conversationWord, openListedPath, pathOf } from './conversations.ts';
import { projectName, shortId } from './names.ts';
import { buildTree, countMoved, flattenSessions, flattenTree, keepOrder, membersOf, orderOf, rowKeyOf, rowShows, topRowsOf, type ListOrder, type SessionNode, type SidebarRow } from './sessionTree.ts';
import { useConversations } from './useConversations.ts';
import { useHold } from './useHold.ts';
import { countOf } from '../text/count.ts';
import { measureWithoutLayout } from '../conversation/measureWithoutLayout.ts';

export type SidebarFilter = { text: string; degradedOnly: boolean };

// A record may hold 10,000 sessions: only the rows in view are in the DOM. A row is a project's
// heading or a top-level session: a conversation with its chain children, or one Claude Code
// session's conversations in several stores under its head (sessionTree.ts); the rows in view are
// still grouped in their project's section, so the sidebar reads the same as a full list.

const PROJECT_HEIGHT = 52;
const SESSION_HEIGHT = 66;

/** `order`: where the sidebar puts how to read the order it shows (for `[` and `]`), while it is shown. */
/** `covering`: the list, opened, covers the page (a phone's), to be picked from. */
export function Sidebar({ filter, onFilter, order, covering = false }: { filter: SidebarFilter; onFilter(filter: SidebarFilter): void; order?: RefObject<(() => string[]) | null>; covering?: boolean }) {
  // Every write told changes the list, and a store being indexed has it refetched whole: the
  // sidebar takes each new list as a transition, so that it never holds back what is urgent (a
  // live row, a key, a click) while it regroups a large list.
  const { data: latest, error } = useConversations();
  const data = useDeferredValue(latest);
  const { route } = useRouter();
  const fresh = useMemo(() => (data ? buildTree(data.projects, filter.text, filter.degradedOnly) : []), [data, filter]);
  // While the pointer is over the list, the keyboard's focus is in its rows, or the reader has
  // moved the list themselves (until another session is opened), its order is kept: a live write
  // does not move the row the reader is about to click or press Enter on (nor take out of the
  // page, with its focus, the row focused), nor change the rows a reader scrolled to under them.
  // The list re-sorts when all have let go, or when asked to.
  const listRef = useRef<HTMLDivElement>(null);
  const { kept, hold, retake, pointer, focus } = useHold<ListOrder, 'reader' | 'covering'>(() => orderOf(fresh), listRef);
  // Covering the page on a phone, the list is there to be picked from, and a tap has no hover
  // before it to hold the list: a row re-sorted between the reader's aim and the tap opened
  // another session. So the list holds its order from its first rows until it closes.
  const hasRows = data !== undefined;
  useEffect(() => {
    hold('covering', covering && hasRows);
    return () => hold('covering', false);
  }, [covering, hasRows, hold]);
  const tree = useMemo(() => (kept === null ? fresh : keepOrder(fresh, kept)), [fresh, kept]);
  const moved = useMemo(() => (kept === null ? 0 : countMoved(topRowsOf(tree), topRowsOf(fresh))), [kept, tree, fresh]);
  const rows = useMemo(() => flattenTree(tree), [tree]);
  // Made when a key asks: not for every list a store's indexing sends.
  useEffect(() => {
    if (order === undefined) return undefined;
    order.current = () => flattenSessions(tree);
    return () => {
      order.current = null;
    };
  }, [order, tree]);
  const selectedSession = openListedPath(route);
  const selectedProject = route.view === 'project' ? route.cwd : undefined;
  const total = data?.projects.reduce((sum, project) => sum + project.sessions.length, 0) ?? 0;

  // The open session's row is brought into the list's view when a session is opened (a link, a
  // key, Back, a reload), and kept there as live writes re-sort the list until the reader moves
  // the list themselves: brought into view once, a session opened by its address was off the
  // list's view in half the pages a moment later, the demo's writes having moved it.
  const movedByReader = useRef(false);
  const followedFor = useRef<string | null>(null);
  if (followedFor.current !== selectedSession) {
    followedFor.current = selectedSession;
    movedByReader.current = false;
  }
  const followed = useMemo(() => (selectedSession === null ? -1 : rows.findIndex((row) => row.kind === 'session' && rowShows(row.node, selectedSession))), [rows, selectedSession]);
  // Made again only with the rows: the virtualizer places every row again whenever its key
  // function is another, which a render for a new list not yet taken (deferred) need not do.
  const estimateSize = useCallback((index: number) => (rows[index]?.kind === 'project' ? PROJECT_HEIGHT : SESSION_HEIGHT * (1 + countNested(rows[index]))), [rows]);
  const getItemKey = useCallback((index: number) => rowKey(rows[index], index), [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listRef.current,
    estimateSize,
    getItemKey,
    measureElement: measureWithoutLayout,
    overscan: 6,
    // While the list follows the open row, the follow alone moves it (below): the virtualizer's
    // own move as a row above the view is measured put the open row a few pixels off for a frame.
    ...(followed !== -1 && !movedByReader.current ? { shouldAdjustScrollPositionOnItemSizeChange: neverAdjust } : {}),
  });

  const shown = virtualizer.getVirtualItems();
  // Where the virtualizer counts the open row, as of this render (its measurements are made).
  const followedRow = followed === -1 ? undefined : virtualizer.measurementsCache[followed];
  // Before the paint, whenever the open row's place or the view's height changes: a re-sort, or a
  // row measured taller or shorter than it was counted (each row is placed where the virtualizer
  // counts it), moves the list to it before it is drawn out of view. Not for a scroll alone: the
  // browser's own (to a link focused, a word found in the page) is the reader's.
  // Where the row stood in the view, it stays: the list moves under it by as much as it moved, so
  // the rows around it change and it does not. (Brought to the view's nearer edge each time, it
  // swapped between the top and the foot as writes moved it up and down the list.) Where the list
  // cannot move that far, it goes as far as it can: the row, wholly in the view before, still is.
  // Where the row did not stand wholly in the view, it is brought to the nearer edge. Its place is
  // the one it was given here: nothing else moves the list while it follows (the virtualizer does
  // not, above), but for the reader, who then has it.
  /** `link`: whether `offset` is the open link's, or the row's top's (its link not drawn then). */
  const stood = useRef<{ session: string; offset: number; link: boolean } | null>(null);
  // Once the open row is drawn, its link is kept rather than the whole row, which is all the list knows of it before.
  const followedDrawn = followed !== -1 && shown.some((item) => item.index === followed);
  const followedKey = followed === -1 ? null : getItemKey(followed);
  const counted = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const list = listRef.current;
    if (followed === -1 || movedByReader.current || followedRow === undefined || selectedSession === null || list === null) return;
    // The list as drawn (its foot's padding included): the virtualizer's place is told by a scroll event, after the paint.
    const scroll = list.scrollTop;
    const view = list.clientHeight;
    // What is kept is the open page's own link, where it is drawn in its row: a row holds a
    // session's conversations in several stores, or a chain, and one above it may grow.
    const open = openLinkIn(list, followed);
    const start = followedRow.start + (open?.within ?? 0);
    const size = open?.size ?? followedRow.size;
    const end = start + size;
    const was = stood.current?.session === selectedSession ? stood.current : null;
    // The row's place kept before its link was drawn is the link's, that far down the row.
    const offset = was === null ? null : was.link || open === null ? was.offset : was.offset + open.within;
    const wholly = offset !== null && offset >= 0 && offset + size <= view;
    // Else where the list is, if the row is wholly in its view; its foot at the view's foot when
    // below it, or taller than it (wherever it was: a row taller than the view swapped edges as
    // it moved up and down); its top at the top when above it. Reckoned from the list as drawn:
    // the virtualizer's place lags a scroll made here until the browser tells it.
    const nearer = size > view || end > scroll + view ? end - view : start < scroll ? start : scroll;
    const place = Math.max(0, Math.min(wholly ? start - offset : nearer, list.scrollHeight - view));
    stood.current = { session: selectedSession, offset: start - place, link: open !== null };
    if (Math.abs(place - scroll) >= 1) virtualizer.scrollToOffset(place);
    // The list's height too: a place past its foot as drawn waits for it to grow.
    // And each new list: a conversation above the open link in its row may have grown with it,
    // moving the link in this commit, before the list measures the row again.
  }, [followed, followedRow?.start, followedRow?.end, virtualizer.scrollRect?.height, counted, virtualizer, selectedSession, followedDrawn, rows]);
  // A row's conversations are laid out in its flow: one above the open link that grows moves the
  // link at once, while the list learns the row's new height a render later. Kept where it stood
  // then too, before the paint, as the row's size is told.
  useEffect(() => {
    const list = listRef.current;
    const row = followedDrawn ? list?.querySelector<HTMLElement>(`.sidebar-row[data-index="${followed}"]`) : null;
    const inner = list?.querySelector<HTMLElement>('.sidebar-inner');
    if (list == null || row == null || inner == null) return undefined;
    const observer = new ResizeObserver(() => {
      const was = stood.current;
      const link = row.querySelector<HTMLElement>('[aria-current="page"]');
      if (movedByReader.current || was === null || was.session !== selectedSession || link === null) return;
      const box = link.getBoundingClientRect();
      const view = list.clientHeight;
      if (box.height > view) return;
      // Where the list places its rows (a note above them is not in it), less how far it is scrolled.
      const offset = box.top - inner.getBoundingClientRect().top - list.scrollTop;
      // Where it stood (the row's place, kept before its link was drawn, is the link's that far down
      // the row), or the nearer edge where that is not wholly in the view.
      const stoodAt = was.link ? was.offset : was.offset + (box.top - row.getBoundingClientRect().top);
      const wanted = Math.min(Math.max(stoodAt, 0), view - box.height);
      if (Math.abs(offset - wanted) >= 1) list.scrollTop += offset - wanted;
      stood.current = { session: was.session, offset: wanted, link: true };
    });
    observer.observe(row);
    return () => observer.disconnect();
    // The row's key too: a row made again (a session's conversation joined it) is another element.
  }, [followed, followedDrawn, followedKey, selectedSession]);
  // Another session opened: the list is its to follow, in the order live writes give it.
  useEffect(() => hold('reader', false), [selectedSession]);
  useEffect(() => {
    const list = listRef.current;
    if (list === null) return undefined;
    const moved = () => {
      movedByReader.current = true;
      // Where the open row stood is the reader's now: Back to it later brings it into view afresh.
      stood.current = null;
      hold('reader', true);
    };
    // Tab into the list is the reader going through it too: the browser brings the link focused into view.
    list.addEventListener('focusin', moved);
    const stop = onReaderMoves(list, moved);
    return () => {
      list.removeEventListener('focusin', moved);
      stop();
    };
  }, []);

  const groups = groupByProject(shown, rows);

  return (
    // Where one kind of store is read, a badge naming it on every row says nothing: it is hidden (app.css).
    <nav className={new Set(data?.sources.map((source) => source.kind)).size > 1 ? 'sidebar' : 'sidebar one-kind'} id="sidebar" aria-label="Projects and sessions" {...pointer}>
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
        <button type="button" className="resort" onClick={retake} title="The list keeps its order while the pointer is over it or the focus is in it, on a phone while it is open, and once you have moved it, until another session is opened">
          {countOf(moved, 'row')} moved: re-sort
        </button>
      )}
      <div
        className="sidebar-list"
        ref={listRef}
        {...focus}
      >
        {error !== null && <p className="sidebar-note error">Could not load sessions: {error.message}</p>}
        {data !== undefined && total === 0 && <p className="sidebar-note">No {conversationWord(data.sources)}s in {data.sources.length === 1 ? kindNamed(data.sources[0]!.kind)?.name : 'the stores read'} yet.</p>}
        {data !== undefined && total > 0 && tree.length === 0 && <p className="sidebar-note">No session matches the filter.</p>}
        <div className="sidebar-inner" style={{ height: virtualizer.getTotalSize() }}>
          {groups.map(({ project, items }) => (
            <section
              className="project"
              // By its project alone (a project's rows are one run): a write that moves its
              // project or session up moves the rows shown, rather than making and measuring them again.
              key={project.cwd ?? '\u0000none'}
              aria-label={`Project ${project.cwd ?? 'with no directory'}`}
              // As tall as its rows, which are placed in it, not laid out in its flow.
              style={{ transform: `translateY(${items[0]!.start}px)`, height: items.at(-1)!.end - items[0]!.start }}
            >
              {items[0]!.row.kind === 'project' && (
                <div className="project-head sidebar-row" data-index={items[0]!.index} ref={virtualizer.measureElement}>
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
                {items.map(({ index, start, row }) =>
                  row.kind === 'session' ? (
                    <li key={rowKeyOf(row.node)} className="sidebar-row" data-index={index} ref={virtualizer.measureElement} style={{ transform: `translateY(${start - items[0]!.start}px)` }}>
                      <TopRow node={row.node} selected={selectedSession} />
                    </li>
                  ) : null,
                )}
              </ul>
            </section>
          ))}
        </div>
        {data?.sources.map(
          (store) =>
            store.strays.length > 0 && (
              <p key={store.id} className="sidebar-note" title={store.strays.join('\n')}>
                {countOf(store.strays.length, 'stray file')} in {kindNamed(store.kind)?.storeWords ?? 'the store'} {store.root}: not in a conversation's folder, so never read as one.
              </p>
            ),
        )}
      </div>
    </nav>
  );
}

/**
 * A top-level row: a conversation with its chain children, or one Claude Code session's
 * conversations in several stores (sessionTree.ts), each as its store shows it, under the
 * session's head, which opens its page across the stores.
 */
function TopRow({ node, selected }: { node: SessionNode; selected: string | null }) {
  if (node.joined === null) return <Conversation node={node} selected={selected} />;
  const members = membersOf(node);
  const stores = new Set(members.map((member) => member.session.source.id)).size;
  const path = sessionPath(node.joined.session);
  const words = stores > 1 ? `one session in ${countOf(stores, 'store')}` : `one session, ${countOf(members.length, 'conversation')}`;
  return (
    <div className="joined-session">
      <Link
        to={path}
        className={`session-head${path === selected ? ' selected' : ''}`}
        aria-current={path === selected ? 'page' : undefined}
        aria-label={`Session ${node.joined.session} across ${stores > 1 ? countOf(stores, 'store') : countOf(members.length, 'conversation')}`}
        title={`Session ${node.joined.session}: what it sent and received in every store that holds it, on one page. The stores state its full id; nothing else joins them.`}
      >
        <code className="sid">{shortId(node.joined.session)}</code>
        <span>{words}</span>
      </Link>
      <ul className="session-list">
        {members.map((member) => (
          <li key={sessionKey(member.session)}>
            <Conversation node={member} selected={selected} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A conversation with its chain children, and those listed in another project. */
function Conversation({ node, selected }: { node: SessionNode; selected: string | null }) {
  return (
    <>
      <ListRow node={node} selected={selected} />
      {node.children.length > 0 && (
        <ul className="session-list">
          {node.children.map((child) => (
            <li key={sessionKey(child.session)}>
              <Conversation node={child} selected={selected} />
            </li>
          ))}
        </ul>
      )}
      <Elsewhere node={node} />
    </>
  );
}

/**
 * A conversation's row, as its kind shows it. The tree is built again for each new list, but a
 * conversation the list did not change keeps its summary (the query shares what is equal), so its
 * row is not drawn again.
 */
const ListRow = memo(
  function ListRow({ node, selected }: { node: SessionNode; selected: string | null }) {
    const { ListRow: Row } = kindOf(node.session);
    return <Row conversation={node.session} depth={node.depth} selected={pathOf(node.session) === selected} />;
  },
  (before, after) => before.node.session === after.node.session && before.node.depth === after.node.depth && (pathOf(before.node.session) === before.selected) === (pathOf(after.node.session) === after.selected),
);

/** Children whose project is another: listed there, and here as links that name it. */
function Elsewhere({ node }: { node: SessionNode }) {
  if (node.elsewhere.length === 0) return null;
  return (
    <ul className="session-list chain-elsewhere">
      {node.elsewhere.map((child) => {
        const Row = kindOf(child).ElsewhereRow;
        return <li key={`${child.source.id}/${child.id}`}>{Row !== undefined && <Row conversation={child} depth={node.depth + 1} />}</li>;
      })}
    </ul>
  );
}

type Shown = { index: number; start: number; end: number; row: SidebarRow };

/** Rows in view, in runs that share a project, so each run sits in its project's section. */
function groupByProject(items: VirtualItem[], rows: SidebarRow[]): { project: SidebarRow['project']; items: Shown[] }[] {
  const groups: { project: SidebarRow['project']; items: Shown[] }[] = [];
  for (const item of items) {
    const row = rows[item.index];
    if (row === undefined) continue;
    const last = groups.at(-1);
    const shown = { index: item.index, start: item.start, end: item.end, row };
    if (last !== undefined && last.project === row.project && row.kind === 'session') last.items.push(shown);
    else groups.push({ project: row.project, items: [shown] });
  }
  return groups;
}

function rowKey(row: SidebarRow | undefined, index: number): string {
  if (row === undefined) return `#${index}`;
  // A session is listed under each project its stores name: its row's key is its project's too.
  return row.kind === 'project' ? `project:${row.project.cwd ?? '\u0000none'}` : `${row.project.cwd ?? '\u0000none'}\u0000${rowKeyOf(row.node)}`;
}

function countNested(row: SidebarRow | undefined): number {
  if (row === undefined || row.kind === 'project') return 0;
  // A session's head is about half a row.
  let count = row.node.joined === null ? 0 : row.node.joined.others.length + 0.5;
  const walk = (node: SessionNode) => {
    count += node.elsewhere.length / 2;
    for (const child of node.children) {
      count++;
      walk(child);
    }
  };
  membersOf(row.node).forEach(walk);
  return count;
}

/** The open page's link in the row drawn at `index`, if it is drawn: how far down the row it is, and its height. */
function openLinkIn(list: HTMLElement, index: number): { within: number; size: number } | null {
  const row = list.querySelector<HTMLElement>(`.sidebar-row[data-index="${index}"]`);
  const link = row?.querySelector<HTMLElement>('[aria-current="page"]');
  if (row == null || link == null) return null;
  const rowBox = row.getBoundingClientRect();
  const box = link.getBoundingClientRect();
  return { within: box.top - rowBox.top, size: box.height };
}

/** The virtualizer's choice whether to move the list as a row is measured: never, while the open row is followed. */
function neverAdjust(): boolean {
  return false;
}
