import type { SessionSummary } from '../../../../shared/wire/record.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath } from '../../router/routes.ts';
import { describeFilter, sessionFilterQuery } from './sessionFilter.ts';

// Apart from the session's header, which loads with its page: the session's page across the
// stores shows them too, from the kind loaded with the app (recordKind.tsx).

/** A count of refused messages; where there are any, a link to them alone (the session narrowed to them, `refused=1`). */
function RefusedCount({ session, side, count, words }: { session: SessionSummary; side: 'sent' | 'received'; count: number; words: string }) {
  if (count === 0) return <span>0 {words}</span>;
  return (
    <Link className="count-refused" to={conversationPath(session.source.id, session.sessionId, sessionFilterQuery({ side, peer: null, refused: true }))} title={`Show only the ${describeFilter({ side, peer: null, refused: true })}`}>
      {count} {words}
    </Link>
  );
}

/** The record's words for a refused message: a send the host did not queue, a receive whose hook refused it. */
export const REFUSED_WORDS = { sent: 'not queued', received: 'rejected' } as const;

/** What the record says was refused in a session: its header's, and its lead on the session's page across the stores. */
export function RefusedCounts({ session }: { session: SessionSummary }) {
  return (
    <>
      <RefusedCount session={session} side="sent" count={session.counts.refused} words={REFUSED_WORDS.sent} /> · <RefusedCount session={session} side="received" count={session.counts.rejected} words={REFUSED_WORDS.received} />
    </>
  );
}
