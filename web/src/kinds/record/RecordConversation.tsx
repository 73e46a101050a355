import { useEffect, useMemo } from 'react';
import type { SessionItemWire, SessionResponse } from '../../../../shared/wire/record.ts';
import { ConversationList } from '../../conversation/ConversationList.tsx';
import { usePagedConversation, useItemIndex } from '../../conversation/usePages.ts';
import { useToggledKeys } from '../../conversation/useToggledKeys.ts';
import { useRouter } from '../../router/Router.tsx';
import { itemPath } from '../../router/routes.ts';
import { useSettings } from '../../settings/Settings.tsx';
import { writeCount } from '../../text/count.ts';
import { RecordRow, columnOf } from './RecordRow.tsx';
import { recordPages } from './recordApi.ts';
import { describeFilter, isFiltered, sessionFilterQuery, type SessionFilter } from './sessionFilter.ts';

// The session's items in order, on the shell's one time axis: sent on the left, received on the
// right. Its pages are fetched by position, only those on screen.

type Props = {
  source: string;
  sessionId: string;
  /** A file a link names: the session opens at it, selected. */
  targetFile: string | null;
  onLatest(response: SessionResponse): void;
  filter: SessionFilter;
  /** A position in the (filtered) order to bring into view, a new object for each jump. */
  jump: { index: number } | null;
};

function keyOf(item: SessionItemWire | undefined, index: number): string {
  return item === undefined || item.type === 'gap' ? `#${index}` : item.file;
}

export function RecordConversation({ source, sessionId, targetFile, onLatest, filter, jump }: Props) {
  const { navigate } = useRouter();
  const { density } = useSettings();
  const filterQuery = sessionFilterQuery(filter);
  const paged = useMemo(() => recordPages(source, sessionId, filterQuery), [source, sessionId, filterQuery.toString()]);
  // A link to one entry: where it sits in the session's order (null when it is not there).
  const target = useItemIndex(paged, targetFile);
  const targetIndex = typeof target.data === 'number' ? target.data : target.isPending && target.failureCount === 0 ? undefined : null;
  const [rawKeys, toggleRaw] = useToggledKeys();
  // In the compact density, the entries opened to their full form.
  const [openKeys, toggleOpen] = useToggledKeys();
  const conversation = usePagedConversation(paged, columnOf, {
    target: targetFile === null ? null : { key: targetFile, index: targetIndex },
    jump,
    onSelectItem: (file) => {
      if (!file.startsWith('#')) navigate(itemPath(source, sessionId, file, filterQuery), { replace: true });
    },
    keys: {
      r: (selected) => {
        if (selected !== null) toggleRaw(keyOf(conversation.itemAt(selected), selected));
      },
    },
  });
  const { total, latest } = conversation;
  useEffect(() => {
    if (latest !== null) onLatest(latest);
  }, [latest, onLatest]);

  return (
    <ConversationList
      list={conversation.list}
      rowAt={conversation.rowAt}
      busy={latest === null && conversation.error === null}
      label="Entries in session order"
      headings={headingsOf(latest, filter)}
      className={density === 'compact' ? 'density-compact' : ''}
      renderRow={(index) => {
        const item = conversation.itemAt(index)!;
        const key = keyOf(item, index);
        return (
          <RecordRow
            sessionId={sessionId}
            item={item}
            raw={rawKeys.has(key)}
            onToggleRaw={() => toggleRaw(key)}
            {...(density === 'compact' ? { compact: !openKeys.has(key), onToggleOpen: () => toggleOpen(key) } : {})}
          />
        );
      }}
    >
      {conversation.error !== null && <p className="notice error">Could not load entries: {conversation.error.message}</p>}
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
    </ConversationList>
  );
}

/**
 * The columns' headings, with the session's counts as a spex session's and a seat's headings have
 * theirs; narrowed by a filter, the filter's line above says what it leaves, and they count nothing.
 */
function headingsOf(latest: SessionResponse | null, filter: SessionFilter): { sent: string; received: string } {
  if (latest === null || isFiltered(filter)) return { sent: 'Sent by this session', received: 'Received by this session' };
  const { counts } = latest.session;
  return { sent: `Sent by this session (${writeCount(counts.sent)})`, received: `Received by this session (${writeCount(counts.received)})` };
}
