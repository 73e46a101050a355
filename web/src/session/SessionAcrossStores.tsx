import { kindNamed } from '../kinds/registry.ts';
import { Link } from '../router/Router.tsx';
import { conversationPath } from '../router/routes.ts';
import { SessionLink } from './SessionLink.tsx';
import { useConversationSession } from './useJoinedSessions.ts';

// Where a store's conversation is in the other stores, as the server joined it on the full id each
// store states: the session's page across the stores, and each other store's own view of it. The
// browser reads no store's rule of where a session id is: it asks the server which session this is.

/** Said where a session's one conversation is all that the stores read here hold of it. */
export const NO_OTHER_STORE = 'no other store read here holds this session';

export function SessionAcrossStores({ source, id }: { source: string; id: string }) {
  const { data } = useConversationSession(source, id);
  if (data === undefined || data.session === null) return null;
  const session = data.session;
  const others = data.conversations.filter((other) => !(other.source.id === source && other.id === id));
  return (
    <span className="session-across">
      {' · '}
      <SessionLink session={session}>this session across the stores</SessionLink>
      {others.map((other) => {
        const kind = kindNamed(other.source.kind);
        return (
          <span key={`${other.source.id}/${other.id}`}>
            {' · '}
            <Link to={conversationPath(other.source.id, other.id)} aria-label={`Session ${session} in ${kind?.name ?? other.source.kind}${other.source.kind === 'sac' ? `, seat ${other.id}` : ''}`} title={other.source.id}>
              {kind?.describeAsOther(other) ?? other.id}
            </Link>
          </span>
        );
      })}
      {others.length === 0 && <span className="muted"> · {NO_OTHER_STORE}</span>}
    </span>
  );
}
