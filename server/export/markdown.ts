// Markdown for exported transcripts, of any kind. A text from a store is never Markdown: it goes
// in a fenced block (or inline code) that nothing in the text can close, so it reads verbatim.

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return longest;
}

/**
 * A fenced block holding `text` as it is; its fence is longer than any backtick run in it. The
 * block's content is the text and one line break, whether or not the text ends with one.
 */
export function fencedBlock(text: string, info = 'text'): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${info}\n${text}\n${fence}\n`;
}

/**
 * A short value from a store (a name, a peer, a file name) as inline code: written as a JSON
 * string, so that a line break or a control character shows as its escape, and the value cannot end the code early.
 */
export function inlineValue(value: string): string {
  // A JSON string begins and ends with a quote, never a backtick: no padding is needed.
  const json = JSON.stringify(value);
  const ticks = '`'.repeat(longestBacktickRun(json) + 1);
  return `${ticks}${json}${ticks}`;
}
