import type { JoinedSessionsResponse } from '../../../shared/wire/session.ts';
import { kindNamed } from '../kinds/registry.ts';
import { Link } from '../router/Router.tsx';
import { conversationPath, projectPath, sessionPath } from '../router/routes.ts';
import { countOf, writeCount } from '../text/count.ts';
import { Time } from '../time/Time.tsx';
import { projectName } from '../sessions/names.ts';
import { useHeldOrder } from '../sessions/useHeldOrder.tsx';
import './session.css';

type ListedSession = JoinedSessionsResponse['projects'][number]['sessions'][number];

// Claude Code sessions across the stores, as the server joined them on the full id each store
// states: a session once per project, with a badge for each store (and seat) that holds it and
// what that store counts. Each badge opens that store's own view. Latest first, the order held
// while the reader is on the table, as the conversations' table holds its own (useHeldOrder).

const sessionKey = (session: ListedSession) => session.session;

export function SessionsTable({ sessions, caption }: { sessions: readonly ListedSession[]; caption: string }) {
  const { rows, holdOn, resort } = useHeldOrder(sessions, sessionKey, 'latest');
  if (sessions.length === 0) return null;
  return (
    <div className="held-table" {...holdOn}>
      {/* Its roles said: a phone lays its rows out as blocks (session.css), which drops a table's own. */}
      <table className="sessions-table joined-sessions" role="table">
        <caption>{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              Session
            </th>
            <th scope="col" role="columnheader">
              In the stores
            </th>
            <th scope="col" role="columnheader">
              Last
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((session) => (
            <tr key={session.session} data-session={session.session} role="row">
              <th scope="row" role="rowheader">
                <Link to={sessionPath(session.session)} className="full-id" aria-label={`Across the stores: ${session.session}`}>
                  {session.session}
                </Link>
                {session.elsewhere.length > 0 && (
                  <p className="session-elsewhere">
                    Its stores name other directories too; also listed under{' '}
                    {session.elsewhere.map((cwd, index) => (
                      <span key={cwd ?? ''}>
                        {index > 0 && ', '}
                        <Link to={projectPath(cwd)}>{cwd === null ? '(no directory named)' : projectName(cwd)}</Link>
                      </span>
                    ))}
                  </p>
                )}
              </th>
              <td role="cell">
                <StoreBadges session={session} />
              </td>
              <td role="cell">{session.lastAt === null ? '—' : <Time at={session.lastAt} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {resort}
    </div>
  );
}

function StoreBadges({ session }: { session: ListedSession }) {
  return (
    <ul className="store-badges">
      {session.conversations.map((conversation) => {
        const kind = kindNamed(conversation.source.kind);
        const seat = conversation.id === session.session ? '' : ` ${conversation.id}`;
        return (
          <li key={`${conversation.source.id}/${conversation.id}`}>
            <Link
              to={conversationPath(conversation.source.id, conversation.id)}
              className={`store-badge kind-${conversation.source.kind}${conversation.degraded ? ' degraded' : ''}`}
              title={`${kind?.conversationWords ?? conversation.source.kind} in ${conversation.source.id}${conversation.degraded ? ', with degraded evidence' : ''}`}
            >
              <span className="store-name">{kind?.name ?? conversation.source.kind}</span>
              {seat}: {countOf(conversation.sent, 'sent', 'sent')}, {countOf(conversation.received, 'received', 'received')}
              <RefusedWords refused={conversation.refused} words={kind?.refusedWords} />
              {conversation.degraded && ' · degraded'}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** Where a store counts refusals and its kind has no words of its own for them. */
const PLAIN_REFUSED = { sent: 'sent refused', received: 'received refused' };

/** What its store says was refused, in its words ("· 1 not queued · 2 rejected"); nothing where none was, or the store records none. */
function RefusedWords({ refused, words = PLAIN_REFUSED }: { refused: ListedSession['conversations'][number]['refused']; words: { sent: string; received: string } | undefined }) {
  if (refused === undefined) return null;
  return (['sent', 'received'] as const).map((side) =>
    refused[side] === 0 ? null : (
      <span key={side} className="count-refused">
        {' '}
        · {writeCount(refused[side])} {words[side]}
      </span>
    ),
  );
}
