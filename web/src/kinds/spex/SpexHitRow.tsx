import type { ReactNode } from 'react';
import type { SpexSearchHit } from '../../../../shared/wire/spex.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath, itemPath } from '../../router/routes.ts';
import { Snippet } from '../../search/Snippet.tsx';
import { projectName, shortId } from '../../sessions/names.ts';
import { Time } from '../../time/Time.tsx';

/** A spex line found by a search, seen from its session's side, opening the line in its place. */
export function SpexHitRow({ hit, across }: { hit: SpexSearchHit; across: ReactNode }) {
  const from = hit.from === null ? null : hit.from.by === 'person' ? 'a person' : hit.from.by === 'session' ? hit.from.sessionId : hit.from.as;
  return (
    <li className={`search-hit hit-${hit.kind === 'sent' ? 'sent' : 'received'}`}>
      <div className="search-hit-head">
        <Link to={itemPath(hit.source.id, hit.sessionId, hit.key)} className="entry-time" aria-label={`Open line ${hit.key} in spex session ${hit.sessionId}`}>
          <Time at={hit.at} />
        </Link>
        <span className="badge badge-source">spex</span>
        <span className={`side side-${hit.kind}`}>{hit.kind}</span>
        {from !== null && <span>from {from}</span>}
        {hit.kind === 'sent' && hit.receiver !== null && <span className="muted">from the receiver's log ({shortId(hit.receiver)})</span>}
        <span className="muted">
          session{' '}
          <Link to={conversationPath(hit.source.id, hit.sessionId)}>
            <code title={hit.sessionId}>{shortId(hit.sessionId)}</code>
          </Link>{' '}
          · <span title={hit.project}>{projectName(hit.project)}</span>
        </span>
        {across}
      </div>
      {hit.snippet !== null && <Snippet snippet={hit.snippet} match={hit.match} />}
    </li>
  );
}
