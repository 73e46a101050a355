import type { ReactNode } from 'react';
import { Folded, TALL_ENOUGH } from '../app/Folded.tsx';

// What a conversation's header says of it that the reader does not need to go on from it (a spex
// session's branch, lines and source; a seat's project, last seen, liveness, focus and presence),
// folded under a summary of its chief facts where the window is not tall enough, as a record
// session's activity is: at a laptop's 800 px these facts left a spex session's rows some 350 px
// and scrolled a seat's header. What names the conversation and where it leads (its project, its
// rooms, its other stores) stays above the fold. The reader's choice holds on the next page in
// the tab, whatever its kind.

export function FoldedFacts({ about, summary, children }: { about: string; summary: ReactNode; children: ReactNode }) {
  return (
    <Folded className="facts-fold" openFrom={TALL_ENOUGH} keptAs="facts" summary={<>About this {about}<span className="muted"> ({summary})</span></>}>
      {children}
    </Folded>
  );
}
