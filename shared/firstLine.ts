// The first line of a text, as a live row shows it: verbatim, cut at a length and never inside a
// surrogate pair. Every kind's live items use it.

import { LIVE_FIRST_LINE_CHARS } from './wire/common.ts';

/** The first line of a text, verbatim, cut at LIVE_FIRST_LINE_CHARS without splitting a pair. */
export function firstLineOf(text: string): string {
  const newline = text.indexOf('\n');
  const line = newline === -1 ? text : text.slice(0, newline);
  if (line.length <= LIVE_FIRST_LINE_CHARS) return line;
  const last = line.charCodeAt(LIVE_FIRST_LINE_CHARS - 1);
  return line.slice(0, last >= 0xd800 && last <= 0xdbff ? LIVE_FIRST_LINE_CHARS - 1 : LIVE_FIRST_LINE_CHARS);
}
