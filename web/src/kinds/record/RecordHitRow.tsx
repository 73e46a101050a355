import type { ReactNode } from 'react';
import type { RecordSearchHit } from '../../../../shared/wire/record.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath, itemPath } from '../../router/routes.ts';
import { Snippet } from '../../search/Snippet.tsx';
import { projectName, shortId } from '../../sessions/names.ts';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { Time } from '../../time/Time.tsx';
import { OutcomeLabel } from './OutcomeLabel.tsx';
import { receivedOutcome, sentOutcome } from './outcomeWords.ts';

/** A record entry found by a search: its side, peer and outcome, opening the entry in its session. */
export function RecordHitRow({ hit, store, across }: { hit: RecordSearchHit; store: ReactNode; across: ReactNode }) {
  const outcome = hit.side === 'sent' ? sentOutcome(hit) : receivedOutcome(hit);
  return (
    <li className={`search-hit hit-${hit.side} tone-${outcome.tone}`}>
      <div className="search-hit-head">
        <Link to={itemPath(hit.source.id, hit.sessionId, hit.file)} className="entry-time" aria-label={`Open entry ${hit.file} in session ${hit.sessionId}`}>
          <Time at={hit.at} />
        </Link>
        {store}
        <span className={`side side-${hit.side}`}>{hit.side}</span>
        <span>
          {hit.side === 'sent' ? 'to ' : 'from '}
          {hit.peerAs !== null ? <VerbatimText text={hit.peerAs} inline className="peer-as" /> : <span className="peer-unknown">unknown</span>}
        </span>
        <OutcomeLabel outcome={outcome} />
        <span className="muted">
          session{' '}
          {/* A link to its session, as a spex hit's session is. */}
          <Link to={conversationPath(hit.source.id, hit.sessionId)} title={hit.sessionId}>
            <code>{shortId(hit.sessionId)}</code>
          </Link>{' '}
          · <span title={hit.cwd ?? undefined}>{projectName(hit.cwd)}</span>
        </span>
        {across}
      </div>
      {hit.withheld ? <p className="muted">text withheld (metadata mode)</p> : hit.snippet !== null ? <Snippet snippet={hit.snippet} match={hit.match} cut={hit.snippetCut} /> : null}
    </li>
  );
}
