import { countOf } from '../text/count.ts';

// A conversation's degraded evidence in a table's cell: its count, which opens to the reasons in
// its store's words (one a line), by a click, a key or a touch, not only by a pointer's hover.

/** `count`: how many reasons the store gave; `words`: their words, one a line (a kind's describeDegraded). */
export function DegradedReasons({ count, words }: { count: number; words: string }) {
  const reasons = words.split('\n').filter((reason) => reason !== '');
  return (
    <details className="degraded-reasons">
      <summary>
        <span className="badge badge-degraded">degraded: {countOf(count, 'reason')}</span>
      </summary>
      <ul>
        {reasons.map((reason, i) => (
          <li key={i}>{reason}</li>
        ))}
      </ul>
    </details>
  );
}
