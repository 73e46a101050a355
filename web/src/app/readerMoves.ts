// What a reader does to move a scrolling list themselves (a wheel, a touch, a press, a key in
// it), as a list that follows something (a link's item, the open session) listens for it, to stop
// following once the reader takes over.

const MOVES = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

/** Calls `moved` on each of the reader's moves in `element`; returns what stops listening. */
export function onReaderMoves(element: HTMLElement, moved: () => void): () => void {
  for (const type of MOVES) element.addEventListener(type, moved, { passive: true });
  return () => {
    for (const type of MOVES) element.removeEventListener(type, moved);
  };
}
