// `spex session send` run by a session appends a hint to the text it sends, and the hint is stored
// with the text (spex-timeline-format: Lines): a blank line, then
//   — from session "<label>" (<id>). To reply: spex session send <id> "<your reply>"
// or `— from session <id>.`, with ` on machine <m>` and `--ssh <address>` for a peer machine, and
// `— from <label> (<id>).` in older versions. The text stays whole; the UI may mark the hint.

/** The hint as spex's client writes it, from its blank line to the end of the text. */
const HINT = /^\n\n— from [^\n]+?\. To reply: spex session send (?:--ssh \S+ )?\S+ "<your reply>"\s*$/;

const OPENING = '\n\n— from ';

/** No label makes a hint this long; a longer tail is a text that happens to hold the words. */
const LONGEST_HINT = 4096;

/**
 * Where spex's reply hint begins in a text (its blank line included, so `text.slice(0, at)` is
 * what the sender typed), or null when the text does not end with one. Looks only at the end of
 * the text, so a long text costs no more than a short one.
 */
export function findReplyHint(text: string): number | null {
  const from = Math.max(0, text.length - LONGEST_HINT);
  const end = text.slice(from);
  for (let at = end.lastIndexOf(OPENING); at !== -1; at = at === 0 ? -1 : end.lastIndexOf(OPENING, at - 1)) {
    if (HINT.test(end.slice(at))) return from + at;
  }
  return null;
}
