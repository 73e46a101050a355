import type { SearchHit } from '../../../shared/wire/kinds.ts';
import { VerbatimText } from '../text/VerbatimText.tsx';

/** A hit's text around its match, verbatim, the match marked. */
export function Snippet({ snippet, match }: { snippet: string; match: SearchHit['match'] }) {
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
