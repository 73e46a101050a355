import type { EntryFacts, Outcome } from '../../shared/record/entryFacts.ts';
import type { EntryName } from '../../shared/record/entryName.ts';
import type { KnownFile } from '../../shared/record/knownFile.ts';
import { concludeFirstEntry, type Observation } from '../../shared/record/observation.ts';

// A session folder's looks, as a scan thread hands them over: numbers in buffers moved to the
// receiving thread rather than copied, and the strings once each, end to end in one string.
// Passed as objects, a folder of a hundred entries was five hundred objects to copy on one side
// and to make again on the other; a list of its strings still cost the receiving thread as much
// to take as to conclude the folder. Here a folder is one string and two buffers, made into the
// reader's objects as they are concluded. A string a folder repeats (a session id, a cwd, a time
// named twice) comes back as one string, so the receiving thread holds one copy of it.

/**
 * One file of a folder as a scan thread saw it. `seen` is null for an entry only the schemas can
 * read, which the thread left to the one concluding (it reads the file again itself).
 */
export type ScannedFile = { name: string; entryName: EntryName | null; seen: Observation | null; mtimeMs: number | null };

/**
 * A folder's looks, packed: `numbers` holds STRIDE numbers a file; a string is an index into
 * `ends`, where it ends in `text` (and the one before it begins).
 */
export type PackedLooks = { text: string; ends: Float64Array; numbers: Float64Array };

const STRIDE = 17;
// The numbers of one file, at these offsets from its start. A string is its index, -1 for null.
const SEEN = 0; // the observation's type, as its index in SEEN_TYPES
const MTIME = 1; // NaN for null
const SIZE = 2; // NaN where the observation has none
const FINGERPRINT = 3;
const WHY = 4;
const NAME = 5;
const NAME_AT = 6; // -1 for a name that is not an entry's
const SEQ = 7; // the sequence number, or NaN with its digits at SEQ_TEXT
const SEQ_TEXT = 8;
const KIND = 9; // the facts' kind, as its index in KINDS; -1 for none
const SESSION = 10;
const AT = 11;
const CWD = 12;
const A = 13; // start: host; message: peerAs; chain: parent; unknown: kindName
const B = 14; // start: version; message: peerSessionId; chain: brief
const C = 15; // start: inbound; message: side, isQueued, outcome and withheld as one number; chain: a numeric part
const PART_TEXT = 16; // chain: a part that is text

const SEEN_TYPES = ['entry', 'unparsed', 'invalid', 'stray', 'unreadable', 'gone', 'left'] as const;
const ENTRY_SEEN = SEEN_TYPES.indexOf('entry');
const KINDS = ['start', 'message', 'chain', 'unknown'] as const;
const OUTCOME_CODES: readonly (Outcome | null)[] = [null, 'queued', 'consumed', 'rejected', 'unknown'];

/**
 * Packs a folder's looks one file at a time. A name is its folder's own, and so, most often, is
 * the time it gives; the other strings repeat from file to file (a session id, a cwd, a peer) and
 * go in once each.
 */
export function createLooksPacker(expectedFiles: number) {
  let numbers = new Float64Array(Math.max(1, expectedFiles) * STRIDE);
  let strings: string[] = [];
  let ends: number[] = [];
  let length = 0;
  const indexes = new Map<string, number>();
  let count = 0;

  const unique = (value: string): number => {
    length += value.length;
    ends.push(length);
    return strings.push(value) - 1;
  };
  const text = (value: string | null | undefined): number => {
    if (value === null || value === undefined) return -1;
    let at = indexes.get(value);
    if (at === undefined) {
      at = unique(value);
      indexes.set(value, at);
    }
    return at;
  };

  function packFacts(at: number, facts: EntryFacts, nameAt: number, entryName: EntryName | null): void {
    numbers[at + KIND] = KINDS.indexOf(facts.kind);
    numbers[at + SESSION] = text(facts.sessionId);
    numbers[at + AT] = entryName !== null && facts.at === entryName.at ? nameAt : text(facts.at);
    numbers[at + CWD] = text(facts.cwd);
    switch (facts.kind) {
      case 'start':
        numbers[at + A] = text(facts.host);
        numbers[at + B] = text(facts.version);
        numbers[at + C] = text(facts.inbound);
        return;
      case 'message':
        numbers[at + A] = text(facts.peerAs);
        numbers[at + B] = text(facts.peerSessionId);
        numbers[at + C] = (facts.side === 'sent' ? 0 : 1) + 2 * (facts.isQueued === null ? 0 : facts.isQueued ? 1 : 2) + 8 * OUTCOME_CODES.indexOf(facts.outcome) + 64 * (facts.withheld ? 1 : 0);
        return;
      case 'chain':
        numbers[at + A] = text(facts.parent);
        numbers[at + B] = text(facts.brief);
        if (typeof facts.part === 'number') numbers[at + C] = facts.part;
        else numbers[at + PART_TEXT] = text(facts.part);
        return;
      case 'unknown':
        numbers[at + A] = text(facts.kindName);
        return;
    }
  }

  return {
    add(file: ScannedFile): void {
      if ((count + 1) * STRIDE > numbers.length) {
        const grown = new Float64Array(numbers.length * 2);
        grown.set(numbers);
        numbers = grown;
      }
      const at = count++ * STRIDE;
      const { seen, entryName } = file;
      numbers.fill(-1, at, at + STRIDE);
      numbers[at + SEEN] = SEEN_TYPES.indexOf(seen === null ? 'left' : seen.type);
      numbers[at + MTIME] = file.mtimeMs ?? Number.NaN;
      numbers[at + SIZE] = seen === null || seen.type === 'gone' || seen.size === undefined ? Number.NaN : seen.size;
      if (seen?.type === 'entry' || seen?.type === 'invalid') numbers[at + FINGERPRINT] = seen.fingerprint;
      if (seen !== null && seen.type !== 'entry' && seen.type !== 'gone') numbers[at + WHY] = text(seen.why);
      numbers[at + NAME] = unique(file.name);
      let nameAt = -1;
      if (entryName !== null) {
        nameAt = unique(entryName.at);
        numbers[at + NAME_AT] = nameAt;
        if (typeof entryName.seq === 'number') numbers[at + SEQ] = entryName.seq;
        else {
          numbers[at + SEQ] = Number.NaN;
          numbers[at + SEQ_TEXT] = unique(entryName.seq.toString());
        }
      }
      if (seen?.type === 'entry') packFacts(at, seen.facts, nameAt, entryName);
    },
    /** How many files are packed, not yet handed over. */
    get count(): number {
      return count;
    },
    /** The looks so far, handed over: the packer starts afresh. */
    take(): PackedLooks {
      const packed = { text: strings.join(''), ends: Float64Array.from(ends), numbers: numbers.slice(0, count * STRIDE) };
      strings = [];
      ends = [];
      length = 0;
      indexes.clear();
      count = 0;
      return packed;
    },
  };
}

/**
 * Packed looks opened: how many files they hold, and each made again as the scan thread saw it;
 * or, for a file the reader holds nothing of yet, its name, and what a first look concludes of it
 * where the look found an entry (null where it found anything else: `look` then says what).
 */
export type OpenedLooks = { count: number; look(index: number): ScannedFile; name(index: number): string; firstEntry(index: number): KnownFile | null };

/** Opens packed looks; each string is made once, when first asked for. */
export function openLooks(packed: PackedLooks): OpenedLooks {
  const unpacking: Unpacking = { numbers: packed.numbers, ends: packed.ends, text: packed.text, made: new Array(packed.ends.length) };
  return {
    count: packed.numbers.length / STRIDE,
    look: (index) => unpackLook(unpacking, index * STRIDE),
    name: (index) => textAt(unpacking, index * STRIDE + NAME)!,
    firstEntry: (index) => unpackFirstEntry(unpacking, index * STRIDE),
  };
}

type Unpacking = { numbers: Float64Array; ends: Float64Array; text: string; made: (string | undefined)[] };

/** The string a file's number at `at` names, or null. */
function textAt(unpacking: Unpacking, at: number): string | null {
  const i = unpacking.numbers[at]!;
  if (i < 0) return null;
  const { made, ends } = unpacking;
  return (made[i] ??= unpacking.text.slice(i === 0 ? 0 : ends[i - 1], ends[i]));
}

function unpackEntryName(unpacking: Unpacking, at: number, name: string): EntryName | null {
  const nameAt = textAt(unpacking, at + NAME_AT);
  const seq = unpacking.numbers[at + SEQ]!;
  return nameAt === null ? null : { name, at: nameAt, seq: Number.isNaN(seq) ? BigInt(textAt(unpacking, at + SEQ_TEXT)!) : seq };
}

/** A first look's conclusion, made from the numbers with no look in between; null for a look that found no entry. */
function unpackFirstEntry(unpacking: Unpacking, at: number): KnownFile | null {
  const { numbers } = unpacking;
  const mtime = numbers[at + MTIME]!;
  if (numbers[at + SEEN] !== ENTRY_SEEN || Number.isNaN(mtime)) return null;
  const name = textAt(unpacking, at + NAME)!;
  return concludeFirstEntry(name, unpackEntryName(unpacking, at, name), mtime, unpackFacts(unpacking, at), numbers[at + FINGERPRINT]!, numbers[at + SIZE]!);
}

function unpackLook(unpacking: Unpacking, at: number): ScannedFile {
  const { numbers } = unpacking;
  const name = textAt(unpacking, at + NAME)!;
  const entryName = unpackEntryName(unpacking, at, name);
  const mtime = numbers[at + MTIME]!;
  const size = numbers[at + SIZE]!;
  const why = textAt(unpacking, at + WHY);
  const fingerprint = numbers[at + FINGERPRINT]!;
  const changedAt = mtime;
  let seen: Observation | null;
  switch (SEEN_TYPES[numbers[at + SEEN]!]!) {
    case 'entry':
      seen = { type: 'entry', facts: unpackFacts(unpacking, at), fingerprint, size, changedAt };
      break;
    case 'unparsed':
      seen = { type: 'unparsed', why: why!, size, changedAt };
      break;
    case 'invalid':
      seen = { type: 'invalid', why: why!, fingerprint, size };
      break;
    case 'stray':
      seen = { type: 'stray', why: why!, size };
      break;
    case 'unreadable':
      seen = Number.isNaN(size) ? { type: 'unreadable', why: why! } : { type: 'unreadable', why: why!, size };
      break;
    case 'gone':
      seen = { type: 'gone' };
      break;
    case 'left':
      seen = null;
      break;
  }
  return { name, entryName, seen, mtimeMs: Number.isNaN(mtime) ? null : mtime };
}

function unpackFacts(unpacking: Unpacking, at: number): EntryFacts {
  const { numbers } = unpacking;
  const text = (offset: number) => textAt(unpacking, at + offset);
  const sessionId = text(SESSION);
  const when = text(AT);
  const cwd = text(CWD);
  switch (KINDS[numbers[at + KIND]!]!) {
    case 'start':
      return { kind: 'start', sessionId: sessionId!, at: when!, cwd: cwd!, host: text(A)!, version: text(B)!, inbound: text(C)! };
    case 'message': {
      const flags = numbers[at + C]!;
      const queued = (flags >> 1) & 3;
      return {
        kind: 'message',
        sessionId: sessionId!,
        at: when!,
        cwd: cwd!,
        side: (flags & 1) === 0 ? 'sent' : 'received',
        peerAs: text(A),
        peerSessionId: text(B),
        isQueued: queued === 0 ? null : queued === 1,
        outcome: OUTCOME_CODES[(flags >> 3) & 7]!,
        withheld: (flags & 64) !== 0,
      };
    }
    case 'chain':
      return { kind: 'chain', sessionId: sessionId!, at: when!, cwd: cwd!, parent: text(A)!, part: text(PART_TEXT) ?? numbers[at + C]!, brief: text(B)! };
    case 'unknown':
      return { kind: 'unknown', kindName: text(A)!, sessionId, at: when, cwd };
  }
}
