// Where a reader left the live view while it was paused, kept with its history entry: Back to it
// (from an item a row opened, say) finds it paused at the row it was at, with what came meanwhile
// counted as new, not followed to its end; and the row chosen (by the keys, or the one opened)
// still chosen, paused or not. Kept for this page's life only, as its rows are.

/** A paused view's place: the row at the top of its list (by the feed's row id), how far into it, and the last row the reader had. */
export type LivePlace = { topId: number; intoRow: number; seenId: number | string | null };

const places = new Map<string, LivePlace>();
/** A row chosen, by the feed's row id; `newest` when it was the newest item, the list following (its choice goes on to newer rows). */
export type LiveChoice = { id: number; newest: boolean };

/** The row chosen in each history entry's view. */
const chosen = new Map<string, LiveChoice>();

/** The history entry's own name for the live view's place, given it the first time it is asked. */
export function liveEntryKey(): string {
  const state: unknown = window.history.state;
  const kept = typeof state === 'object' && state !== null ? (state as { liveKey?: unknown }).liveKey : undefined;
  if (typeof kept === 'string') return kept;
  const key = crypto.randomUUID();
  window.history.replaceState({ ...(typeof state === 'object' ? state : {}), liveKey: key }, '');
  return key;
}

export function placeOf(key: string): LivePlace | null {
  return places.get(key) ?? null;
}

/** Keeps a paused view's place; null (following) forgets it. */
export function keepPlace(key: string, place: LivePlace | null): void {
  if (place === null) places.delete(key);
  else places.set(key, place);
}

export function chosenOf(key: string): LiveChoice | null {
  return chosen.get(key) ?? null;
}

/** Keeps the row chosen as the view goes; null (none) forgets it. */
export function keepChosen(key: string, choice: LiveChoice | null): void {
  if (choice === null) chosen.delete(key);
  else chosen.set(key, choice);
}
