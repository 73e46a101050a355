import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SpexItem } from '../../../shared/wire/spex.ts';
import { CopyButton } from '../text/CopyButton.tsx';
import { countOf } from '../text/count.ts';
import { utf8Length } from '../text/markers.ts';
import { VerbatimText } from '../text/VerbatimText.tsx';
import { fetchSpexItem, spexKeys } from './spexApi.ts';
import { clipForDisplay } from '../text/clip.ts';

// A text of a spex line (a message, a declaration's note, a line shown raw), verbatim. Long texts
// are clipped for scanning, never shortened: "show all" gives the whole text from the item
// endpoint, and copy always copies the whole text as written. Where spex's reply hint begins, the
// hint is marked as spex's; it stays in the text, as spex stored it.

/** What of an item is the text shown: its message text, its note, or its line as written. */
type TextOf = (item: SpexItem) => { text: string | null; hintAt: number | null };

type Props = {
  source: string;
  sessionId: string;
  itemKey: string;
  text: string;
  /** The whole text's size in bytes, when the page holds only its first 64 KiB. */
  clippedBytes: number | undefined;
  hintAt: number | null;
  textOf: TextOf;
  copyLabel: string;
};

export function SpexText({ source, sessionId, itemKey, text, clippedBytes, hintAt, textOf, copyLabel }: Props) {
  const [showAll, setShowAll] = useState(false);
  const serverClipped = clippedBytes !== undefined;
  const full = useQuery({
    queryKey: spexKeys.item(source, sessionId, itemKey),
    queryFn: ({ signal }) => fetchSpexItem(source, sessionId, itemKey, signal),
    enabled: showAll && serverClipped,
  });
  const fromItem = full.data === undefined ? null : textOf(full.data.item);
  const wholeText = serverClipped ? (fromItem?.text ?? null) : text;
  const wholeHint = serverClipped ? (fromItem?.hintAt ?? null) : hintAt;
  const bytes = clippedBytes ?? utf8Length(text);
  // What the page holds of a clipped text is itself 64 KiB: it is clipped for display like any long text.
  const clipped = clipForDisplay(text) ?? (serverClipped ? text : null);
  const whole = showAll && wholeText !== null;
  const showing = whole ? wholeText : (clipped ?? text);
  const hint = whole ? wholeHint : hintAt;
  const hintShown = hint !== null && hint < showing.length;

  const getWholeText = async () => {
    if (!serverClipped) return text;
    const answer = await fetchSpexItem(source, sessionId, itemKey);
    const got = textOf(answer.item).text;
    if (got === null) throw new Error('the line no longer holds its text');
    return got;
  };

  return (
    <div className="message-text">
      <div className="entry-text">
        <VerbatimText text={hintShown ? showing.slice(0, hint) : showing} inline />
        {hintShown && (
          <span className="spex-hint" title="spex's reply hint: `spex session send` appends it, and it is stored with the text">
            <VerbatimText text={showing.slice(hint)} inline />
          </span>
        )}
      </div>
      <div className="text-actions">
        {hint !== null && <span className="spex-hint-label">ends with spex's reply hint{hintShown ? ' (marked)' : ''}</span>}
        {!whole && clipped !== null && (
          <button type="button" className="small" onClick={() => setShowAll(true)} disabled={showAll && full.isFetching}>
            {showAll && full.isFetching ? 'loading…' : `show all (${countOf(bytes, 'byte')})`}
          </button>
        )}
        {whole && clipped !== null && (
          <button type="button" className="small" onClick={() => setShowAll(false)}>
            show less
          </button>
        )}
        {full.error !== null && <span className="error">could not load the whole text: {full.error.message}</span>}
        <CopyButton getText={getWholeText} label={copyLabel} children="Copy text" />
        <span className="text-size">{countOf(bytes, 'byte')}</span>
      </div>
    </div>
  );
}

/** Which text of an item each box shows, read from the item endpoint's whole answer. */
export const messageTextOf: TextOf = (item) => (item.type === 'received' || item.type === 'sent' ? { text: item.text, hintAt: item.hintAt } : { text: null, hintAt: null });
export const noteOf: TextOf = (item) => ({ text: item.type === 'declaration' ? item.note : null, hintAt: null });
export const rawOf: TextOf = (item) => ({ text: item.type === 'evidence' || item.type === 'unknown-kind' ? item.raw : null, hintAt: null });
