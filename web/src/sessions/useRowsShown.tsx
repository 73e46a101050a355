import { useState } from 'react';

/**
 * Rows shown at first, and added by each "show more": a project or the overview can hold
 * thousands of conversations, and live notices change the list several times a second.
 */
const ROWS_AT_A_TIME = 200;

/** How many of `total` rows a table shows, and the button that shows more, saying how many are not shown. */
export function useRowsShown(total: number) {
  const [shown, setShown] = useState(ROWS_AT_A_TIME);
  const hidden = total - shown;
  const more =
    hidden > 0 ? (
      <button type="button" className="show-more" onClick={() => setShown((old) => old + ROWS_AT_A_TIME)}>
        Show {Math.min(hidden, ROWS_AT_A_TIME)} more ({hidden.toLocaleString('en')} not shown)
      </button>
    ) : null;
  return { shown, more };
}
