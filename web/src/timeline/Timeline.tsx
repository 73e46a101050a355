import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { useSettings } from '../settings/Settings.tsx';
import type { SessionItemWire, SessionResponse } from '../../../shared/wire/record.ts';
import { useKeys } from '../keyboard/useKeys.ts';
import { useRouter } from '../router/Router.tsx';
import { entryPath } from '../router/routes.ts';
import { useWantList } from '../sessions/ListDemand.tsx';
import { TimelineRow } from './TimelineRow.tsx';
import { useFollow } from './useFollow.ts';
import { pagesFor, useEntryIndex, useSessionPages } from './useSessionPages.ts';
import { NO_FILTER, describeFilter, filterSuffix, isFiltered, sessionFilterQuery, type SessionFilter } from './sessionFilter.ts';

// The session's items in order, on one time axis: sent on the left, received on the right.
// Virtualized: only the rows on screen are in the DOM, and only their pages are fetched.

/** `jump`: a position in the (filtered) order to bring into view, a new object for each jump. */
export type Jump = { index: number };

type Props = { sessionId: string; targetFile: string | null; onLatest(response: SessionResponse): void; filter?: SessionFilter; jump?: Jump | null };

function itemKey(item: SessionItemWire | undefined, index: number): string {
  return item === undefined || item.type === 'gap' ? `#${index}` : item.file;
}

const ESTIMATED_ROW_PX = 150;

export function Timeline({ sessionId, targetFile, onLatest, filter = NO_FILTER, jump = null }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { navigate } = useRouter();
  const { density } = useSettings();
  const filterText = sessionFilterQuery(filter).toString();
  const suffix = filterSuffix(filter);
  // The newest answer taken so far (see below): the session's length and summary.
  const [known, setKnown] = useState<{ response: SessionResponse; at: number } | null>(null);
  const total = known?.response.page.total ?? null;
  const count = total ?? 0;
  // A link to one entry: where it sits in the session's order (null when it is not there).
  const target = useEntryIndex(sessionId, targetFile, filterText);
  const targetIndex = typeof target.data === 'number' ? target.data : target.data === undefined ? undefined : null;
  // The list is placed once the total is known (and, for a link, where the entry sits), already
  // at the place it opens on: so the first page asked for is the one the reader will see.
  const [placed, setPlaced] = useState(false);
  if (!placed && total !== null && (targetFile === null || !target.isPending || target.failureCount > 0)) setPlaced(true);
  const virtualizer = useVirtualizer({
    count,
    enabled: placed,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    initialOffset: () => (targetFile === null ? count : (targetIndex ?? 0)) * ESTIMATED_ROW_PX,
    overscan: 4,
  });
  const visible = virtualizer.getVirtualItems();
  const pages = useSessionPages(sessionId, pagesFor(visible.map((row) => row.index)), total === null, filterText);
  const latest = pages.latest;
  // Kept from the newest answer, so the list keeps its length while the pages in view load. Only
  // an answer newer than the one taken counts: which pages are in view depends on the length, so
  // taking the newest of those in view let two answers with different totals (pages fetched
  // either side of a write) swap the length back and forth until React gave up (error #301).
  if (latest !== null && (known === null || pages.latestAt > known.at)) setKnown({ response: latest, at: pages.latestAt });

  const taken = known?.response ?? null;
  useEffect(() => {
    if (taken !== null) onLatest(taken);
  }, [taken, onLatest]);

  // The list of all sessions waits for the first rows (see ListDemand).
  const wantList = useWantList();
  const shown = pages.error !== null || total === 0 || visible.some((row) => pages.itemAt(row.index) !== undefined);
  useEffect(() => {
    if (shown) wantList();
  }, [shown, wantList]);

  const follow = useFollow(scrollRef, virtualizer, total, targetFile === null);
  const [selected, setSelected] = useState<number | null>(null);
  const [rawKeys, setRawKeys] = useState<ReadonlySet<string>>(new Set());
  // In the compact density, the entries opened to their full form.
  const [openKeys, setOpenKeys] = useState<ReadonlySet<string>>(new Set());
  const toggleOpen = (key: string) =>
    setOpenKeys((old) => {
      const next = new Set(old);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const toggleRaw = (key: string) =>
    setRawKeys((old) => {
      const next = new Set(old);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  // A link to one entry: select it and bring it into view, once per link.
  const handledFile = useRef<string | null>(null);
  useEffect(() => {
    if (targetFile === null || targetIndex == null || handledFile.current === targetFile || total === null || targetIndex >= total) return;
    handledFile.current = targetFile;
    follow.stopFollowing();
    setSelected(targetIndex);
    virtualizer.scrollToIndex(targetIndex, { align: 'center' });
  }, [targetFile, targetIndex, total, follow, virtualizer]);

  // An entry selected by key goes into the address bar, once its page is here (a key may come
  // while the rows on screen are still loading).
  const linkSelected = useRef<number | null>(null);
  useEffect(() => {
    const index = linkSelected.current;
    const item = index === null ? undefined : pages.itemAt(index);
    if (item === undefined) return;
    linkSelected.current = null;
    if (item.type !== 'file') return;
    handledFile.current = item.file;
    navigate(entryPath(sessionId, item.file) + suffix, { replace: true });
  });

  // A moment picked on the activity strip: its first item, at the top, selected.
  useEffect(() => {
    if (jump === null || total === null || total === 0) return;
    const index = Math.min(jump.index, total - 1);
    follow.stopFollowing();
    setSelected(index);
    virtualizer.scrollToIndex(index, { align: 'start' });
    // Only a new jump moves the list: not a new total, nor a new render of the follow state.
  }, [jump]);
  const select = (index: number) => {
    const next = Math.max(0, Math.min(count - 1, index));
    if (count === 0) return;
    setSelected(next);
    if (next < count - 1) follow.stopFollowing();
    virtualizer.scrollToIndex(next, { align: 'auto' });
    linkSelected.current = next;
  };
  const step = (delta: number) => {
    if (selected !== null) return select(selected + delta);
    const onScreen = virtualizer.getVirtualItems();
    select(delta > 0 ? (onScreen[0]?.index ?? 0) : (onScreen.at(-1)?.index ?? count - 1));
  };
  useKeys({
    j: () => step(1),
    ArrowDown: () => step(1),
    k: () => step(-1),
    ArrowUp: () => step(-1),
    r: () => {
      if (selected !== null) toggleRaw(itemKey(pages.itemAt(selected), selected));
    },
    End: () => follow.resume(),
    G: () => follow.resume(),
    Home: () => {
      follow.stopFollowing();
      virtualizer.scrollToIndex(0, { align: 'start' });
    },
  });

  return (
    <div className={`timeline${density === 'compact' ? ' density-compact' : ''}`}>
      <div className="timeline-columns" aria-hidden="true">
        <span>Sent by this session</span>
        <span>Received by this session</span>
      </div>
      {pages.error !== null && <p className="notice error">Could not load entries: {pages.error.message}</p>}
      {targetFile !== null && target.data === 'filtered-out' && (
        <p className="notice warn" role="status">
          Entry <code>{targetFile}</code> is in this session, but not among its {describeFilter(filter)}. The filtered session is shown from its start.
        </p>
      )}
      {targetFile !== null && target.data === null && (
        <p className="notice warn" role="status">
          Entry <code>{targetFile}</code> is not in this session: its folder holds no file of that name. The session is shown from its start.
        </p>
      )}
      {targetFile !== null && target.error !== null && (
        <p className="notice error">
          Could not look for entry <code>{targetFile}</code>: {target.error.message}
        </p>
      )}
      {total === 0 && <p className="notice">{isFiltered(filter) ? `No ${describeFilter(filter)} in this session.` : "No files in this session's folder yet."}</p>}
      <div ref={scrollRef} className="timeline-scroll" tabIndex={0} role="feed" aria-label="Entries in session order" aria-busy={latest === null}>
        <div className="timeline-inner" style={{ height: virtualizer.getTotalSize() }}>
          {visible.map((row) => {
            const item = pages.itemAt(row.index);
            const key = itemKey(item, row.index);
            return (
              <div
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                className={`timeline-row${selected === row.index ? ' selected' : ''}`}
                style={{ transform: `translateY(${row.start}px)` }}
                onClick={() => setSelected(row.index)}
              >
                <TimelineRow
                  sessionId={sessionId}
                  item={item}
                  raw={rawKeys.has(key)}
                  onToggleRaw={() => toggleRaw(key)}
                  {...(density === 'compact' ? { compact: !openKeys.has(key), onToggleOpen: () => toggleOpen(key) } : {})}
                />
              </div>
            );
          })}
        </div>
      </div>
      {follow.newCount > 0 && (
        <button type="button" className="new-marker" onClick={follow.resume}>
          {follow.newCount} new ↓
        </button>
      )}
    </div>
  );
}
