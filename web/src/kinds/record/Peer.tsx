import type { MessageFactsWire } from '../../../../shared/wire/record.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath } from '../../router/routes.ts';
import { shortId } from '../../sessions/names.ts';
import { VerbatimText } from '../../text/VerbatimText.tsx';

/**
 * The other party exactly as the host gave it at that event (rule.peerAsSeen), and the full
 * session id only where the writer resolved one. A name, an address and an id for the same peer
 * are never joined here: no stable key between them has been shown.
 */
export function Peer({ source, facts }: { source: string; facts: MessageFactsWire }) {
  const side = facts.side;
  const as = facts.peer?.as ?? null;
  const resolved = facts.peer?.sessionId ?? null;
  return (
    <span className="peer">
      <span className="peer-dir">{side === 'sent' ? 'to' : 'from'}</span>{' '}
      {as !== null ? (
        <span className="peer-as" title="The address or name exactly as the host gave it at this event">
          <VerbatimText text={as} inline />
        </span>
      ) : (
        <span className="peer-unknown" title="The host gave no address or name: the peer is unknown">
          unknown
        </span>
      )}
      {resolved !== null && (
        <>
          {' · resolved to session '}
          <Link to={conversationPath(source, resolved)} className="peer-session" title={resolved}>
            {shortId(resolved)}
          </Link>
        </>
      )}
    </span>
  );
}
