import type { ReactNode } from 'react';
import { Folded, TALL_ENOUGH } from '../app/Folded.tsx';
import './marks.css';

// What a conversation's cards would otherwise repeat on each card ("one event seen from two
// sides…", "unknown evidence, not nothing"): said once per page in a legend, and marked on each
// card by a short mark that carries the whole sentence on hover. One list for every kind. The
// record's statement that correlation is not claimed is not one of these: it stays whole on every
// received entry, where a reader might otherwise pair it.

const MARKS = {
  'two-sides': {
    mark: 'two sides',
    sentence: "One event seen from two sides: the sender's Sent and the receiver's Received show the same line of the receiver's log, joined by the id the store wrote in it, never by text or time.",
  },
  unknown: {
    mark: 'unknown evidence',
    sentence: 'Unknown evidence, not nothing: something was or may have been written here that cannot be read or vouched for. It is shown in its place, never taken as silence.',
  },
} as const;

type MarkName = keyof typeof MARKS;

/** A card's short mark: the whole sentence on hover and to assistive technology. */
export function Mark({ name }: { name: MarkName }) {
  const { mark, sentence } = MARKS[name];
  return (
    <abbr className={`page-mark page-mark-${name}`} title={sentence} aria-label={sentence} data-mark-name={name}>
      {mark}
    </abbr>
  );
}

/**
 * What the marks of a page mean, said once, above its cards; where the window is short, folded
 * under the marks it explains (each mark still says its sentence on hover), as a page's facts are.
 */
export function MarksLegend({ names, children }: { names: readonly MarkName[]; children?: ReactNode }) {
  if (names.length === 0) return null;
  return (
    <aside className="marks-legend" aria-label="What the marks on the cards mean">
      <Folded
        className="marks-fold"
        openFrom={TALL_ENOUGH}
        keptAs="marks"
        summary={
          <>
            What the marks mean:{' '}
            {names.map((name, index) => (
              <span key={name}>
                {index > 0 && ', '}
                <span className="page-mark">{MARKS[name].mark}</span>
              </span>
            ))}
          </>
        }
      >
        {names.map((name) => (
          <p key={name}>
            <span className="page-mark" aria-hidden="true">
              {MARKS[name].mark}
            </span>{' '}
            {MARKS[name].sentence}
          </p>
        ))}
        {children}
      </Folded>
    </aside>
  );
}
