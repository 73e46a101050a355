import type { SnippetCut } from '../../../shared/wire/common.ts';
import type { SearchHit } from '../../../shared/wire/kinds.ts';
import { VerbatimText } from '../text/VerbatimText.tsx';

/**
 * A hit's text around its match, verbatim, the match marked. Where the text goes on before or
 * after it, a mark says so beside it, drawn by CSS: it is no character of the text, and a copy of
 * the snippet holds none.
 */
export function Snippet({ snippet, match, cut }: { snippet: string; match: SearchHit['match']; cut: SnippetCut }) {
  const text =
    match === null || match.end <= match.start ? (
      <VerbatimText text={snippet} inline />
    ) : (
      <>
        <VerbatimText text={snippet.slice(0, match.start)} inline />
        <mark>
          <VerbatimText text={snippet.slice(match.start, match.end)} inline />
        </mark>
        <VerbatimText text={snippet.slice(match.end)} inline />
      </>
    );
  return (
    <div className="snippet">
      {cut.before && <CutMark words="the text goes on before this" />}
      {text}
      {cut.after && <CutMark words="the text goes on after this" />}
    </div>
  );
}

function CutMark({ words }: { words: string }) {
  return <span className="snippet-cut" data-mark="…" role="img" aria-label={words} title={words} />;
}
