import type { ReactNode } from 'react';
import { Folded } from '../app/Folded.tsx';
import { countOf } from '../text/count.ts';

// A view's filters under their summary (app/Folded.tsx): folded on a phone, open from
// 640 px, or with one applied (it says how many). Used by every view whose filters take a
// phone's screen (the live view, a session's page across the stores, the search).

export function FoldedFilters({ applied, children }: { applied: number; children: ReactNode }) {
  const anyApplied = applied > 0;
  return (
    <Folded className="folded-filters" openWhen={anyApplied} summary={<>Filters{anyApplied && <span className="muted"> ({countOf(applied, 'applied', 'applied')})</span>}</>}>
      {children}
    </Folded>
  );
}
