import { useEffect, useState, type ReactNode } from 'react';
import { countOf } from '../text/count.ts';

// A view's filters under their summary: folded on a phone, so that what they filter has the
// screen; open from 640 px, or with one applied (it says how many). A wider window, or an address
// that applies one, opens them; folding them again is the reader's. Used by every view whose
// filters take a phone's screen (the live view, a session's page across the stores).

const OPEN_FROM = '(min-width: 640px)';

export function FoldedFilters({ applied, children }: { applied: number; children: ReactNode }) {
  const [open, setOpen] = useState(() => window.matchMedia(OPEN_FROM).matches || applied > 0);
  const anyApplied = applied > 0;
  useEffect(() => {
    if (anyApplied) setOpen(true);
  }, [anyApplied]);
  useEffect(() => {
    const wide = window.matchMedia(OPEN_FROM);
    const widened = () => {
      if (wide.matches) setOpen(true);
    };
    wide.addEventListener('change', widened);
    return () => wide.removeEventListener('change', widened);
  }, []);
  return (
    <details className="folded-filters" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        Filters{anyApplied && <span className="muted"> ({countOf(applied, 'applied', 'applied')})</span>}
      </summary>
      {children}
    </details>
  );
}
