import { parentPort } from 'node:worker_threads';
import { createTextMatcher, snippetAround, type TextMatcher } from '../../shared/textMatch.ts';
import { NO_SNIPPET_CUT, type SnippetCut } from '../../shared/wire/common.ts';
import { yieldToMainThread } from '../watch/threadPriority.ts';

// A search thread: reads the texts of a search's candidates and matches them, which the event
// loop would otherwise do while every other request waited. It knows no kind: each request names
// the module of the kind whose candidates it carries (its searcher), which says how to read one
// candidate's text. It reads, and never writes.

export type TextQuery = { q: string; regex: boolean; matchCase: boolean };

/** What a search found in one candidate: the text around the match, and what else its kind wants back. */
export type FoundText = { snippet: string | null; match: { start: number; end: number } | null; cut: SnippetCut; extra?: unknown };

/**
 * One candidate's text as read now. `read`: whether anything was read, for the search's count.
 * A null text matches no query; with no query it is a hit (with no snippet) only when `bare`.
 * `extra` is given back with a hit: what else its kind read of it. `head`: the text is the head of
 * a longer one (a large text searched as far as its first 4 MiB), so a snippet at its end is cut.
 */
type CandidateText = { read: boolean; text: string | null; bare?: boolean; head?: boolean; extra?: unknown };

/**
 * What a kind's searcher module exports as `readTexts`: each candidate's text, in order, read
 * from the store through the one safe open. Lazily: the search stops taking them at its last hit.
 */
export type TextReader<C> = (candidates: readonly C[]) => Iterable<CandidateText>;

/**
 * A slice of a search's candidates, newest first: read and match them until `wanted` hits, or
 * until `budgetMs` of this thread's time is spent (the search's budget left).
 */
export type SearchRequest = { type: 'search'; searcher: string; candidates: readonly unknown[]; query: TextQuery | null; wanted: number; budgetMs: number };

/**
 * `consumed`: candidates gone through, up to and including the last hit (all of them, when its
 * time ran out). `outOfTime`: it stopped because its budget was spent, with candidates left.
 */
export type SearchReply = { type: 'searched'; hits: (FoundText & { index: number })[]; consumed: number; scanned: number; outOfTime: boolean };

let matcherFor: { key: string; matcher: TextMatcher } | null = null;
const searchers = new Map<string, TextReader<unknown>>();

function matcherOf(query: TextQuery): TextMatcher {
  const key = JSON.stringify(query);
  if (matcherFor?.key !== key) {
    const matcher = createTextMatcher(query.q, { regex: query.regex, matchCase: query.matchCase });
    if ('error' in matcher) throw new Error(matcher.error);
    matcherFor = { key, matcher };
  }
  return matcherFor.matcher;
}

async function searcherOf(url: string): Promise<TextReader<unknown>> {
  let searcher = searchers.get(url);
  if (searcher === undefined) {
    const module = (await import(url)) as { readTexts?: TextReader<unknown> };
    if (typeof module.readTexts !== 'function') throw new Error(`${url} is no searcher: it exports no readTexts`);
    searchers.set(url, (searcher = module.readTexts));
  }
  return searcher;
}

async function searchSlice(request: SearchRequest): Promise<SearchReply> {
  const searcher = await searcherOf(request.searcher);
  const matcher = request.query === null ? null : matcherOf(request.query);
  const hits: SearchReply['hits'] = [];
  let scanned = 0;
  let consumed = 0;
  let outOfTime = false;
  const started = performance.now();
  const texts = searcher(request.candidates)[Symbol.iterator]();
  for (let index = 0; hits.length < request.wanted; index++) {
    // Checked between texts: one text that takes longer is stopped by its pool (searchPool.ts).
    if (performance.now() - started >= request.budgetMs) {
      outOfTime = index < request.candidates.length;
      break;
    }
    const next = texts.next();
    if (next.done === true) break;
    const { read, text, bare, head, extra } = next.value;
    consumed = index + 1;
    if (read) scanned++;
    if (text === null) {
      if (matcher === null && bare === true) hits.push({ index, snippet: null, match: null, cut: NO_SNIPPET_CUT, extra });
    } else {
      const match = matcher === null ? null : matcher(text);
      if (matcher === null || match !== null) {
        const around = snippetAround(text, match);
        hits.push({ index, ...around, cut: { before: around.cut.before, after: around.cut.after || head === true }, extra });
      }
    }
  }
  return { type: 'searched', hits, consumed, scanned, outOfTime };
}

// Run as the thread: started by a lane (threadLane.ts), one request at a time.
if (parentPort !== null) {
  // Under contention a search waits, never a page, a refusal or a notice: its budget then buys
  // fewer texts, and it says how many.
  yieldToMainThread();
  const port = parentPort;
  port.on('message', (request: SearchRequest) => {
    searchSlice(request).then(
      (reply) => port.postMessage(reply),
      (error: unknown) => port.postMessage({ type: 'failed', message: (error as Error).message }),
    );
  });
  port.postMessage({ type: 'ready' });
}
