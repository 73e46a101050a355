import { readLineHeadView, readLineView } from '../../shared/spex/view.ts';
import { LARGE_TEXT_BYTES } from '../export/largeText.ts';
import type { TextReader } from '../search/searchThread.ts';
import { readRanges } from './readLine.ts';

// spex's searcher, run on a search thread (server/search/searchThread.ts): a candidate is a line's
// range in its segment, read again now, its private data taken out as it is read (readLine.ts),
// for a message's text or a declaration's note. A line over 4 MiB is searched in its head, never
// read whole.

export type SpexCandidate = { root: string; path: string; start: number; end: number; note: boolean };

/** Lines read at a time, each file opened once: up to this many, or this many bytes. */
const BATCH_LINES = 100;
const BATCH_BYTES = 4 * 1024 * 1024;

export const readTexts: TextReader<SpexCandidate> = function* (candidates) {
  for (let at = 0; at < candidates.length; ) {
    let end = at;
    for (let bytes = 0; end < candidates.length && end - at < BATCH_LINES && (end === at || bytes < BATCH_BYTES); end++) bytes += candidates[end]!.end - candidates[end]!.start;
    const batch = candidates.slice(at, end);
    // A line too large to read whole is searched as far as its first 4 MiB, as a set-agent-comm body is.
    const reads = readRanges(batch.map((candidate) => (candidate.end - candidate.start > LARGE_TEXT_BYTES ? { ...candidate, end: candidate.start + LARGE_TEXT_BYTES } : candidate)), batch[0]!.root);
    for (const [index, read] of reads.entries()) {
      if (read.type !== 'bytes') {
        yield { read: false, text: null };
        continue;
      }
      const candidate = batch[index]!;
      const view = candidate.end - candidate.start > LARGE_TEXT_BYTES ? readLineHeadView(read.bytes, 'fields', LARGE_TEXT_BYTES) : readLineView(read.bytes);
      yield { read: true, text: view.view !== 'fields' ? null : candidate.note ? view.note : view.text, head: candidate.end - candidate.start > LARGE_TEXT_BYTES };
    }
    at = end;
  }
};
