import type { LargeText } from '../../../../shared/wire/common.ts';
import type { SpexItem } from '../../../../shared/wire/spex.ts';
import { TextActions, useClippedText } from '../../text/ClippedText.tsx';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { fetchSpexItem, spexItemKey } from './spexApi.ts';

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
  /** The line is too large to read: `text` is its head. */
  large: LargeText | undefined;
  hintAt: number | null;
  textOf: TextOf;
  copyLabel: string;
};

export function SpexText({ source, sessionId, itemKey, text, clippedBytes, large, hintAt, textOf, copyLabel }: Props) {
  const state = useClippedText({
    text,
    clippedBytes,
    large,
    queryKey: spexItemKey(source, sessionId, itemKey),
    fetchWhole: (signal) => fetchSpexItem(source, sessionId, itemKey, signal),
    textOf: (answer) => textOf(answer.item).text,
  });
  const { showing } = state;
  // The hint of the whole text, once it is shown from the item's answer.
  const hint = state.wholeAnswer !== null ? textOf(state.wholeAnswer.item).hintAt : hintAt;
  const hintShown = hint !== null && hint < showing.length;
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
      <TextActions state={state} copyLabel={copyLabel}>
        {hint !== null && <span className="spex-hint-label">ends with spex's reply hint{hintShown ? ' (marked)' : ''}</span>}
      </TextActions>
    </div>
  );
}

/** Which text of an item each box shows, read from the item endpoint's whole answer. */
export const messageTextOf: TextOf = (item) => (item.type === 'received' || item.type === 'sent' ? { text: item.text, hintAt: item.hintAt } : { text: null, hintAt: null });
export const noteOf: TextOf = (item) => ({ text: item.type === 'declaration' ? item.note : null, hintAt: null });
export const rawOf: TextOf = (item) => ({ text: item.type === 'evidence' || item.type === 'unknown-kind' ? item.raw : null, hintAt: null });
