import { useCallback, useMemo, useState } from 'react';
import type { SessionResponse } from '../../../shared/wire/record.ts';
import { DegradedBanner } from '../degraded/DegradedBanner.tsx';
import { useRouter } from '../router/Router.tsx';
import { sessionPath } from '../router/routes.ts';
import { Timeline, type Jump } from '../timeline/Timeline.tsx';
import { SessionActivity } from '../timeline/SessionActivity.tsx';
import { FilterSuffixContext } from '../timeline/filterContext.ts';
import { filterSuffix, readSessionFilter, type SessionFilter } from '../timeline/sessionFilter.ts';
import { SessionHeader } from './SessionHeader.tsx';
import { isRecordSession } from './conversations.ts';
import { recordSourceOf, useSessions } from './useSessions.ts';

export function SessionView({ sessionId, file }: { sessionId: string; file: string | null }) {
  const { data: list } = useSessions();
  const { path, navigate } = useRouter();
  const [latest, setLatest] = useState<SessionResponse | null>(null);
  const onLatest = useCallback((response: SessionResponse) => setLatest(response), []);
  // The filter is in the address: a filtered session can be shared, and back undoes a filter.
  const search = new URL(path, window.location.origin).search;
  const filter = useMemo(() => readSessionFilter(search), [search]);
  const suffix = filterSuffix(filter);
  const onFilter = useCallback((next: SessionFilter) => navigate(sessionPath(sessionId) + filterSuffix(next)), [navigate, sessionId]);
  // A jump belongs to the order it was picked in: a new filter or session starts without one.
  const order = `${sessionId}${suffix}`;
  const [jump, setJump] = useState<(Jump & { order: string }) | null>(null);
  const onJump = useCallback((index: number) => setJump({ index, order }), [order]);
  // The record's sessions: a record URL names a record session (the first record's, as the API answers).
  const recordSessions = useMemo(() => list?.projects.flatMap((p) => p.sessions).filter(isRecordSession) ?? [], [list]);
  const fromList = useMemo(() => recordSessions.find((s) => s.sessionId === sessionId) ?? null, [recordSessions, sessionId]);
  const children = useMemo(() => recordSessions.filter((s) => s.chain?.parent === sessionId && s.sessionId !== sessionId), [recordSessions, sessionId]);
  // The page answer is read after the fold, so it is the fresher summary when both are here.
  const session = latest?.session.sessionId === sessionId ? latest.session : fromList;

  if (session === null) {
    if (list !== undefined && fromList === null && latest === null) {
      return (
        <main className="view" aria-label="Session">
          <p className="notice warn">
            No session <code>{sessionId}</code> in this record{recordSourceOf(list)?.indexing.state !== 'ready' ? ' yet: the record is still being read' : ''}.
          </p>
        </main>
      );
    }
  }
  return (
    <main className="view session-view" aria-label={`Session ${sessionId}`}>
      {session !== null && <SessionHeader session={session} runList={latest?.runs ?? null} children={children} />}
      {session !== null && <DegradedBanner session={session} />}
      <SessionActivity key={sessionId} sessionId={sessionId} filter={filter} onFilter={onFilter} onJump={onJump} />
      <FilterSuffixContext value={suffix}>
        {/* A filter is another order: the list starts again, with its own length and positions. */}
        <Timeline key={order} sessionId={sessionId} targetFile={file} onLatest={onLatest} filter={filter} jump={jump?.order === order ? jump : null} />
      </FilterSuffixContext>
    </main>
  );
}
