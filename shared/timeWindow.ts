// A search's window of time (`from`, `to`: ISO instants, both inclusive), as every kind's search
// applies it to the times its store wrote (the record's, spex's, sac's): as instants, never as
// text (`…T09:00:00Z` is before `…T09:00:00.500Z`, which a comparison of the two strings denies,
// and so is `…T10:00:00+02:00`), and a time that names no instant is in no window but the whole
// of time.

/**
 * Whether an instant (epoch ms; NaN for a time that names none) is in the window: the window read
 * once, for a search's many times. Null for no window, so a caller reads no time it need not.
 */
export function timeWindowOf(window: { from?: string | undefined; to?: string | undefined }): ((instant: number) => boolean) | null {
  if (window.from === undefined && window.to === undefined) return null;
  const from = window.from === undefined ? -Infinity : Date.parse(window.from);
  const to = window.to === undefined ? Infinity : Date.parse(window.to);
  // NaN is in no window: each comparison with it is false.
  return (instant) => instant >= from && instant <= to;
}

/**
 * Whether something known only to lie between two instants (epoch ms; -Infinity or Infinity where
 * a side is open) may be in the window: a line not read, between the lines around it. Null for no
 * window.
 */
export function timeSpanWindowOf(window: { from?: string | undefined; to?: string | undefined }): ((first: number, last: number) => boolean) | null {
  if (window.from === undefined && window.to === undefined) return null;
  const from = window.from === undefined ? -Infinity : Date.parse(window.from);
  const to = window.to === undefined ? Infinity : Date.parse(window.to);
  return (first, last) => !(last < from) && !(first > to);
}
