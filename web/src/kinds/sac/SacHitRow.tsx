import type { ReactNode } from 'react';
import type { SacSearchHit } from '../../../../shared/wire/sac.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath, sourceViewPath } from '../../router/routes.ts';
import { Snippet } from '../../search/Snippet.tsx';
import { WrittenTime } from '../../time/WrittenTime.tsx';
import { ROOMS } from './sacPaths.ts';

/** A set-agent-comm entry found by a search, opening it highlighted in its room's flow. */
export function SacHitRow({ hit, store, across }: { hit: SacSearchHit; store: ReactNode; across: ReactNode }) {
  return (
    <li className="search-hit hit-sent">
      <div className="search-hit-head">
        <Link to={sourceViewPath(hit.source.id, ROOMS, hit.room, hit.item)} className="entry-time" aria-label={`Open entry by ${hit.seat} in room ${hit.room}, at ${hit.time}`}>
          <WrittenTime text={hit.time} at={hit.at} />
        </Link>
        {store}
        <span title={hit.typeWord === hit.entryType ? undefined : `written as ${hit.typeWord}`}>{hit.typeWord}</span>
        <span>
          by <Link to={conversationPath(hit.source.id, hit.seat)}>{hit.seat}</Link> in <Link to={sourceViewPath(hit.source.id, ROOMS, hit.room)}>#{hit.room}</Link>
        </span>
        <span>to {hit.to.length === 0 ? 'everyone' : hit.to.join(', ')}</span>
        {across}
      </div>
      <Snippet snippet={hit.snippet} match={hit.match} cut={hit.snippetCut} />
    </li>
  );
}
