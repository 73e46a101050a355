import type { SessionSummary } from '../../../../shared/wire/record.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath } from '../../router/routes.ts';
import { projectName, shortId } from '../../sessions/names.ts';
import { Time } from '../../time/Time.tsx';
import { COVERAGE_UNKNOWN } from '../../../../shared/record/degraded.ts';
import { describeSessionDegraded } from './reasonWords.ts';
import { writeCount } from '../../text/count.ts';
import { SourceBadge } from '../SourceBadge.tsx';
import { REFUSED_WORDS } from './RefusedCounts.tsx';

/** A record session in the sidebar: its span, its counts, and what makes its record doubtful. */
export function RecordListRow({ conversation: session, depth, selected }: { conversation: SessionSummary; depth: number; selected: boolean }) {
  const { counts } = session;
  const others = session.degraded.filter((reason) => reason.code !== 'no-start');
  return (
    <Link
      to={conversationPath(session.source.id, session.sessionId)}
      className={`session-row${selected ? ' selected' : ''}`}
      aria-current={selected ? 'page' : undefined}
      aria-label={`Session ${session.sessionId}`}
      title={session.sessionId}
      style={depth > 0 ? { paddingLeft: `${0.6 + depth * 1.1}rem` } : undefined}
      data-session-id={session.sessionId}
    >
      <span className="session-row-top">
        {depth > 0 && <span className="chain-mark" aria-hidden="true">↳</span>}
        <SourceBadge source={session.source} />
        <code className="sid">{shortId(session.sessionId)}</code>
        {session.chain !== null && <span className="badge badge-chain" title={`part ${String(session.chain.part)} of a chain under ${session.chain.parent}`}>part {String(session.chain.part)}</span>}
        {/* One badge a reason: no start entry is one of the degraded reasons, and says which; "degraded" is said for the others. */}
        {session.coverage === 'unknown' && (
          <span className="badge badge-degraded" title={`No start entry. ${COVERAGE_UNKNOWN}`}>
            coverage unknown
          </span>
        )}
        {others.length > 0 && (
          <span className="badge badge-degraded" title={describeSessionDegraded({ ...session, degraded: others })}>
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
        <span>{writeCount(counts.sent)} sent</span>
        <span>{writeCount(counts.received)} received</span>
        {counts.refused > 0 && (
          <span className="count-refused" title="Sent entries the host did not queue">
            {writeCount(counts.refused)} {REFUSED_WORDS.sent}
          </span>
        )}
        {counts.rejected > 0 && (
          <span className="count-refused" title="Received entries whose receive hook was refused">
            {writeCount(counts.rejected)} {REFUSED_WORDS.received}
          </span>
        )}
      </span>
    </Link>
  );
}

/** A chain child whose project is another: listed there, and under its parent as a link that names it. */
export function ChainElsewhereRow({ conversation: child, depth }: { conversation: SessionSummary; depth: number }) {
  return (
    <Link
      to={conversationPath(child.source.id, child.sessionId)}
      className="chain-ref"
      style={{ paddingLeft: `${0.6 + depth * 1.1}rem` }}
      aria-label={`Chain child ${child.sessionId}, in project ${child.cwd ?? 'with no directory'}`}
      title={`${child.sessionId}: part ${String(child.chain?.part)} of a chain under this session, listed in project ${child.cwd ?? 'with no directory'}`}
    >
      <span className="chain-mark" aria-hidden="true">↳</span> <code className="sid">{shortId(child.sessionId)}</code>{' '}
      <span className="badge badge-chain">part {String(child.chain?.part)}</span> <span className="muted">in {projectName(child.cwd)}</span>
    </Link>
  );
}
