// A list's order kept from before, as a list under the reader's pointer keeps it (the sidebar, the
// map's list of edges): a live write does not move the row about to be clicked. What was not
// there then goes last, in the order it comes in (a sort is stable), so nothing shown moves down.

/** Each value's place in the order kept; a value not in it, after all of them. */
export function rankIn<T>(kept: readonly T[]): (value: T) => number {
  const ranks = new Map(kept.map((value, index) => [value, index]));
  return (value) => ranks.get(value) ?? kept.length;
}
