import { z } from 'zod';
import { DEGRADED_CODES, type MissingRange } from '../record/degraded.ts';
import type { Seq } from '../record/entryName.ts';
import { OUTCOMES } from '../record/entry.ts';
import { evidenceStateSchema, kindRefSchema, pageExtentSchema, pagingQuerySchema, snippetMatchSchema, snippetCutSchema, sourceRefSchema, statedSessionSchema } from './common.ts';

// What the record puts on the wire: its sessions, their items (entry files, gaps, strays), one
// file whole, and search hits, each a hand-written projection of the record core's facts, so that
// the browser applies none of the record's rules itself.

/** The record's ref, where only the record's items can be. */
const recordSourceRefSchema = kindRefSchema('record');

/** Files listed per reason in a session summary; `filesTotal` says how many there are. */
export const REASON_FILES_SHOWN = 20;

/**
 * A sequence number as written, of any length: a JSON number while it is a safe integer, and
 * beyond that its decimal digits as a string, because a JSON number past 2^53 loses digits in
 * a browser (and in JSON.parse anywhere).
 */
const seqSchema = z.union([z.number().int().nonnegative(), z.string().regex(/^[1-9][0-9]{15,}$/)]);
type SeqWire = z.infer<typeof seqSchema>;

export function seqToWire(seq: Seq): SeqWire {
  return typeof seq === 'bigint' ? seq.toString() : seq;
}

function seqFromWire(seq: SeqWire): Seq {
  return typeof seq === 'string' ? BigInt(seq) : seq;
}

const missingRangeSchema = z.object({
  from: seqSchema,
  to: seqSchema,
  /** The file before the missing numbers; null at the start of a run. */
  after: z.string().nullable(),
  before: z.string(),
});

/** A missing range (a gap item, or one of a reason's) as the core counts it. */
export function missingRangeFromWire(range: z.infer<typeof missingRangeSchema>): MissingRange {
  return { from: seqFromWire(range.from), to: seqFromWire(range.to), after: range.after, before: range.before };
}

const degradedReasonSchema = z.object({
  code: z.enum(DEGRADED_CODES),
  /** The files the reason rests on; at most REASON_FILES_SHOWN of them in a list view. */
  files: z.array(z.string()),
  filesTotal: z.number().int(),
  missing: z.array(missingRangeSchema).optional(),
  folder: z.string().optional(),
});
export type DegradedReasonWire = z.infer<typeof degradedReasonSchema>;

const countsSchema = z.object({
  sent: z.number().int(),
  received: z.number().int(),
  refused: z.number().int(),
  rejected: z.number().int(),
  damaged: z.number().int(),
  pending: z.number().int(),
  invalid: z.number().int(),
  /** At most 2^53 − 1, however many are missing: the ranges give the exact numbers. */
  missing: z.number().int(),
  stray: z.number().int(),
});

const chainLinkSchema = z.object({
  parent: z.string(),
  /** As written: a number, or a string, also for a number JSON would write otherwise (1e400, -0). */
  part: z.union([z.number(), z.string()]),
  brief: z.string(),
  file: z.string(),
});

/**
 * A record session. Like every conversation on the wire (a record or spex session, a
 * set-agent-comm seat) it has `source`, `id` (its id in its store), `statedSession` (the Claude
 * Code session its store states), `cwd` (the project it is listed under), `lastAt` and `degraded`:
 * the list groups, joins and counts conversations by these alone.
 */
export const sessionSummarySchema = z.object({
  source: recordSourceRefSchema,
  /** The session id: a record session's id in its store. */
  id: z.string(),
  sessionId: z.string(),
  /** The Claude Code session it is, by the full id its store states (null: none): what the lists join on (shared/session/joinSessions.ts). */
  statedSession: statedSessionSchema,
  /** The project the session belongs to: its latest start entry's cwd, else its latest entry's. */
  cwd: z.string().nullable(),
  cwds: z.array(z.string()),
  hasStart: z.boolean(),
  coverage: z.enum(['from-start', 'unknown']),
  /** How many runs (each begun by a start entry) the session has; a page lists them as `runs`. */
  runCount: z.number().int(),
  firstAt: z.string().nullable(),
  lastAt: z.string().nullable(),
  counts: countsSchema,
  degraded: z.array(degradedReasonSchema),
  chain: chainLinkSchema.nullable(),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

/**
 * The entry's fields exactly as written, unknown ones included: numbers JSON.parse would alter
 * (1e400, 12345678901234567890, -0, 1.50) are sent as the file writes them, and a `__proto__`
 * field is a field. Passed through as it is: a record schema would rebuild the object, and
 * assigning `__proto__` sets a prototype instead of a field.
 */
const entryFieldsSchema = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'expected the entry\'s fields',
);

/**
 * What the core read an entry to say, so that the browser applies none of the record's rules
 * itself: a peer the host gave no address, name or id for is null (an empty one is none), a
 * refused send has isQueued false and the host's reason or null, and a withheld text says its
 * length and hash. `reason`, `textLength` and `textHash` are read with the entry: an item whose
 * file is no longer an entry (removed, changed into something else) has them null.
 */
const entryFactsSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('start'), host: z.string(), version: z.string(), inbound: z.string() }),
  z.object({
    kind: z.literal('message'),
    side: z.enum(['sent', 'received']),
    peer: z.object({ as: z.string().nullable(), sessionId: z.string().nullable() }).nullable(),
    /** Sent entries only: the host's answer. Queued is not delivered, read or acted on. */
    isQueued: z.boolean().nullable(),
    reason: z.string().nullable(),
    /** Received entries only. */
    outcome: z.enum(OUTCOMES).nullable(),
    withheld: z.boolean(),
    textLength: z.number().int().nullable(),
    textHash: z.string().nullable(),
  }),
  z.object({ kind: z.literal('chain'), parent: z.string(), part: z.union([z.number(), z.string()]), brief: z.string() }),
  /** A kind this reader does not know: its name as written, and nothing read into it. */
  z.object({ kind: z.literal('unknown'), kindName: z.string() }),
]);
export type EntryFactsWire = z.infer<typeof entryFactsSchema>;
export type MessageFactsWire = Extract<EntryFactsWire, { kind: 'message' }>;

const fileItemSchema = z.object({
  type: z.literal('file'),
  source: sourceRefSchema,
  file: z.string(),
  /** The time in the file's name. */
  at: z.string(),
  seq: seqSchema,
  size: z.number().int(),
  evidence: evidenceStateSchema,
  /** The run (begun by a start entry) it falls in; null when no start entry comes before it (coverage unknown). */
  run: z.number().int().nullable(),
  /** Why it is not a plain entry, in one line. */
  why: z.string().nullable(),
  /** The kind and side the entry had when it parsed, so a removed entry keeps its place. */
  kind: z.string().nullable(),
  side: z.enum(['sent', 'received']).nullable(),
  /**
   * The core's facts of the entry: of the file as read for this answer when it holds an entry,
   * else as it was when it parsed (a removed entry's). Null for a file never read as an entry.
   */
  facts: entryFactsSchema.nullable(),
  /**
   * On a changed file that holds an entry now: the facts of the entry as first read, which its
   * counts, its column and search filters rest on (`facts` are of the entry as it is now). Its
   * text then is not kept: texts are never held.
   */
  factsWhenRead: entryFactsSchema.optional(),
  /** For parsed and changed files: the fields as written now on disk. */
  entry: entryFieldsSchema.nullable(),
  /**
   * On a parsed or invalid file that is as it was read, but was changed or removed meanwhile:
   * something other than the writer touched it, and the session says so too.
   */
  episode: z.enum(['changed-then-restored', 'removed-then-restored']).optional(),
  /**
   * For invalid files: the JSON value, as written (see `entry`). A page has it only for a file
   * within 64 KiB; a larger one says `rawClipped` (the file endpoint has it whole).
   */
  raw: z.unknown().optional(),
  rawClipped: z.object({ bytes: z.number().int() }).optional(),
  /**
   * The file's text, exactly as read now (its bytes as UTF-8, a byte-order mark included): what
   * the raw view shows. The file endpoint always has it; a page has it only for what is shown
   * raw in place (invalid entries, kinds this reader does not know) and not over 64 KiB.
   */
  fileText: z.string().optional(),
  /** Set when the text was cut for the page: its full size in UTF-8 bytes. */
  textClipped: z.object({ bytes: z.number().int() }).optional(),
  /** Other fields too large for a page, left out of `entry` (the file endpoint has them). */
  fieldsClipped: z.array(z.object({ field: z.string(), bytes: z.number().int() })).optional(),
});
export type FileItem = z.infer<typeof fileItemSchema>;

const gapItemSchema = z.object({
  type: z.literal('gap'),
  source: sourceRefSchema,
  run: z.number().int().nullable(),
  from: seqSchema,
  to: seqSchema,
  after: z.string().nullable(),
  before: z.string(),
});
export type GapItem = z.infer<typeof gapItemSchema>;

const strayItemSchema = z.object({
  type: z.literal('stray'),
  source: sourceRefSchema,
  file: z.string(),
  size: z.number().int(),
});
export type StrayItem = z.infer<typeof strayItemSchema>;

export const sessionItemSchema = z.discriminatedUnion('type', [fileItemSchema, gapItemSchema, strayItemSchema]);
export type SessionItemWire = z.infer<typeof sessionItemSchema>;

const runSchema = z.object({
  index: z.number().int(),
  file: z.string(),
  at: z.string(),
  host: z.string(),
  version: z.string(),
  inbound: z.string(),
});

export const sessionResponseSchema = z.object({
  schema: z.literal('rec.session/2'),
  session: sessionSummarySchema,
  runs: z.array(runSchema),
  /** Items are paged by position in the session's order: `?offset=&limit=`. */
  page: pageExtentSchema,
  items: z.array(sessionItemSchema),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const fileResponseSchema = z.object({
  schema: z.literal('rec.file/2'),
  source: sourceRefSchema,
  sessionId: z.string(),
  item: fileItemSchema,
});
export type FileResponse = z.infer<typeof fileResponseSchema>;

export const recordSearchHitSchema = z.object({
  source: recordSourceRefSchema,
  sessionId: z.string(),
  file: z.string(),
  at: z.string(),
  cwd: z.string().nullable(),
  side: z.enum(['sent', 'received']),
  peerAs: z.string().nullable(),
  peerSessionId: z.string().nullable(),
  isQueued: z.boolean().nullable(),
  /** The host's reason, on a sent entry it did not queue. */
  reason: z.string().nullable(),
  outcome: z.enum(OUTCOMES).nullable(),
  withheld: z.boolean(),
  /** Up to ~200 characters of the text around the first match, verbatim; null when withheld. */
  snippet: z.string().nullable(),
  match: snippetMatchSchema,
  snippetCut: snippetCutSchema,
});
export type RecordSearchHit = z.infer<typeof recordSearchHitSchema>;


/**
 * A session narrowed to one side, one peer or the messages refused (a page's and the activity's
 * query). Only message
 * entries are ever left out; evidence that the record is incomplete stays in its place.
 */
const recordFilterShape = {
  side: z.enum(['sent', 'received'], { error: 'side must be sent or received' }).optional(),
  /** The peer exactly as the host gave it (`peer.as`); an empty name is none, so it is no filter. */
  peer: z.string().min(1, 'peer must be a name as the host gave it').max(4_096, 'peer must be a name as the host gave it').optional(),
  /** Messages whose host named no peer: shown as "unknown", and not a peer named "unknown". */
  peerUnknown: z.literal('1', { error: 'peerUnknown must be 1' }).optional(),
  /** Only the messages refused: sent ones the host did not queue, received ones it rejected. */
  refused: z.literal('1', { error: 'refused must be 1' }).optional(),
};
const ONE_PEER_FILTER = 'peer and peerUnknown select different messages: give one';

/** `GET …/conversations/:id/activity` of a record session: narrowed as its pages are. */
export const recordFilterQuerySchema = z.object(recordFilterShape).refine((query) => query.peer === undefined || query.peerUnknown === undefined, ONE_PEER_FILTER);
export type RecordFilterQuery = z.infer<typeof recordFilterQuerySchema>;

/** `GET …/conversations/:id` of a record session: a page, narrowed or not, or the page that holds a file. */
export const recordPageQuerySchema = pagingQuerySchema
  .extend({
    /** A file name: answer with the page that holds it, for a link to one entry. */
    around: z.string().min(1).optional(),
    ...recordFilterShape,
  })
  .refine((query) => query.peer === undefined || query.peerUnknown === undefined, ONE_PEER_FILTER);

/** The record's own search filters (`record.outcome=`, `record.refused=1`): no other kind's entry has them. */
export const recordSearchFiltersSchema = z.object({
  /** Received entries with this outcome. */
  outcome: z.enum(OUTCOMES).optional(),
  /** `refused=1`: only sent entries the host did not queue. */
  refused: z.enum(['1']).optional(),
});
