import { z } from 'zod';
import { DEGRADED_CODES, type MissingRange } from './record/degraded.ts';
import type { Seq } from './record/entryName.ts';
import { OUTCOMES } from './record/entry.ts';
import { EVIDENCE_STATES } from './evidence.ts';
import { sacSearchHitSchema, sacSeatSummarySchema } from './wire/sac.ts';
import { spexSearchHitSchema, spexSummarySchema } from './wire/spex.ts';

// The wire: what the server sends and the browser accepts, each a versioned, hand-written
// projection of the core's state, so an internal field never reaches the wire by accident.
// Both ends parse with these schemas.

export const evidenceStateSchema = z.enum(EVIDENCE_STATES);

/** The kinds of store the dashboard reads, or will: the record, spex timelines, set-agent-comm. */
export const SOURCE_KINDS = ['record', 'spex', 'sac'] as const;

/**
 * The store a conversation, item, hit or notice comes from. The id is stable for a store: its
 * kind and the first 8 hex digits of the sha256 of its absolute root path, so the same path has
 * the same id across restarts. Two stores may hold the same session id (the same Claude Code
 * session seen twice); their entries are never merged, and nothing joins on a prefix of an id.
 */
export const sourceRefSchema = z.object({
  kind: z.enum(SOURCE_KINDS),
  id: z.string().regex(/^[a-z]+-[0-9a-f]{8}$/, 'expected a kind and 8 hex digits'),
});
export type SourceRef = z.infer<typeof sourceRefSchema>;
/** The record's ref, where only the record's items can be: a client narrows on `source.kind`. */
const recordSourceRefSchema = sourceRefSchema.extend({ kind: z.literal('record') });

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
 * set-agent-comm seat) it has `source`, `id` (its id in its store), `cwd` (the project it is listed
 * under), `lastAt` and `degraded`: the list groups and counts conversations by these alone.
 */
export const sessionSummarySchema = z.object({
  source: recordSourceRefSchema,
  /** The session id: a record session's id in its store. */
  id: z.string(),
  sessionId: z.string(),
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

/** A conversation of any kind, as the list and the event stream carry it; `source.kind` says which. */
const conversationSummarySchema = z.union([sessionSummarySchema, spexSummarySchema, sacSeatSummarySchema]);
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

const indexingSchema = z.object({
  /** waiting: the store's root does not exist yet; scanning: first read under way; ready. */
  state: z.enum(['waiting', 'scanning', 'ready']),
  /** Files read so far. */
  files: z.number().int(),
});
export type Indexing = z.infer<typeof indexingSchema>;

/** A store as it stands: where it is, whether it can be read, how far its first read is. */
const sourceStatusSchema = sourceRefSchema.extend({
  /** The store's root directory (for the record: the record directory). */
  root: z.string(),
  state: z.enum(['present', 'missing', 'unreadable']),
  /** Why the root is missing or unreadable, as the system said it. */
  why: z.string().nullable(),
  indexing: indexingSchema,
});
export type SourceStatus = z.infer<typeof sourceStatusSchema>;

export const sessionsResponseSchema = z.object({
  schema: z.literal('rec.sessions/3'),
  sources: z.array(
    sourceStatusSchema.extend({
      /** Files directly in the root: not in a session folder, so not entries. */
      strays: z.array(z.string()),
    }),
  ),
  /** Conversations with at least one degraded-evidence reason, across the sources. */
  degradedSessions: z.number().int(),
  /**
   * Conversations of every source grouped by project (a working directory). Each says its source;
   * a session id held by two sources is listed twice, never merged.
   */
  projects: z.array(z.object({ cwd: z.string().nullable(), sessions: z.array(conversationSummarySchema) })),
});
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>;

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
  /** The run (begun by a start entry) it falls in; null before coverage begins. */
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
  page: z.object({ offset: z.number().int(), limit: z.number().int(), total: z.number().int() }),
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

export const errorResponseSchema = z.object({ error: z.string(), message: z.string() });

/**
 * A new or changed item of any source, as the live view lists it: the core's facts said in the
 * source's words, so the browser derives nothing. `key` names the item in its conversation (the
 * record's file name), `link` is the browser path that opens it in its place.
 */
export const liveItemSchema = z.object({
  key: z.string(),
  /** The item's time as its store gives it (ISO 8601); null where the store gives none. */
  at: z.string().nullable(),
  /** The item's kind as the store names it; null while it is not known (being written, a gap). */
  kind: z.string().nullable(),
  side: z.enum(['sent', 'received']).nullable(),
  /** The peer as written (the host's `peer.as`, a spex `from`, a sac `to`), or null. */
  peer: z.string().nullable(),
  /** What came of it, or what it is, in the words the conversation's page uses. */
  words: z.string(),
  /** A send the host did not queue, or a receive that was rejected. */
  refused: z.boolean(),
  /** Its evidence state in the store's words (parsed, pending, damaged, torn, gap, …). */
  evidence: z.string(),
  /** Whether that state is a doubt about the record (damaged, torn, a gap, changed after read, …). */
  degraded: z.boolean(),
  /** The first line of its text, verbatim, at most 200 characters; null when there is no text to show. */
  firstLine: z.string().nullable(),
  link: z.string(),
});
export type LiveItem = z.infer<typeof liveItemSchema>;

/** The longest first line a live item carries, in characters (a pair is never split). */
export const LIVE_FIRST_LINE_CHARS = 200;

/**
 * Server-sent events: small notices. A changed session comes with its summary as of the notice,
 * so a client keeps its list of sessions current without fetching it again (megabytes at 10,000
 * sessions); its entries it fetches again.
 */
export const recordEventSchema = z.discriminatedUnion('type', [
  /** The stream's first notice: the sources it tells of. */
  z.object({ type: z.literal('hello'), schema: z.literal('rec.events/4'), sources: z.array(sourceRefSchema) }),
  /**
   * A source's state or first-read progress changed, or the files directly in its root did:
   * the list of sessions (which has its strays) is worth fetching again.
   */
  z.object({ type: z.literal('source'), source: sourceStatusSchema }),
  /** A conversation changed: `sessionId` is its id in its store (a session id, or a seat). */
  z.object({ type: z.literal('session-changed'), source: sourceRefSchema, sessionId: z.string(), session: conversationSummarySchema }),
  /** New or changed items of one conversation, in the order the source learnt of them. */
  z.object({ type: z.literal('items'), source: sourceRefSchema, sessionId: z.string(), items: z.array(liveItemSchema) }),
]);
export type RecordEvent = z.infer<typeof recordEventSchema>;

/** Texts longer than this are cut in a session page; the file endpoint gives them whole. */
export const PAGE_TEXT_LIMIT_BYTES = 64 * 1024;
/** Files listed per reason in a session summary; `filesTotal` says how many there are. */
export const REASON_FILES_SHOWN = 20;
/** A screenful or three; the UI asks for pages of this size. */
export const DEFAULT_PAGE_LIMIT = 200;
export const MAX_PAGE_LIMIT = 5_000;

/**
 * A number in a query as people write it: decimal digits only. `Number()` would also take
 * `0x10`, `1e2`, ` 10` and an empty string (as 0).
 */
export function decimalQuerySchema(min: number, max: number) {
  return z
    .string()
    .regex(/^[0-9]{1,15}$/, 'expected a decimal number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/**
 * `GET /api/search`: entries across all sessions. Filters on what the index holds are applied
 * first; the text is then read from disk for what is left. Text matching is a substring, or a
 * regular expression in RE2 syntax (linear time) with `regex=1`.
 */
export const searchQuerySchema = z.object({
  q: z.string().max(1_000).default(''),
  regex: z.enum(['0', '1']).default('0'),
  /** Case-insensitive matching with `case=0` (the default); `case=1` matches case exactly. */
  case: z.enum(['0', '1']).default('0'),
  side: z.enum(['sent', 'received']).optional(),
  outcome: z.enum(OUTCOMES).optional(),
  /** `refused=1`: only sent entries the host did not queue. */
  refused: z.enum(['1']).optional(),
  /** A substring of the peer as the host gave it, or of the resolved peer session id. */
  peer: z.string().max(1_000).optional(),
  /** A project: the session's working directory, exactly. */
  project: z.string().optional(),
  /** `person=1`: only messages a person sent (a spex `sent` line whose `from` is null). */
  person: z.enum(['1']).optional(),
  from: z.iso.datetime().optional(),
  to: z.iso.datetime().optional(),
  limit: decimalQuerySchema(1, 1_000).default(200),
  /** set-agent-comm entries only: of this type (a legacy word counts as the type it stands for). */
  type: z.enum(['QUESTION', 'ANSWER', 'FACT', 'REQUEST']).optional(),
  /** set-agent-comm entries only: in this room, exactly. */
  room: z.string().max(1_000).optional(),
  /** set-agent-comm entries only: written by this seat, exactly. */
  writer: z.string().max(1_000).optional(),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

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
  /** Where the match sits in the snippet (UTF-16 offsets), when there is a text query. */
  match: z.object({ start: z.number().int(), end: z.number().int() }).nullable(),
});
export type RecordSearchHit = z.infer<typeof recordSearchHitSchema>;

/** A hit of any kind; `source.kind` says which. */
const searchHitSchema = z.union([recordSearchHitSchema, spexSearchHitSchema, sacSearchHitSchema]);
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchResponseSchema = z.object({
  schema: z.literal('rec.search/2'),
  hits: z.array(searchHitSchema),
  /** Entries read from disk for the query. */
  scanned: z.number().int(),
  /** More entries matched than `limit`. */
  truncated: z.boolean(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
