import type { SacSeatSummary } from '../../../../shared/wire/sac.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath } from '../../router/routes.ts';
import { Time } from '../../time/Time.tsx';
import { LivenessBadge } from './LivenessBadge.tsx';
import { SacReading } from './SacReading.tsx';
import { receivedShown } from './receivedShown.ts';
import { writeCount } from '../../text/count.ts';
import { SourceBadge } from '../SourceBadge.tsx';

/** A set-agent-comm seat in the sidebar: its liveness as sac derives it, its counts, how far sac's cursor has it read. */

export function SacListRow({ conversation: session, selected }: { conversation: SacSeatSummary; depth: number; selected: boolean }) {
  const { counts } = session;
  return (
    <Link
      to={conversationPath(session.source.id, session.id)}
      className={`session-row${selected ? ' selected' : ''}`}
      aria-current={selected ? 'page' : undefined}
      aria-label={`set-agent-comm seat ${session.id}`}
      title={session.id}
      data-session-id={session.id}
    >
      <span className="session-row-top">
        <SourceBadge source={session.source} />
        <code className="sid">{session.id}</code>
        <LivenessBadge liveness={session.liveness} />
        {session.presence.state === 'quiet' && (
          <span className="badge sac-quiet" title="Declared quiet (sac quiet): not woken; it still reads everything">
            quiet
          </span>
        )}
        {session.degraded.length > 0 && <span className="badge badge-degraded">degraded</span>}
      </span>
      <span className="session-row-when">{session.lastAt !== null ? <Time at={session.lastAt} short /> : 'no entry yet'}</span>
      <span className="session-row-counts">
        <span>{writeCount(counts.sent)} sent</span>
        <span title={counts.toOthers > 0 ? `${counts.toOthers} more in its rooms addressed to others, shown on its page on demand` : undefined}>
          {writeCount(receivedShown(counts, false))} received{counts.toOthers > 0 && ` · ${writeCount(counts.toOthers)} to others`}
        </span>
        <SacReading reading={session.reading} brief toOthers={counts.toOthers} />
      </span>
    </Link>
  );
}
