import { readEntry } from '../../shared/record/entry.ts';
import type { TextReader } from '../search/searchThread.ts';
import { readRecordFile } from './readRecordFile.ts';

// The record's searcher, run on a search thread (server/search/searchThread.ts): a candidate is
// an entry's path, read again now for its text. A null path is a candidate that cannot match (a
// withheld text), skipped unread.

/** Each entry's text as on disk now, and its reason (`details.reason`), given back with a hit. */
export const readTexts: TextReader<string | null> = function* (paths) {
  for (const path of paths) {
    if (path === null) {
      yield { read: false, text: null };
      continue;
    }
    const read = readRecordFile(path);
    const reading = read.type === 'bytes' ? readEntry(read.bytes) : null;
    const entry = reading?.outcome === 'entry' ? reading : null;
    const text = entry?.value['text'];
    yield { read: true, text: typeof text === 'string' ? text : null, bare: true, extra: entry?.details?.reason ?? null };
  }
};
