// Names shown where room is short (a session id, a seat, a peer): whole where they fit, else cut in
// their middle (`5e55a0a1-…-aaaa0001`), the whole on hover. Cutting only the end made two ids that
// share a prefix look the same, so names shown together are cut apart: never so that two differ
// only in what was cut.

const MARK = '…';

/** A name cut in its middle to at most `max` characters (code points, never half a pair). */
function clipMiddle(name: string, max: number): string {
  const chars = Array.from(name);
  if (chars.length <= max) return name;
  const keep = Math.max(max - 1, 2);
  const head = Math.ceil(keep / 2);
  return `${chars.slice(0, head).join('')}${MARK}${chars.slice(chars.length - (keep - head)).join('')}`;
}

/**
 * How each of `names` is shown beside the others: cut in its middle to `max` characters, unless
 * that would show it as another is shown; then whole.
 */
export function clipApart(names: Iterable<string>, max: number): Map<string, string> {
  const shown = new Map<string, string>();
  for (const name of names) shown.set(name, clipMiddle(name, max));
  for (;;) {
    const byShown = new Map<string, string[]>();
    for (const [name, text] of shown) byShown.set(text, [...(byShown.get(text) ?? []), name]);
    let changed = false;
    for (const [text, alike] of byShown) {
      if (alike.length < 2) continue;
      // Two names shown alike: each that was cut is shown whole (whole names are all distinct).
      for (const name of alike) {
        if (name !== text) {
          shown.set(name, name);
          changed = true;
        }
      }
    }
    if (!changed) return shown;
  }
}
