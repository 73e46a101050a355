import type { ReactNode } from 'react';
import { Folded, TALL_ENOUGH } from '../app/Folded.tsx';

// What a conversation's header says of it beyond its name and its id (a spex session's branch,
// project and lines; a seat's liveness, focus, presence and rooms), folded under a summary of its
// chief facts where the window is not tall enough, as a record session's activity is: at a
// laptop's 800 px these facts left a spex session's rows some 350 px and scrolled a seat's header.
// The reader's choice holds on the next page in the tab, whatever its kind.

export function FoldedFacts({ about, summary, children }: { about: string; summary: ReactNode; children: ReactNode }) {
  return (
    <Folded className="facts-fold" openFrom={TALL_ENOUGH} keptAs="facts" summary={<>About this {about}<span className="muted"> ({summary})</span></>}>
      {children}
    </Folded>
  );
}
