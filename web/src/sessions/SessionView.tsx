import { useCallback, useMemo, useState } from 'react';
import type { SessionResponse } from '../../../shared/api.ts';
import { DegradedBanner } from '../degraded/DegradedBanner.tsx';
import { Timeline } from '../timeline/Timeline.tsx';
import { SessionHeader } from './SessionHeader.tsx';
import { isRecordSession } from './conversations.ts';
import { recordSourceOf, useSessions } from './useSessions.ts';

export function SessionView({ sessionId, file }: { sessionId: string; file: string | null }) {
  const { data: list } = useSessions();
  const [latest, setLatest] = useState<SessionResponse | null>(null);
  const onLatest = useCallback((response: SessionResponse) => setLatest(response), []);
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
      <Timeline key={sessionId} sessionId={sessionId} targetFile={file} onLatest={onLatest} />
    </main>
  );
}
