import type { SessionSummary } from '../../../shared/api.ts';
import { describeSessionDegraded } from '../degraded/reasonWords.ts';
import { Link } from '../router/Router.tsx';
import { sessionPath } from '../router/routes.ts';
import { Time } from '../time/Time.tsx';
import { shortId } from './sessionTree.ts';

export function SessionRow({ session, depth, selected }: { session: SessionSummary; depth: number; selected: boolean }) {
  const { counts } = session;
  return (
    <Link
      to={sessionPath(session.sessionId)}
      className={`session-row${selected ? ' selected' : ''}`}
      aria-current={selected ? 'page' : undefined}
      aria-label={`Session ${session.sessionId}`}
      title={session.sessionId}
      style={depth > 0 ? { paddingLeft: `${0.6 + depth * 1.1}rem` } : undefined}
      data-session-id={session.sessionId}
    >
      <span className="session-row-top">
        {depth > 0 && <span className="chain-mark" aria-hidden="true">↳</span>}
        <code className="sid">{shortId(session.sessionId)}</code>
        {session.chain !== null && <span className="badge badge-chain" title={`part ${String(session.chain.part)} of a chain under ${session.chain.parent}`}>part {String(session.chain.part)}</span>}
        {session.coverage === 'unknown' && <span className="badge badge-warn" title="No start entry: the record cannot say what this session sent or received.">coverage unknown</span>}
        {session.degraded.length > 0 && (
          <span className="badge badge-degraded" title={describeSessionDegraded(session)}>
            degraded
          </span>
        )}
      </span>
      <span className="session-row-when">
        {session.firstAt !== null && session.lastAt !== null ? (
          <>
            <Time at={session.firstAt} short /> – <Time at={session.lastAt} short />
          </>
        ) : (
          'no entry parsed yet'
        )}
      </span>
      <span className="session-row-counts">
        <span>{counts.sent} sent</span>
        <span>{counts.received} received</span>
        {counts.refused > 0 && (
          <span className="count-refused" title="Sent entries the host did not queue">
            {counts.refused} not queued
          </span>
        )}
        {counts.rejected > 0 && (
          <span className="count-refused" title="Received entries whose receive hook was refused">
            {counts.rejected} rejected
          </span>
        )}
      </span>
    </Link>
  );
}
