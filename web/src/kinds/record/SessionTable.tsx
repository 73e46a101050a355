import { memo } from 'react';
import type { SessionSummary } from '../../../../shared/wire/record.ts';
import { describeSessionDegraded } from './reasonWords.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath } from '../../router/routes.ts';
import { Time } from '../../time/Time.tsx';
import { DegradedReasons } from '../../sessions/DegradedReasons.tsx';
import { useRowsShown } from '../../sessions/useRowsShown.tsx';

export function SessionTable({ sessions, caption }: { sessions: readonly SessionSummary[]; caption: string }) {
  const { shown, more } = useRowsShown(sessions.length);
  return (
    <>
      {/* A narrow window scrolls the table in its own box, never the whole page sideways. */}
      <div className="table-scroll">
        <table className="session-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Session</th>
              <th scope="col">First</th>
              <th scope="col">Last</th>
              <th scope="col">Sent</th>
              <th scope="col">Received</th>
              <th scope="col">Not queued</th>
              <th scope="col">Rejected</th>
              <th scope="col">Record</th>
            </tr>
          </thead>
          <tbody>
            {sessions.slice(0, shown).map((session) => (
              <SessionTableRow key={session.sessionId} session={session} />
            ))}
          </tbody>
        </table>
      </div>
      {more}
    </>
  );
}

/** A notice replaces one session's summary and keeps the others as they were: those rows stay. */
const SessionTableRow = memo(function SessionTableRow({ session }: { session: SessionSummary }) {
  return (
    <tr>
      <td>
        <Link to={conversationPath(session.source.id, session.sessionId)} title={session.sessionId}>
          <code>{session.sessionId}</code>
        </Link>
        {session.chain !== null && <span className="muted"> part {String(session.chain.part)}</span>}
      </td>
      <td>{session.firstAt !== null ? <Time at={session.firstAt} /> : '—'}</td>
      <td>{session.lastAt !== null ? <Time at={session.lastAt} /> : '—'}</td>
      <td className="num">{session.counts.sent}</td>
      <td className="num">{session.counts.received}</td>
      <td className={`num${session.counts.refused > 0 ? ' count-refused' : ''}`}>{session.counts.refused}</td>
      <td className={`num${session.counts.rejected > 0 ? ' count-refused' : ''}`}>{session.counts.rejected}</td>
      <td>
        {session.degraded.length === 0 ? (
          <span className="muted">{session.coverage === 'from-start' ? 'complete as far as the record shows' : 'coverage unknown'}</span>
        ) : (
          <DegradedReasons count={session.degraded.length} words={describeSessionDegraded(session)} />
        )}
      </td>
    </tr>
  );
});
