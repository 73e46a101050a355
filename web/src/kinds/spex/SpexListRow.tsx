import type { SpexSummary } from '../../../../shared/wire/spex.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath } from '../../router/routes.ts';
import { shortId } from '../../sessions/names.ts';
import { Time } from '../../time/Time.tsx';
import { writeCount } from '../../text/count.ts';
import { SourceBadge } from '../SourceBadge.tsx';

/** Its status now, as session.json says (current, not history): in the sidebar, and beside its badge on the session's page. */
export function SpexNow({ session }: { session: SpexSummary }) {
  const { current } = session;
  if (current.state !== 'known' || current.word === null) return null;
  return (
    <span className="badge" title="Its status now, as session.json says: current, not history">
      now: {current.word}
    </span>
  );
}

/** A spex session in the sidebar: its title, its status now (current, not history), its counts. */
export function SpexListRow({ conversation: session, selected }: { conversation: SpexSummary; depth: number; selected: boolean }) {
  const { counts } = session;
  const label = session.named.title;
  return (
    <Link
      to={conversationPath(session.source.id, session.id)}
      className={`session-row${selected ? ' selected' : ''}`}
      aria-current={selected ? 'page' : undefined}
      aria-label={`spex session ${session.id}`}
      title={session.id}
      data-session-id={session.id}
    >
      <span className="session-row-top">
        <SourceBadge source={session.source} />
        <code className="sid">{shortId(session.id)}</code>
        {label !== null && <span className="session-row-title">{label}</span>}
        <SpexNow session={session} />
        {session.degraded.length > 0 && (
          <span className="badge badge-degraded" title={session.degraded.map((reason) => reason.words).join('\n')}>
            degraded
          </span>
        )}
      </span>
      <span className="session-row-when">{session.lastAt !== null ? <Time at={session.lastAt} short /> : 'no line read yet'}</span>
      <span className="session-row-counts">
        <span>{writeCount(counts.sent)} sent</span>
        <span>{writeCount(counts.received)} received</span>
        <span title="Messages from a person (from: null)">{writeCount(counts.fromPerson)} from a person</span>
      </span>
    </Link>
  );
}
