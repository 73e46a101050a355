import { countOf } from '../text/count.ts';

// A conversation's degraded evidence in a table's cell: its count, which opens to the reasons in
// its store's words (one a line), by a click, a key or a touch, not only by a pointer's hover.

export function DegradedReasons({ words }: { words: string }) {
  const reasons = words.split('\n').filter((reason) => reason !== '');
  return (
    <details className="degraded-reasons">
      <summary>
        <span className="badge badge-degraded">degraded: {countOf(reasons.length, 'reason')}</span>
      </summary>
      <ul>
        {reasons.map((reason, i) => (
          <li key={i}>{reason}</li>
        ))}
      </ul>
    </details>
  );
}
