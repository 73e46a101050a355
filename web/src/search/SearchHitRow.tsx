import type { SearchHit } from '../../../shared/api.ts';
import { Link } from '../router/Router.tsx';
import { entryPath } from '../router/routes.ts';
import { projectName, shortId } from '../sessions/sessionTree.ts';
import { VerbatimText } from '../text/VerbatimText.tsx';
import { Time } from '../time/Time.tsx';
import { receivedOutcome, sentOutcome } from '../timeline/outcomeWords.ts';
import { OutcomeLabel } from '../timeline/OutcomeLabel.tsx';

export function SearchHitRow({ hit }: { hit: SearchHit }) {
  const outcome =
    hit.side === 'sent'
      ? sentOutcome(hit)
      : receivedOutcome(hit);
  return (
    <li className={`search-hit hit-${hit.side} tone-${outcome.tone}`}>
      <div className="search-hit-head">
        <Link to={entryPath(hit.sessionId, hit.file)} className="entry-time" aria-label={`Open entry ${hit.file} in session ${hit.sessionId}`}>
          <Time at={hit.at} />
        </Link>
        <span className={`side side-${hit.side}`}>{hit.side}</span>
        <span>
          {hit.side === 'sent' ? 'to ' : 'from '}
          {hit.peerAs !== null ? <VerbatimText text={hit.peerAs} inline className="peer-as" /> : <span className="peer-unknown">unknown</span>}
        </span>
        <OutcomeLabel outcome={outcome} />
        <span className="muted">
          session <code title={hit.sessionId}>{shortId(hit.sessionId)}</code> · <span title={hit.cwd ?? undefined}>{projectName(hit.cwd)}</span>
        </span>
      </div>
      {hit.withheld ? (
        <p className="muted">text withheld (metadata mode)</p>
      ) : hit.snippet !== null ? (
        <Snippet snippet={hit.snippet} match={hit.match} />
      ) : null}
    </li>
  );
}

function Snippet({ snippet, match }: { snippet: string; match: SearchHit['match'] }) {
  if (match === null || match.end <= match.start) return <VerbatimText text={snippet} className="snippet" />;
  return (
    <div className="snippet">
      <VerbatimText text={snippet.slice(0, match.start)} inline />
      <mark>
        <VerbatimText text={snippet.slice(match.start, match.end)} inline />
      </mark>
      <VerbatimText text={snippet.slice(match.end)} inline />
    </div>
  );
}
