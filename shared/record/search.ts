import type { EntryFacts } from './entry.ts';

// Search over the record: which message entries a query selects. Pure: the shell reads texts
// from disk only for entries that pass the filters on what the index already holds.

export type SearchFilters = {
  side?: 'sent' | 'received' | undefined;
  outcome?: string | undefined;
  refused?: boolean | undefined;
  peer?: string | undefined;
  project?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
};

export type MessageFacts = Extract<EntryFacts, { kind: 'message' }>;

/** Whether a message entry passes the filters; `project` is its session's working directory. */
export function passesFilters(facts: MessageFacts, project: string | null, filters: SearchFilters): boolean {
  if (filters.side !== undefined && facts.side !== filters.side) return false;
  if (filters.outcome !== undefined && facts.outcome !== filters.outcome) return false;
  if (filters.refused === true && !(facts.side === 'sent' && facts.isQueued === false)) return false;
  if (filters.project !== undefined && project !== filters.project && facts.cwd !== filters.project) return false;
  if (filters.peer !== undefined && filters.peer !== '') {
    const needle = filters.peer.toLowerCase();
    const as = facts.peerAs?.toLowerCase() ?? '';
    const id = facts.peerSessionId?.toLowerCase() ?? '';
    if (!as.includes(needle) && !id.includes(needle)) return false;
  }
  // Times compare as instants: `at` is ISO 8601 UTC to the millisecond (record-spec: timeFormat).
  if (filters.from !== undefined && Date.parse(facts.at) < Date.parse(filters.from)) return false;
  if (filters.to !== undefined && Date.parse(facts.at) > Date.parse(filters.to)) return false;
  return true;
}

export type TextMatcher = (text: string) => { start: number; end: number } | null;

/**
 * A matcher for a text query: a substring, or a regular expression. Returns an error message
 * for a regular expression that does not compile.
 */
export function createTextMatcher(query: string, options: { regex: boolean; matchCase: boolean }): TextMatcher | { error: string } {
  if (options.regex) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(query, options.matchCase ? 'u' : 'iu');
    } catch (error) {
      return { error: `not a regular expression: ${(error as Error).message}` };
    }
    return (text) => {
      const m = pattern.exec(text);
      return m === null ? null : { start: m.index, end: m.index + m[0].length };
    };
  }
  const needle = options.matchCase ? query : query.toLowerCase();
  return (text) => {
    const haystack = options.matchCase ? text : text.toLowerCase();
    // toLowerCase can change a string's length for a few characters; search the original
    // then, so that offsets stay true to the text as written.
    const start = haystack.length === text.length ? haystack.indexOf(needle) : text.indexOf(query);
    return start === -1 ? null : { start, end: start + query.length };
  };
}

const SNIPPET_CONTEXT = 80;

/** Up to ~200 characters of the text around a match, cut only between characters. */
export function snippetAround(text: string, match: { start: number; end: number } | null): { snippet: string; match: { start: number; end: number } | null } {
  if (match === null) {
    const end = safeEnd(text, Math.min(text.length, 2 * SNIPPET_CONTEXT));
    return { snippet: text.slice(0, end), match: null };
  }
  const from = safeStart(text, Math.max(0, match.start - SNIPPET_CONTEXT));
  const to = safeEnd(text, Math.min(text.length, Math.max(match.end, match.start + 40) + SNIPPET_CONTEXT));
  return { snippet: text.slice(from, to), match: { start: match.start - from, end: Math.min(match.end, to) - from } };
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
