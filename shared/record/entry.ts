import { z } from 'zod';
import { countMembers, describeDuplicateKey, isRawNumber, measureJson, readFieldsAsWritten } from '../jsonText.ts';

// The entry kinds a reader knows (record-spec: entryKinds, startEntry, messageEntry, chainEntry).
// Every schema is loose: fields this reader does not know are kept and shown raw, so a newer
// writer's entries still read (record-format: forward compatibility).

const at = z.iso.datetime({ precision: 3 }); // record-spec: timeFormat
const sessionId = z.string().min(1);
const cwd = z.string();

const startEntrySchema = z.looseObject({
  kind: z.literal('start'),
  sessionId,
  at,
  cwd,
  host: z.string(),
  version: z.string(),
  // The host's inbound setting as read: accept, hold, refuse, or anything else the host said.
  inbound: z.string(),
});

/** `as` is the address or name exactly as the host gave it; empty or missing means unknown. */
const peerSchema = z.looseObject({
  as: z.string().optional(),
  sessionId: z.string().optional(),
});

export const OUTCOMES = ['queued', 'consumed', 'rejected', 'unknown'] as const;
export type Outcome = (typeof OUTCOMES)[number];

const TEXT_HASH = /^sha256:[0-9a-f]{64}$/;

const messageEntryShape = {
  kind: z.literal('message'),
  sessionId,
  at,
  cwd,
  side: z.enum(['sent', 'received']),
  peer: peerSchema.optional(),
  envelope: z.unknown().optional(),
  text: z.string().optional(),
  textLength: z.number().int().nonnegative().optional(),
  textHash: z.string().regex(TEXT_HASH, 'expected sha256: and 64 lowercase hex digits').optional(),
  isQueued: z.boolean().optional(),
  reason: z.string().nullable().optional(),
  outcome: z.enum(OUTCOMES).optional(),
};

const messageEntrySchema = z
  .looseObject(messageEntryShape)
  .superRefine((entry, ctx) => {
    // Metadata mode (rule.metadataOnly) replaces the text by its length and hash; an entry has
    // one or the other, never neither.
    const withheld = entry.textLength !== undefined || entry.textHash !== undefined;
    if (entry.text === undefined && !(entry.textLength !== undefined && entry.textHash !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: withheld ? [entry.textLength === undefined ? 'textLength' : 'textHash'] : ['text'],
        message: withheld ? 'a withheld text needs both textLength and textHash' : 'a message needs text, or textLength and textHash',
      });
    }
    if (entry.side === 'sent' && entry.isQueued === undefined) {
      ctx.addIssue({ code: 'custom', path: ['isQueued'], message: 'a sent entry holds the host result isQueued' });
    }
    if (entry.side === 'received' && entry.outcome === undefined) {
      ctx.addIssue({ code: 'custom', path: ['outcome'], message: 'a received entry holds its outcome' });
    }
  });

const chainEntrySchema = z.looseObject({
  kind: z.literal('chain'),
  sessionId,
  at,
  cwd,
  parent: z.string().min(1),
  // Any JSON number, 1e400 (Infinity once parsed) included: the reader shows it as written.
  part: z.custom<number | string>((part) => typeof part === 'number' || typeof part === 'string', 'expected a number or a string'),
  brief: z.string(),
});

type StartEntry = z.infer<typeof startEntrySchema>;
export type MessageEntry = z.infer<typeof messageEntrySchema>;
type ChainEntry = z.infer<typeof chainEntrySchema>;

const KNOWN_KINDS = { start: startEntrySchema, message: messageEntrySchema, chain: chainEntrySchema } as const;
type KnownKind = keyof typeof KNOWN_KINDS;

function isKnownKind(kind: string): kind is KnownKind {
  return Object.hasOwn(KNOWN_KINDS, kind);
}

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
 * The fields each known kind defines, from its schema: any other field is one a newer writer
 * added, kept and shown raw, never interpreted.
 */
export const KNOWN_FIELDS: Readonly<Record<KnownKind, readonly string[]>> = {
  start: Object.keys(startEntrySchema.shape),
  message: Object.keys(messageEntryShape),
  chain: Object.keys(chainEntrySchema.shape),
};

/** The fields of an entry of a known kind that its kind does not define; none for other kinds. */
export function listUnknownFields(entry: Record<string, unknown>): string[] {
  const kind = entry['kind'];
  if (typeof kind !== 'string' || !isKnownKind(kind)) return [];
  const known = KNOWN_FIELDS[kind];
  return Object.keys(entry).filter((key) => !known.includes(key));
}

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

/**
 * Deeper JSON than this is not an entry the plugin wrote, and could not be passed on: a value
 * nested 100,000 deep parses, but overflows the stack of anything that walks it recursively
 * (JSON.stringify among them).
 */
const MAX_ENTRY_DEPTH = 256;

// The byte-order mark stays in the text: the raw view shows the file as it is.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads one entry file's bytes. Never throws: bad input is an outcome, not a crash. */
export function readEntry(bytes: Uint8Array): EntryReading {
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
  const reading = validateEntry(value, source);
  if (reading.outcome === 'entry' && reading.facts.kind === 'chain' && typeof reading.facts.part === 'number') {
    reading.facts.part = partAsWritten(reading.facts.part, source);
  }
  return reading;
}

/** Validates a parsed JSON value as an entry; `source` is the text it was parsed from. */
function validateEntry(value: unknown, source: string): EntryReading {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { outcome: 'invalid', why: 'an entry is a JSON object', value, source };
  }
  const object = value as Record<string, unknown>;
  const kind = object['kind'];
  if (typeof kind !== 'string') return { outcome: 'invalid', why: 'kind: expected a string', value, source };
  if (!isKnownKind(kind)) {
    return {
      outcome: 'entry',
      value: object,
      source,
      details: null,
      facts: {
        kind: 'unknown',
        kindName: kind,
        sessionId: stringOrNull(object['sessionId']),
        at: stringOrNull(object['at']),
        cwd: stringOrNull(object['cwd']),
      },
    };
  }
  const result = KNOWN_KINDS[kind].safeParse(value);
  if (!result.success) {
    const why = result.error.issues
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : kind}: ${issue.message}`)
      .join('; ');
    return { outcome: 'invalid', why, value, source };
  }
  const entry = result.data as StartEntry | MessageEntry | ChainEntry;
  return { outcome: 'entry', value: object, source, facts: factsOf(entry), details: entry.kind === 'message' ? detailsOf(entry) : null };
}

function detailsOf(entry: MessageEntry): MessageDetails {
  const withheld = entry.text === undefined;
  return {
    reason: entry.side === 'sent' && entry.isQueued === false && entry.reason ? entry.reason : null,
    textLength: withheld ? (entry.textLength ?? null) : null,
    textHash: withheld ? (entry.textHash ?? null) : null,
  };
}

function factsOf(entry: StartEntry | MessageEntry | ChainEntry): EntryFacts {
  switch (entry.kind) {
    case 'start':
      return {
        kind: 'start',
        sessionId: entry.sessionId,
        at: entry.at,
        cwd: entry.cwd,
        host: entry.host,
        version: entry.version,
        inbound: entry.inbound,
      };
    case 'chain':
      return {
        kind: 'chain',
        sessionId: entry.sessionId,
        at: entry.at,
        cwd: entry.cwd,
        parent: entry.parent,
        part: entry.part,
        brief: entry.brief,
      };
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
