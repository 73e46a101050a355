import type { RecordSearchHit } from '../../../shared/wire/record.ts';
import type { SearchHit } from '../../../shared/wire/kinds.ts';
import type { SacSearchHit } from '../../../shared/wire/sac.ts';
import type { SpexSearchHit } from '../../../shared/wire/spex.ts';
import { Link } from '../router/Router.tsx';
import { entryPath, sacRoomEntryPath, sacRoomPath, sacSeatPath, spexItemPath, spexSessionPath } from '../router/routes.ts';
import { projectName, shortId } from '../sessions/sessionTree.ts';
import { VerbatimText } from '../text/VerbatimText.tsx';
import { Time } from '../time/Time.tsx';
import { receivedOutcome, sentOutcome } from '../timeline/outcomeWords.ts';
import { OutcomeLabel } from '../timeline/OutcomeLabel.tsx';

/** A hit as its kind shows it; each opens its item in its place, in its own source's view. */
export function SearchHitRow({ hit }: { hit: SearchHit }) {
  if (hit.source.kind === 'spex') return <SpexHitRow hit={hit as SpexSearchHit} />;
  if (hit.source.kind === 'sac') return <SacHitRow hit={hit as SacSearchHit} />;
  return <RecordHitRow hit={hit as RecordSearchHit} />;
}

/** The key a list of hits keeps a hit by: its source and its place there. */
export function hitKey(hit: SearchHit): string {
  if (hit.source.kind === 'spex') return `${hit.source.id}/${(hit as SpexSearchHit).key}`;
  if (hit.source.kind === 'sac') return `${hit.source.id}/${(hit as SacSearchHit).item}`;
  const record = hit as RecordSearchHit;
  return `${hit.source.id}/${record.sessionId}/${record.file}`;
}

function SpexHitRow({ hit }: { hit: SpexSearchHit }) {
  const from =
    hit.from === null ? null : hit.from.by === 'person' ? 'a person' : hit.from.by === 'session' ? hit.from.sessionId : hit.from.as;
  return (
    <li className={`search-hit hit-${hit.kind === 'sent' ? 'sent' : 'received'}`}>
      <div className="search-hit-head">
        <Link to={spexItemPath(hit.source.id, hit.sessionId, hit.key)} className="entry-time" aria-label={`Open line ${hit.key} in spex session ${hit.sessionId}`}>
          <Time at={hit.at} />
        </Link>
        <span className="badge badge-source">spex</span>
        <span className={`side side-${hit.kind}`}>{hit.kind}</span>
        {from !== null && <span>from {from}</span>}
        {hit.kind === 'sent' && hit.receiver !== null && <span className="muted">from the receiver's log ({shortId(hit.receiver)})</span>}
        <span className="muted">
          session{' '}
          <Link to={spexSessionPath(hit.source.id, hit.sessionId)}>
            <code title={hit.sessionId}>{shortId(hit.sessionId)}</code>
          </Link>{' '}
          · <span title={hit.project}>{projectName(hit.project)}</span>
        </span>
      </div>
      {hit.snippet !== null && <Snippet snippet={hit.snippet} match={hit.match} />}
    </li>
  );
}

function SacHitRow({ hit }: { hit: SacSearchHit }) {
  return (
    <li className="search-hit hit-sent">
      <div className="search-hit-head">
        <Link to={sacRoomEntryPath(hit.source.id, hit.room, hit.item)} className="entry-time" aria-label={`Open entry by ${hit.seat} in room ${hit.room}, at ${hit.time}`}>
          <Time at={hit.at} />
        </Link>
        <span className="badge badge-source">sac</span>
        <span title={hit.typeWord === hit.entryType ? undefined : `written as ${hit.typeWord}`}>{hit.typeWord}</span>
        <span>
          by <Link to={sacSeatPath(hit.source.id, hit.seat)}>{hit.seat}</Link> in <Link to={sacRoomPath(hit.source.id, hit.room)}>#{hit.room}</Link>
        </span>
        <span>to {hit.to.length === 0 ? 'everyone' : hit.to.join(', ')}</span>
      </div>
      <Snippet snippet={hit.snippet} match={hit.match} />
    </li>
  );
}

function RecordHitRow({ hit }: { hit: RecordSearchHit }) {
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
