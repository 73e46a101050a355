import type { ReactNode } from 'react';
import type { SpexSearchHit } from '../../../../shared/wire/spex.ts';
import { Mark } from '../../conversation/marks.tsx';
import { Link } from '../../router/Router.tsx';
import { itemPath } from '../../router/routes.ts';
import { Snippet } from '../../search/Snippet.tsx';
import { projectName } from '../../sessions/names.ts';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { Time } from '../../time/Time.tsx';
import { SpexSessionRef } from './SpexSessionRef.tsx';
import { PERSON_WORDS } from '../../../../shared/peerMatch.ts';

/**
 * A spex line found by a search, seen from its session's side, opening the line in its place: a
 * received message from its sender, a sent one from this session to its receiver (from the
 * receiver's log), each session named as spex names it; a line between two sessions of the home,
 * one event seen from two sides, is marked so on each hit (whether or not the search keeps both).
 */
export function SpexHitRow({ hit, store, across }: { hit: SpexSearchHit; store: ReactNode; across: ReactNode }) {
  const source = hit.source.id;
  return (
    <li className={`search-hit hit-${hit.kind === 'sent' ? 'sent' : 'received'}`}>
      <div className="search-hit-head">
        <Link to={itemPath(source, hit.sessionId, hit.key)} className="entry-time" aria-label={`Open line ${hit.key} in spex session ${hit.sessionId}`}>
          <Time at={hit.at} />
        </Link>
        {store}
        <span className={`side side-${hit.kind}`}>{hit.kind}</span>
        <span className="muted">session</span> <SpexSessionRef source={source} sessionId={hit.sessionId} named={hit.sessionNamed} />
        {hit.kind === 'sent' && hit.receiver !== null && hit.receiverNamed !== null && (
          <span className="hit-peer">
            <span className="peer-dir">to</span> <SpexSessionRef source={source} sessionId={hit.receiver} named={hit.receiverNamed} />{' '}
            <span className="muted">from the receiver's log</span> <Mark name="two-sides" />
          </span>
        )}
        {hit.kind === 'received' && hit.from !== null && (
          <span className="hit-peer">
            <span className="peer-dir">from</span>{' '}
            {hit.from.by === 'person' ? <strong>{PERSON_WORDS}</strong> : hit.from.by === 'session' ? <SpexSessionRef source={source} sessionId={hit.from.sessionId} named={hit.from.named} /> : <VerbatimText text={hit.from.as} inline />}
            {/* Its sender's Sent holds the same line, as a spex session's page says of it. */}
            {hit.twoSides && (
              <>
                {' '}
                <Mark name="two-sides" />
              </>
            )}
          </span>
        )}
        <span className="muted" title={hit.project}>
          · {projectName(hit.project)}
        </span>
        {across}
      </div>
      {hit.snippet !== null && <Snippet snippet={hit.snippet} match={hit.match} cut={hit.snippetCut} />}
    </li>
  );
}
