import type { SessionSummary } from '../../../shared/wire/record.ts';
import type { ConversationSummary } from '../../../shared/wire/kinds.ts';
import type { SacSeatSummary } from '../../../shared/wire/sac.ts';
import type { SpexSummary } from '../../../shared/wire/spex.ts';
import { describeSessionDegraded } from '../degraded/reasonWords.ts';
import { Link } from '../router/Router.tsx';
import { sacSeatPath, sessionPath, spexSessionPath } from '../router/routes.ts';
import { Time } from '../time/Time.tsx';
import { isSacSeat, isSpexSession } from './conversations.ts';
import { shortId } from './sessionTree.ts';

type RowProps<C> = { session: C; depth: number; selected: boolean };

/** A conversation's row in the sidebar, as its kind shows it; each says its source's kind. */
export function SessionRow({ session, depth, selected }: RowProps<ConversationSummary>) {
  if (isSpexSession(session)) return <SpexSessionRow session={session} selected={selected} />;
  if (isSacSeat(session)) return <SacSeatRow session={session} selected={selected} />;
  return <RecordSessionRow session={session} depth={depth} selected={selected} />;
}

function SpexSessionRow({ session, selected }: Omit<RowProps<SpexSummary>, 'depth'>) {
  const { counts, current } = session;
  const label = session.title ?? session.name;
  return (
    <Link
      to={spexSessionPath(session.source.id, session.id)}
      className={`session-row${selected ? ' selected' : ''}`}
      aria-current={selected ? 'page' : undefined}
      aria-label={`spex session ${session.id}`}
      title={session.id}
      data-session-id={session.id}
    >
      <span className="session-row-top">
        <span className="badge badge-source" title="A spex session timeline">spex</span>
        <code className="sid">{shortId(session.id)}</code>
        {label !== null && <span className="session-row-title">{label}</span>}
        {current.state === 'known' && current.word !== null && (
          <span className="badge" title="Its status now, as session.json says: current, not history">now: {current.word}</span>
        )}
        {session.degraded.length > 0 && (
          <span className="badge badge-degraded" title={session.degraded.map((reason) => reason.words).join('\n')}>
            degraded
          </span>
        )}
      </span>
      <span className="session-row-when">{session.lastAt !== null ? <Time at={session.lastAt} short /> : 'no line read yet'}</span>
      <span className="session-row-counts">
        <span>{counts.sent} sent</span>
        <span>{counts.received} received</span>
        <span title="Messages from a person (from: null)">{counts.fromPerson} from a person</span>
      </span>
    </Link>
  );
}

function SacSeatRow({ session, selected }: Omit<RowProps<SacSeatSummary>, 'depth'>) {
  const { counts } = session;
  return (
    <Link
      to={sacSeatPath(session.source.id, session.id)}
      className={`session-row${selected ? ' selected' : ''}`}
      aria-current={selected ? 'page' : undefined}
      aria-label={`set-agent-comm seat ${session.id}`}
      title={session.id}
      data-session-id={session.id}
    >
      <span className="session-row-top">
        <span className="badge badge-source" title="A set-agent-comm seat">sac</span>
        <code className="sid">{session.id}</code>
        <span className="badge" title={`Derived as set-agent-comm derives it: ${session.liveness.why}`}>
          {session.liveness.word} (derived)
        </span>
        {session.degraded.length > 0 && <span className="badge badge-degraded">degraded</span>}
      </span>
      <span className="session-row-when">{session.lastAt !== null ? <Time at={session.lastAt} short /> : 'no entry yet'}</span>
      <span className="session-row-counts">
        <span>{counts.sent} sent</span>
        <span>{counts.received} received</span>
        <span title="Received entries set-agent-comm's cursor marks unread (not what the session read)">{counts.unread} unread by sac's cursor</span>
      </span>
    </Link>
  );
}

function RecordSessionRow({ session, depth, selected }: RowProps<SessionSummary>) {
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
