import type { Virtualizer } from '@tanstack/react-virtual';

// The keys that walk a followed list (a conversation's entries, the live view's rows), the same
// in each: j and k (↓ ↑) a step, from the rows on screen when none is selected; Home the first;
// End and G the newest, following again.

/** Where a step goes: one on from the selected row, or, with none, the first row on screen (down) or the last (up). */
export function stepFrom(selected: number | null, delta: number, virtualizer: Virtualizer<HTMLDivElement, Element>, count: number): number {
  if (selected !== null) return selected + delta;
  const onScreen = virtualizer.getVirtualItems();
  return delta > 0 ? (onScreen[0]?.index ?? 0) : (onScreen.at(-1)?.index ?? count - 1);
}

/** The bindings for useKeys. */
export function walkKeys({ step, first, newest }: { step(delta: number): void; first(): void; newest(): void }): Record<string, () => void> {
  return { j: () => step(1), ArrowDown: () => step(1), k: () => step(-1), ArrowUp: () => step(-1), Home: first, End: newest, G: newest };
}
