import { countMembers, describeDuplicateKey, isRawNumber, measureJson, readFieldsAsWritten } from '../jsonText.ts';

// An entry file's bytes read as far as they can be without the schemas (entry.ts): decoded,
// parsed, measured, and, for an entry in the form the plugin writes (record-spec: startEntry,
// messageEntry, chainEntry), its facts. Anything else is left to the schemas, which say what is
// wrong with it. Two readings of one rule, so it is kept narrow: it vouches only for what the
// schemas would accept as they are (entryFacts.test.ts holds the two to each other), and the
// first scan reads a hundred thousand entries without loading a schema library on its threads.

export const OUTCOMES = ['queued', 'consumed', 'rejected', 'unknown'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** A withheld text's hash (rule.metadataOnly). */
export const TEXT_HASH = /^sha256:[0-9a-f]{64}$/;

/**
 * The instant an entry is dated at: UTC to the millisecond (record-spec: timeFormat), a real
 * date. The pattern zod's `z.iso.datetime({ precision: 3 })` checks, written out so that the
 * reading needs no zod; entryFacts.test.ts holds it to zod's.
 */
export const AT_PATTERN =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}(?:Z))$/;

/**
 * What the reader keeps in memory of an entry that parsed: enough to order, count, group and
 * filter, and no message text (texts are read from disk when a page of a session is asked for).
 */
export type EntryFacts =
  | { kind: 'start'; sessionId: string; at: string; cwd: string; host: string; version: string; inbound: string }
  | {
      kind: 'message';
      sessionId: string;
      at: string;
      cwd: string;
      side: 'sent' | 'received';
      /** The peer as the host gave it; null when the record does not know it. */
      peerAs: string | null;
      /** A full peer session id, only where the writer resolved one (rule.peerAsSeen). */
      peerSessionId: string | null;
      /** Sent entries only: the host's answer. Queued is not delivered, read or acted on. */
      isQueued: boolean | null;
      /** Received entries only. */
      outcome: Outcome | null;
      /** The text was withheld (metadata mode). */
      withheld: boolean;
    }
  | { kind: 'chain'; sessionId: string; at: string; cwd: string; parent: string; part: number | string; brief: string }
  /** An entry of a kind this reader does not know: kept and shown raw, never guessed at. */
  | { kind: 'unknown'; kindName: string; sessionId: string | null; at: string | null; cwd: string | null };

/**
 * What a shown message says beyond its facts: read with the entry when it is shown, and not kept
 * in the index (a hash per withheld entry would weigh on a large record in metadata mode).
 */
export type MessageDetails = {
  /** A refused send's reason; null when the host gave none (an empty reason is none). */
  reason: string | null;
  /** A withheld text's length and hash (metadata mode); null when the text is written. */
  textLength: number | null;
  textHash: string | null;
};

/**
 * `source` is the file's text, exactly as written (a byte-order mark included): what a raw view
 * shows. `value` is what JSON.parse makes of it, which is enough to read the entry's facts but
 * alters numbers JSON cannot hold (1e400, 12345678901234567890, -0); readFieldsAsWritten does not.
 */
export type EntryReading =
  | { outcome: 'entry'; facts: EntryFacts; details: MessageDetails | null; value: Record<string, unknown>; source: string }
  /** Not UTF-8 or not JSON: maybe still being written (rule.oneWriter), maybe cut short. */
  | { outcome: 'unparsed'; why: string }
  /** JSON, but not an entry this reader can vouch for; `value` and `source` are left out when unsafe to show. */
  | { outcome: 'invalid'; why: string; value?: unknown; source?: string };

/** An entry of a known kind that is not in the plugin's form: the schemas say what it is. */
type UncheckedEntry = { outcome: 'unchecked'; kind: 'start' | 'message' | 'chain'; value: Record<string, unknown>; source: string };

/** The fields of a known kind, as the schemas have checked them or isWrittenAsSpecified has. */
export type CheckedEntry =
  | { kind: 'start'; sessionId: string; at: string; cwd: string; host: string; version: string; inbound: string }
  | {
      kind: 'message';
      sessionId: string;
      at: string;
      cwd: string;
      side: 'sent' | 'received';
      peer?: { as?: string; sessionId?: string };
      text?: string;
      textLength?: number;
      textHash?: string;
      isQueued?: boolean;
      reason?: string | null;
      outcome?: Outcome;
    }
  | { kind: 'chain'; sessionId: string; at: string; cwd: string; parent: string; part: number | string; brief: string };

/**
 * Deeper JSON than this is not an entry the plugin wrote, and could not be passed on: a value
 * nested 100,000 deep parses, but overflows the stack of anything that walks it recursively
 * (JSON.stringify among them).
 */
const MAX_ENTRY_DEPTH = 256;

// The byte-order mark stays in the text: the raw view shows the file as it is.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads one entry file's bytes as far as it can without the schemas. Never throws: bad input is
 * an outcome, not a crash. An entry of a known kind in a form the plugin does not write comes
 * back unchecked, for the schemas (entry.ts's readEntry reads any bytes to the end).
 */
export function readEntryFacts(bytes: Uint8Array): EntryReading | UncheckedEntry {
  let source: string;
  try {
    source = utf8.decode(bytes);
  } catch {
    return { outcome: 'unparsed', why: 'not valid UTF-8' };
  }
  // A byte-order mark is tolerated, and is not part of the JSON.
  const json = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { outcome: 'unparsed', why: bytes.length === 0 ? 'empty file' : `not JSON: ${(error as Error).message}` };
  }
  const shape = measureJson(value, MAX_ENTRY_DEPTH);
  if (shape.tooDeep) return { outcome: 'invalid', why: `JSON nested deeper than ${MAX_ENTRY_DEPTH} levels; not shown` };
  // JSON.parse keeps the last of a key's values without a word, so a message whose last "kind"
  // is start would begin a run. Each member of an object has one colon outside strings: fewer
  // keys than colons means a key was written twice, and the entry is flagged, never read.
  if (shape.keys !== countMembers(json)) {
    return { outcome: 'invalid', why: `${describeDuplicateKey(json)}: the entry says two things, and the reader picks neither`, source };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { outcome: 'invalid', why: 'an entry is a JSON object', value, source };
  }
  const object = value as Record<string, unknown>;
  const kind = object['kind'];
  if (typeof kind !== 'string') return { outcome: 'invalid', why: 'kind: expected a string', value, source };
  if (kind !== 'start' && kind !== 'message' && kind !== 'chain') {
    const facts: EntryFacts = { kind: 'unknown', kindName: kind, sessionId: stringOrNull(object['sessionId']), at: stringOrNull(object['at']), cwd: stringOrNull(object['cwd']) };
    return { outcome: 'entry', value: object, source, details: null, facts };
  }
  if (!isWrittenAsSpecified(kind, object)) return { outcome: 'unchecked', kind, value: object, source };
  return readChecked(object as CheckedEntry, object, source);
}

/** The reading of an entry whose fields are checked: `entry` is `value`, or the schemas' copy of it. */
export function readChecked(entry: CheckedEntry, value: Record<string, unknown>, source: string): EntryReading {
  const facts = factsOf(entry);
  if (facts.kind === 'chain' && typeof facts.part === 'number') facts.part = partAsWritten(facts.part, source);
  return { outcome: 'entry', value, source, facts, details: entry.kind === 'message' ? detailsOf(entry) : null };
}

/**
 * Whether an entry of a known kind holds every field its kind requires, each of the type the
 * spec gives: the form the plugin writes. A narrow reading of the schemas: where it says yes,
 * they say yes; where it says no, they decide.
 */
function isWrittenAsSpecified(kind: 'start' | 'message' | 'chain', entry: Record<string, unknown>): boolean {
  const sessionId = entry['sessionId'];
  const at = entry['at'];
  if (typeof sessionId !== 'string' || sessionId.length === 0 || typeof at !== 'string' || typeof entry['cwd'] !== 'string' || !AT_PATTERN.test(at)) return false;
  switch (kind) {
    case 'start':
      return typeof entry['host'] === 'string' && typeof entry['version'] === 'string' && typeof entry['inbound'] === 'string';
    case 'chain': {
      const parent = entry['parent'];
      const part = entry['part'];
      return typeof parent === 'string' && parent.length > 0 && (typeof part === 'number' || typeof part === 'string') && typeof entry['brief'] === 'string';
    }
    case 'message':
      return isMessageWrittenAsSpecified(entry);
  }
}

function isMessageWrittenAsSpecified(entry: Record<string, unknown>): boolean {
  const { side, peer, text, textLength, textHash, isQueued, reason, outcome } = entry;
  if (side !== 'sent' && side !== 'received') return false;
  if (peer !== undefined) {
    if (typeof peer !== 'object' || peer === null || Array.isArray(peer)) return false;
    const { as, sessionId } = peer as Record<string, unknown>;
    if ((as !== undefined && typeof as !== 'string') || (sessionId !== undefined && typeof sessionId !== 'string')) return false;
  }
  if (text !== undefined && typeof text !== 'string') return false;
  if (textLength !== undefined && !(Number.isSafeInteger(textLength) && (textLength as number) >= 0)) return false;
  if (textHash !== undefined && !(typeof textHash === 'string' && TEXT_HASH.test(textHash))) return false;
  if (isQueued !== undefined && typeof isQueued !== 'boolean') return false;
  if (reason !== undefined && reason !== null && typeof reason !== 'string') return false;
  if (outcome !== undefined && !OUTCOMES.includes(outcome as Outcome)) return false;
  // Metadata mode (rule.metadataOnly) replaces the text by its length and hash.
  if (text === undefined && (textLength === undefined || textHash === undefined)) return false;
  return side === 'sent' ? isQueued !== undefined : outcome !== undefined;
}

function detailsOf(entry: Extract<CheckedEntry, { kind: 'message' }>): MessageDetails {
  const withheld = entry.text === undefined;
  return {
    reason: entry.side === 'sent' && entry.isQueued === false && entry.reason ? entry.reason : null,
    textLength: withheld ? (entry.textLength ?? null) : null,
    textHash: withheld ? (entry.textHash ?? null) : null,
  };
}

function factsOf(entry: CheckedEntry): EntryFacts {
  switch (entry.kind) {
    case 'start':
      return { kind: 'start', sessionId: entry.sessionId, at: entry.at, cwd: entry.cwd, host: entry.host, version: entry.version, inbound: entry.inbound };
    case 'chain':
      return { kind: 'chain', sessionId: entry.sessionId, at: entry.at, cwd: entry.cwd, parent: entry.parent, part: entry.part, brief: entry.brief };
    case 'message':
      return {
        kind: 'message',
        sessionId: entry.sessionId,
        at: entry.at,
        cwd: entry.cwd,
        side: entry.side,
        peerAs: entry.peer?.as ? entry.peer.as : null,
        peerSessionId: entry.peer?.sessionId ? entry.peer.sessionId : null,
        isQueued: entry.side === 'sent' ? (entry.isQueued ?? null) : null,
        outcome: entry.side === 'received' ? (entry.outcome ?? null) : null,
        withheld: entry.text === undefined,
      };
  }
}

/** A chain's part as written: the number, or its text where JSON would write it otherwise. */
function partAsWritten(part: number, source: string): number | string {
  const fields = readFieldsAsWritten(source) as Record<string, unknown>;
  const written = fields['part'];
  return isRawNumber(written) ? written.rawJSON : part;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
