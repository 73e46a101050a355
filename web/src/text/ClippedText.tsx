import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { LargeText } from '../../../shared/wire/common.ts';
import { KEEP_ENTRIES_AS_SENT } from '../api/client.ts';
import { CopyButton } from './CopyButton.tsx';
import { clipForDisplay } from './clip.ts';
import { countOf } from './count.ts';
import { utf8Length } from './markers.ts';

// A text of any kind's item, verbatim. Long texts are clipped for scanning, never shortened:
// "show all" gives the whole text, from the item's own answer when the page held only its first
// 64 KiB, and copy always copies the whole text as written. A text too large to read (the wire's
// `large`) has no more anywhere but in the export: its head is shown, with the mark that says so.
// One way for every kind's texts.

type Options<W> = {
  /** The text as the page holds it. */
  text: string;
  /** The whole text's size in bytes, when the page holds only its first 64 KiB. */
  clippedBytes: number | undefined;
  /** The text is too large to read for a page or an item: `text` is its head. */
  large?: LargeText | undefined;
  /** The item's whole answer, where the whole text is: its key, how to fetch it, and where in it the text is. */
  queryKey: readonly unknown[];
  fetchWhole(signal?: AbortSignal): Promise<W>;
  textOf(whole: W): string | null;
};

export function useClippedText<W>({ text, clippedBytes, large, queryKey, fetchWhole, textOf }: Options<W>) {
  const [showAll, setShowAll] = useState(false);
  const serverClipped = clippedBytes !== undefined;
  // An item's answer may carry a store's own fields: kept as sent.
  const full = useQuery({ queryKey, queryFn: ({ signal }) => fetchWhole(signal), enabled: showAll && serverClipped, ...KEEP_ENTRIES_AS_SENT });
  const wholeText = serverClipped ? (full.data === undefined ? null : textOf(full.data)) : text;
  const bytes = clippedBytes ?? utf8Length(text);
  // What the page holds of a clipped text is itself 64 KiB: it is clipped for display like any
  // long text (laying out 64 KiB of marked text in a row took some 60 ms while scrolling).
  const clipped = clipForDisplay(text) ?? (serverClipped ? text : null);
  const whole = showAll && wholeText !== null;
  return {
    /** The part shown: the whole text once asked for and here, else what scanning shows. */
    showing: whole ? wholeText : (clipped ?? text),
    /** The whole answer, once fetched: what else of the item the whole text needs (spex's reply hint). */
    wholeAnswer: whole && serverClipped ? (full.data ?? null) : null,
    whole,
    clipped: clipped !== null,
    bytes,
    large: large ?? null,
    showAll,
    setShowAll,
    loading: showAll && full.isFetching,
    error: full.error,
    async wholeText(): Promise<string> {
      if (!serverClipped) return text;
      const got = textOf(await fetchWhole());
      if (got === null) throw new Error('the item no longer holds its text');
      return got;
    },
  };
}

/** "show all (N bytes)" or "show less", copy, the size; `children` go before, `after` after. */
export function TextActions({ state, copyLabel, children, after }: { state: ReturnType<typeof useClippedText>; copyLabel: string; children?: ReactNode; after?: ReactNode }) {
  return (
    <div className="text-actions">
      {children}
      {!state.whole && state.clipped && (
        <button type="button" className="small" onClick={() => state.setShowAll(true)} disabled={state.loading}>
          {state.loading ? 'loading…' : `show all (${countOf(state.bytes, 'byte')})`}
        </button>
      )}
      {state.whole && state.clipped && (
        <button type="button" className="small" onClick={() => state.setShowAll(false)}>
          show less
        </button>
      )}
      {state.error !== null && <span className="error">could not load the whole text: {state.error.message}</span>}
      <CopyButton getText={() => state.wholeText()} label={state.large === null ? copyLabel : 'Copy the text shown'} children={state.large === null ? 'Copy text' : 'Copy what is shown'} />
      {state.large === null ? <span className="text-size">{countOf(state.bytes, 'byte')}</span> : <LargeTextMark large={state.large} />}
      {after}
    </div>
  );
}

/** The mark of a large text: its size, what of it is shown, where the whole is. */
function LargeTextMark({ large }: { large: LargeText }) {
  return (
    <span className="large-text-mark" role="note">
      This {large.holder} is {countOf(large.bytes, 'byte')}, too large to read here: shown up to its first {countOf(large.shownBytes, 'byte')}. The whole is in the
      conversation's NDJSON and Markdown downloads.
    </span>
  );
}
