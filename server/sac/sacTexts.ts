import { readBodyText } from '../../shared/sac/seatFile.ts';
import { cutAtCharacter } from '../../shared/textHead.ts';
import type { TextReader } from '../search/searchThread.ts';
import type { FileIdentity } from '../watch/safeOpen.ts';
import { readSeatRange } from './storeOpen.ts';

// set-agent-comm's searcher, run on a search thread (server/search/searchThread.ts): a candidate
// is an entry's body in its seat file, read again now through the store's allowlist and the one
// safe open (never a secret, nor a file other than the one read), up to SEARCH_TEXT_BYTES.

export type SacCandidate = { root: string; relative: string; identity: FileIdentity | null; bodyStart: number; length: number; end: number };

/** A null candidate is an entry whose file is no longer listed: nothing is read. */
export const readTexts: TextReader<SacCandidate | null> = function* (candidates) {
  for (const candidate of candidates) {
    if (candidate === null) {
      yield { read: false, text: null };
      continue;
    }
    const read = readSeatRange(candidate.root, candidate.relative, candidate.identity, candidate.bodyStart, candidate.length, candidate.end);
    yield read.type === 'bytes' ? { read: true, text: readBodyText(cutAtCharacter(read.bytes)), head: candidate.length < candidate.end - candidate.bodyStart } : { read: true, text: null };
  }
};
