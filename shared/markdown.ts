import type { LargeText, SnippetCut } from './wire/common.ts';

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
 * Markdown put under a heading of another document: every heading one level deeper (`by`), to
 * the sixth at most (a seventh `#` is no heading), except what is in a fenced block, a store's
 * text, which stays as written. A fence closes at a line of the same character, at least as long,
 * and nothing else (CommonMark); a block left open runs to the end, as a renderer reads it. The
 * exports write ATX headings only (`#`), at the start of a line: setext headings and headings in
 * a block quote are not looked for.
 */
export function deepenHeadings(markdown: string, by = 1): string {
  let fence: { char: string; length: number } | null = null;
  return markdown
    .split('\n')
    .map((line) => {
      const run = /^ {0,3}(`{3,}|~{3,})/.exec(line);
      if (fence !== null) {
        if (run !== null && run[1]![0] === fence.char && run[1]!.length >= fence.length && line.slice(run[0].length).trim() === '') fence = null;
        return line;
      }
      // A backtick fence's info string holds no backtick.
      if (run !== null && !(run[1]![0] === '`' && line.slice(run[0].length).includes('`'))) {
        fence = { char: run[1]![0]!, length: run[1]!.length };
        return line;
      }
      const heading = /^( {0,3})(#{1,6})(?=[ \t]|$)/.exec(line);
      return heading === null ? line : `${heading[1]}${'#'.repeat(Math.min(6, heading[2]!.length + by))}${line.slice(heading[0].length)}`;
    })
    .join('\n');
}

/** A search hit's snippet, verbatim in its block, with a line that says where its text goes on. */
export function snippetMarkdown(snippet: string, cut: SnippetCut): string {
  const goesOn = cut.before && cut.after ? 'before and after it' : cut.before ? 'before it' : cut.after ? 'after it' : null;
  return `${fencedBlock(snippet)}${goesOn === null ? '' : `\n(the text goes on ${goesOn})\n`}`;
}

/**
 * What inline code cannot show as it is: line breaks and other control characters (a code span
 * turns a line break into a space, and a reader would not see the others), characters that
 * reorder or hide the text around them, and lone halves of a pair.
 */
const NOT_SHOWN_INLINE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

/**
 * A short value from a store (a name, a peer, a file name) as inline code that reads as the
 * value: `` `claude-code` ``. Its backticks are longer than any run in it, and a space pads a
 * value that begins or ends with a backtick, so nothing in it ends the code early. A value that
 * holds a character inline code cannot show is written as a JSON string instead, with each such
 * character as its escape (`` `"two\nlines"` ``); an empty value says so.
 */
export function inlineValue(value: string): string {
  if (value === '') return '(empty)';
  NOT_SHOWN_INLINE.lastIndex = 0;
  if (NOT_SHOWN_INLINE.test(value)) {
    NOT_SHOWN_INLINE.lastIndex = 0;
    const escaped = JSON.stringify(value).replace(NOT_SHOWN_INLINE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return codeSpan(escaped);
  }
  return codeSpan(value);
}

function codeSpan(content: string): string {
  const ticks = '`'.repeat(longestBacktickRun(content) + 1);
  // CommonMark strips one space from each end of a code span that begins and ends with one (and
  // is not all spaces): a value that begins or ends with a backtick, or with spaces at both ends,
  // is padded so that what is stripped is the padding.
  const padded = content.startsWith('`') || content.endsWith('`') || (content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '');
  return padded ? `${ticks} ${content} ${ticks}` : `${ticks}${content}${ticks}`;
}

/**
 * What a transcript says of a large text (only its head is read for a page or an item): that its block was
 * read a piece at a time as it was exported, or, when it could not be, that only its head is shown.
 */
export function describeLargeMarkdown(large: LargeText, streamed: boolean): string {
  const size = `This ${large.holder} is ${large.bytes} bytes`;
  return streamed ? `- ${size}: its text is given whole, read a piece at a time as it was exported.` : `- ${size}, too large to read whole here: its text is shown up to its first ${large.shownBytes} bytes.`;
}
