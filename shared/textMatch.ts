import { RE2JS } from 're2js';
import type { SnippetCut } from './wire/common.ts';

// Matching a search's text query against a text, for every kind of store: a substring or an RE2
// pattern (linear time), case-insensitive unless asked, and a verbatim snippet around the match.

export type TextMatcher = (text: string) => { start: number; end: number } | null;

/**
 * A matcher for a text query: a substring, or a regular expression. Returns an error message
 * for a regular expression that does not compile, or that needs what a linear-time engine
 * cannot do. Offsets are UTF-16 indices into the text, as a snippet needs.
 */
export function createTextMatcher(query: string, options: { regex: boolean; matchCase: boolean }): TextMatcher | { error: string } {
  if (options.regex) return createPatternMatcher(query, options.matchCase);
  if (options.matchCase) {
    return (text) => {
      const start = text.indexOf(query);
      return start === -1 ? null : { start, end: start + query.length };
    };
  }
  const needle = query.toLowerCase();
  return (text) => {
    const haystack = text.toLowerCase();
    if (haystack.length === text.length) {
      const start = haystack.indexOf(needle);
      return start === -1 ? null : { start, end: start + needle.length };
    }
    // Lower-casing made the text longer (İ becomes i and a combining dot): the match is found in
    // the lower case, and its ends are taken back to the characters of the text they came from.
    const start = haystack.indexOf(needle);
    if (start === -1) return null;
    const origins = lowerCaseOrigins(text);
    const last = origins[start + needle.length - 1]!;
    return { start: origins[start]!, end: last + (text.codePointAt(last)! > 0xffff ? 2 : 1) };
  };
}

/** For each UTF-16 unit of `text.toLowerCase()`, the index in `text` of the character it came from. */
function lowerCaseOrigins(text: string): number[] {
  const origins: number[] = [];
  for (let i = 0; i < text.length; ) {
    const width = text.codePointAt(i)! > 0xffff ? 2 : 1;
    // One character's lower case has the same length alone as within the text: only the final
    // sigma depends on its neighbours, and it stays one unit either way.
    const lowered = text.slice(i, i + width).toLowerCase().length;
    for (let j = 0; j < lowered; j++) origins.push(i);
    i += width;
  }
  return origins;
}

// A pattern from the search box runs against every text in the record, so it runs on RE2
// (re2js, pure JavaScript): time linear in the text, whatever the pattern. A backtracking engine
// takes exponential time on `(a+)+$`, and no other request is answered meanwhile.
function createPatternMatcher(pattern: string, matchCase: boolean): TextMatcher | { error: string } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(fromJavaScriptEscapes(pattern), matchCase ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    return { error: describePatternError(pattern, error as Error) };
  }
  return (text) => {
    const found = compiled.matcher(text);
    return found.find() ? { start: found.start(), end: found.end() } : null;
  };
}

const LINEAR_ONLY = 'search patterns run in linear time (RE2 syntax), which cannot express them';

function describePatternError(pattern: string, error: Error): string {
  const unsupported = findUnsupported(pattern);
  if (unsupported !== null) return `${unsupported} are not supported: ${LINEAR_ONLY}`;
  // re2js names the pattern as it compiled it, with the case-insensitive flag it was given.
  return `not a regular expression: ${error.message.replace(/^error parsing regexp: /, '').replace('`(?i)', '`')}`;
}

/** What a pattern asks for that RE2 does not do: backreferences and lookaround. */
function findUnsupported(pattern: string): string | null {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if ((next >= '1' && next <= '9') || (next === 'k' && pattern[i + 2] === '<')) return 'backreferences (\\1, \\k<name>)';
      i++;
    } else if (c === '(' && /^\(\?(=|!|<=|<!)/.test(pattern.slice(i, i + 4))) {
      return 'lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…))';
    }
  }
  return null;
}

/**
 * RE2 writes a code point `\x{…}`; JavaScript writes `\uXXXX`, `\u{…}` and surrogate pairs
 * `\uD83D\uDE00`. A pattern written for JavaScript is read as meant.
 */
function fromJavaScriptEscapes(pattern: string): string {
  if (!pattern.includes('\\u')) return pattern;
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const escape = /^\\u(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))/.exec(pattern.slice(i, i + 12));
    if (escape === null) {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    let code = Number.parseInt(escape[1] ?? escape[2]!, 16);
    i += escape[0].length - 1;
    const low = escape[2] !== undefined && code >= 0xd800 && code <= 0xdbff ? /^\\u(d[c-f][0-9a-f]{2})/i.exec(pattern.slice(i + 1, i + 7)) : null;
    if (low !== null) {
      code = 0x10000 + ((code - 0xd800) << 10) + (Number.parseInt(low[1]!, 16) - 0xdc00);
      i += low[0].length;
    }
    out += `\\x{${code.toString(16)}}`;
  }
  return out;
}

const SNIPPET_CONTEXT = 80;

/** Up to ~200 characters of the text around a match, cut only between characters, and whether the text goes on before and after it. */
export function snippetAround(text: string, match: { start: number; end: number } | null): { snippet: string; match: { start: number; end: number } | null; cut: SnippetCut } {
  if (match === null) {
    const end = safeEnd(text, Math.min(text.length, 2 * SNIPPET_CONTEXT));
    return { snippet: text.slice(0, end), match: null, cut: { before: false, after: end < text.length } };
  }
  const from = safeStart(text, Math.max(0, match.start - SNIPPET_CONTEXT));
  const to = safeEnd(text, Math.min(text.length, Math.max(match.end, match.start + 40) + SNIPPET_CONTEXT));
  return { snippet: text.slice(from, to), match: { start: match.start - from, end: Math.min(match.end, to) - from }, cut: { before: from > 0, after: to < text.length } };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function safeStart(text: string, index: number): number {
  return index > 0 && isLowSurrogate(text.charCodeAt(index)) ? index - 1 : index;
}

function safeEnd(text: string, index: number): number {
  return index < text.length && isLowSurrogate(text.charCodeAt(index)) ? index + 1 : index;
}
