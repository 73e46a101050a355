import { z } from 'zod';
import { OUTCOMES, TEXT_HASH, readChecked, readEntryFacts, type CheckedEntry, type EntryReading } from './entryFacts.ts';

// What an entry is, for the modules that read one; entryFacts.ts is where it is read without zod.
export { OUTCOMES, type EntryFacts, type EntryReading, type MessageDetails, type Outcome } from './entryFacts.ts';

// The entry kinds a reader knows (record-spec: entryKinds, startEntry, messageEntry, chainEntry).
// Every schema is loose: fields this reader does not know are kept and shown raw, so a newer
// writer's entries still read (record-format: forward compatibility). An entry in the form the
// plugin writes is read without them (entryFacts.ts); they say what is wrong with any other.

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

const KNOWN_KINDS = { start: startEntrySchema, message: messageEntrySchema, chain: chainEntrySchema } as const;
type KnownKind = keyof typeof KNOWN_KINDS;

function isKnownKind(kind: string): kind is KnownKind {
  return Object.hasOwn(KNOWN_KINDS, kind);
}

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

/** Reads one entry file's bytes. Never throws: bad input is an outcome, not a crash. */
export function readEntry(bytes: Uint8Array): EntryReading {
  const read = readEntryFacts(bytes);
  return read.outcome === 'unchecked' ? checkEntry(read.kind, read.value, read.source) : read;
}

/** Checks a parsed entry of a known kind against its kind's schema; `source` is its text. */
export function checkEntry(kind: KnownKind, value: Record<string, unknown>, source: string): EntryReading {
  const result = KNOWN_KINDS[kind].safeParse(value);
  if (!result.success) {
    const why = result.error.issues
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : kind}: ${issue.message}`)
      .join('; ');
    return { outcome: 'invalid', why, value, source };
  }
  return readChecked(result.data as CheckedEntry, value, source);
}
