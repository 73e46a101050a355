import { useCallback, useMemo, useState } from 'react';
import type { SessionResponse, SessionSummary } from '../../../../shared/wire/record.ts';
import { useRouter } from '../../router/Router.tsx';
import { conversationPath } from '../../router/routes.ts';
import { useConversations } from '../../sessions/useConversations.ts';
import type { ConversationViewProps } from '../kind.ts';
import { ParamsNotApplied } from '../../conversation/ParamsNotApplied.tsx';
import { MarksLegend } from '../../conversation/marks.tsx';
import { RecordDegradedBanner } from './RecordDegradedBanner.tsx';
import { RecordConversation } from './RecordConversation.tsx';
import { SessionActivity } from './SessionActivity.tsx';
import { SessionHeader } from './SessionHeader.tsx';
import { FilterQueryContext } from './filterContext.ts';
import { readSessionFilter, SESSION_FILTER_PARAMS, sessionFilterQuery, type SessionFilter } from './sessionFilter.ts';

// A record session's page: its header, what is degraded, how busy it was and with whom, and its
// entries on the shell's time axis.

export default function RecordSessionView({ source, id: sessionId, item: file, query }: ConversationViewProps) {
  const { data: list } = useConversations();
  const { navigate } = useRouter();
  const [latest, setLatest] = useState<SessionResponse | null>(null);
  const onLatest = useCallback((response: SessionResponse) => setLatest(response), []);
  // The filter is in the address: a filtered session can be shared, and back undoes a filter.
  const filter = useMemo(() => readSessionFilter(query), [query]);
  const filterText = sessionFilterQuery(filter).toString();
  const onFilter = useCallback((next: SessionFilter) => navigate(conversationPath(source, sessionId, sessionFilterQuery(next))), [navigate, source, sessionId]);
  // A jump belongs to the order it was picked in: a new filter or session starts without one.
  const order = `${source}/${sessionId}?${filterText}`;
  const [jump, setJump] = useState<{ index: number; order: string } | null>(null);
  const onJump = useCallback((index: number) => setJump({ index, order }), [order]);
  const sessions = useMemo(() => list?.projects.flatMap((project) => project.sessions).filter((one): one is SessionSummary => one.source.id === source) ?? [], [list, source]);
  const fromList = useMemo(() => sessions.find((one) => one.sessionId === sessionId) ?? null, [sessions, sessionId]);
  const children = useMemo(() => sessions.filter((one) => one.chain?.parent === sessionId && one.sessionId !== sessionId), [sessions, sessionId]);
  // The page answer is read after the fold, so it is the fresher summary when both are here.
  const session = latest?.session.sessionId === sessionId && latest.session.source.id === source ? latest.session : fromList;
  const store = list?.sources.find((one) => one.id === source);

  if (session === null && list !== undefined && latest === null) {
    return (
      <main className="view" aria-label="Session">
        <p className="notice warn">
          No session <code>{sessionId}</code> in this record{store !== undefined && store.indexing.state !== 'ready' ? ' yet: the record is still being read' : ''}.
        </p>
      </main>
    );
  }
  return (
    <main className="view conversation-view" aria-label={`Session ${sessionId}`}>
      {session !== null && <SessionHeader session={session} runList={latest?.runs ?? null} children={children} />}
      {session !== null && <RecordDegradedBanner session={session} />}
      {session !== null && <MarksLegend names={session.degraded.length > 0 ? ['unknown'] : []} />}
      <ParamsNotApplied query={query} reads={SESSION_FILTER_PARAMS} applied={filterText} />
      <SessionActivity key={`${source}/${sessionId}`} source={source} sessionId={sessionId} filter={filter} onFilter={onFilter} onJump={onJump} />
      <FilterQueryContext value={filterText}>
        {/* A filter is another order: the list starts again, with its own length and positions. */}
        <RecordConversation key={order} source={source} sessionId={sessionId} targetFile={file} onLatest={onLatest} filter={filter} jump={jump?.order === order ? jump : null} />
      </FilterQueryContext>
    </main>
  );
}
