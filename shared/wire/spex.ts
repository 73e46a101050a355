import { z } from 'zod';
import { DEGRADED_CODES } from '../spex/degraded.ts';
import { kindRefSchema, largeTextSchema, pageExtentSchema, pagingQuerySchema, snippetMatchSchema, snippetCutSchema, statedSessionSchema } from './common.ts';

// What a spex home puts on the wire: hand-written projections of the spex core's facts, so the
// browser shows them and derives none of spex's rules. Byte ranges never cross: the gap between
// two lines would say where a private line was.

const spexSourceRefSchema = kindRefSchema('spex');

/**
 * How spex users know a session, from its session.json: the title spex shows (its `name` where it
 * has no title) and its branch; null where it names none. Shown beside the id, never instead of it.
 */
const spexNamedSchema = z.object({ title: z.string().nullable(), branch: z.string().nullable() });
export type SpexNamed = z.infer<typeof spexNamedSchema>;

/** Who a `sent` line's `from` names: a person (null), a session of this home, or anything else as written. */
const spexSenderSchema = z.discriminatedUnion('by', [
  z.object({ by: z.literal('person') }),
  z.object({ by: z.literal('session'), sessionId: z.string(), named: spexNamedSchema }),
  z.object({ by: z.literal('other'), as: z.string() }),
]);
export type SpexSender = z.infer<typeof spexSenderSchema>;

const spexReasonSchema = z.object({
  code: z.enum(DEGRADED_CODES),
  /** The core's plain words for it. */
  words: z.string(),
  files: z.array(z.string()),
  /** Log line numbers it rests on (at most 50 listed; `linesTotal` says how many). */
  lines: z.array(z.number().int()),
  linesTotal: z.number().int(),
});

/** What session.json says the session is NOW: labelled current, never a declaration. */
const spexCurrentSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('known'),
    status: z.string().nullable(),
    word: z.string().nullable(),
    proposal: z.string().nullable(),
    hasNote: z.boolean(),
    stopped: z.boolean().nullable(),
    archived: z.boolean().nullable(),
  }),
  z.object({ state: z.literal('unknown'), why: z.string() }),
]);

const spexProjectSchema = z.object({
  /** The key sessions are grouped by: a worktree path, or the project folder's encoded name. */
  key: z.string(),
  /** `encoded-name` when no session names a worktree path: the name is spex's folder name, not a path. */
  from: z.enum(['repository', 'worktree_path', 'encoded-name']),
  encodedName: z.string(),
});

export const spexSummarySchema = z.object({
  source: spexSourceRefSchema,
  /** Its id in its store, as every conversation has: the session id. */
  id: z.string(),
  sessionId: z.string(),
  /** The Claude Code session it is, by the full id its store states (null: none): what the lists join on (shared/session/joinSessions.ts). */
  statedSession: statedSessionSchema,
  /** The project it is listed under: `project.key`. */
  cwd: z.string().nullable(),
  project: spexProjectSchema,
  worktreePath: z.string().nullable(),
  title: z.string().nullable(),
  name: z.string().nullable(),
  branch: z.string().nullable(),
  /** Its name as every place shows it: see `spexNamedSchema`. */
  named: spexNamedSchema,
  parent: z.string().nullable(),
  current: spexCurrentSchema,
  firstAt: z.string().nullable(),
  lastAt: z.string().nullable(),
  counts: z.object({
    /** `sent` lines in its own log. */
    received: z.number().int(),
    fromPerson: z.number().int(),
    fromPeers: z.number().int(),
    /** `sent` lines in other logs whose `from` is its id. */
    sent: z.number().int(),
    declarations: z.number().int(),
    unknownKinds: z.number().int(),
    damaged: z.number().int(),
    invalid: z.number().int(),
    torn: z.number().int(),
    pending: z.number().int(),
    strays: z.number().int(),
  }),
  segments: z.number().int(),
  degraded: z.array(spexReasonSchema),
});
export type SpexSummary = z.infer<typeof spexSummarySchema>;

const clippedSchema = z.object({ bytes: z.number().int() }).optional();

const lineBase = {
  source: spexSourceRefSchema,
  /** The item's name for `GET …/conversations/:id/items/:item`. */
  key: z.string(),
  /** The line's number in the log it stands in (from 1, across segments), among the lines shown (privateData.ts: LINE_NUMBERS_WORDS). */
  line: z.number().int(),
  segment: z.string(),
  /** `ts` as written; null when the line has none. */
  at: z.string().nullable(),
  /**
   * What the line holds now, when it is no longer what was read (a segment changed after it was
   * read): the item keeps what it said when read, and says this.
   */
  now: z.string().nullable(),
  /** The line is too large to read here: its text (the message, the note, the line as written) is its head. */
  large: largeTextSchema.optional(),
};

const messageFields = {
  mid: z.string(),
  replyVia: z.string().nullable(),
  /** Verbatim; null when the bytes no longer hold it (see `now`). */
  text: z.string().nullable(),
  textClipped: clippedSchema,
  /** Where spex's reply hint begins in `text` (UTF-16 index), when it ends with one. */
  hintAt: z.number().int().nullable(),
};

export const spexItemSchema = z.discriminatedUnion('type', [
  /** A `status` line of its own log: a declaration, in place, spanning both columns. */
  z.object({
    type: z.literal('declaration'),
    ...lineBase,
    status: z.string(),
    /** The word spex shows for the status. */
    word: z.string(),
    proposal: z.string().nullable(),
    note: z.string().nullable(),
    noteClipped: clippedSchema,
  }),
  /** A `sent` line of its own log: a message addressed to this session. */
  z.object({
    type: z.literal('received'),
    ...lineBase,
    from: spexSenderSchema,
    /** Whether the same line is in its sender's Sent: a session of this home other than this one (the server's rule, isSeenFromTwoSides). */
    twoSides: z.boolean(),
    ...messageFields,
  }),
  /** A `sent` line in another session's log whose `from` is this session's id: it comes from the receiver's log. */
  z.object({ type: z.literal('sent'), ...lineBase, receiver: z.string(), receiverNamed: spexNamedSchema, fromLog: z.literal('receiver'), ...messageFields }),
  /** A line of a kind spex's reader does not know: its text as written. */
  z.object({ type: z.literal('unknown-kind'), ...lineBase, kindName: z.string(), raw: z.string().nullable(), rawClipped: clippedSchema }),
  /** A line that is not an event: damaged, invalid, torn, or still being written. */
  z.object({
    type: z.literal('evidence'),
    ...lineBase,
    evidence: z.enum(['damaged', 'invalid', 'torn', 'pending']),
    why: z.string(),
    bytes: z.number().int(),
    /** The line's text as written, when it may be shown (never when it may hold private data or is not UTF-8). */
    raw: z.string().nullable(),
    rawClipped: clippedSchema,
  }),
]);
export type SpexItem = z.infer<typeof spexItemSchema>;

export const spexSessionResponseSchema = z.object({
  schema: z.literal('rec.spex-session/1'),
  session: spexSummarySchema,
  /** session.json's note now: current state, not history. */
  currentNote: z.string().nullable(),
  page: pageExtentSchema,
  items: z.array(spexItemSchema),
  strays: z.array(z.object({ name: z.string(), why: z.string() })),
  /**
   * What its Sent may lack (shared/spex/sentUnknown.ts): lines of other sessions' logs
   * not read as events, and their segments not read, whose sender nothing says; null when every
   * other log of the home was read whole.
   */
  sentUnknown: z
    .object({
      lines: z.number().int().nonnegative(),
      segments: z.number().int().nonnegative(),
      logs: z.array(z.string()),
      /** Beside each log, the key of its first line not read on its page; null: only segments. Added without a new version. */
      firstLines: z.array(z.string().nullable()),
      moreLogs: z.number().int().nonnegative(),
    })
    .nullable(),
});
export type SpexSessionResponse = z.infer<typeof spexSessionResponseSchema>;

export const spexItemResponseSchema = z.object({
  schema: z.literal('rec.spex-item/1'),
  source: spexSourceRefSchema,
  sessionId: z.string(),
  item: spexItemSchema,
});
export type SpexItemResponse = z.infer<typeof spexItemResponseSchema>;

export const spexSearchHitSchema = z.object({
  source: spexSourceRefSchema,
  /** The session the hit is seen from: the receiver of a received message, the sender of a sent one. */
  sessionId: z.string(),
  sessionNamed: spexNamedSchema,
  key: z.string(),
  at: z.string(),
  project: z.string(),
  /** A message seen from the session's side; a declaration's note has none. */
  kind: z.enum(['received', 'sent', 'declaration']),
  from: spexSenderSchema.nullable(),
  /** Whether the line is one event seen from two sides (isSeenFromTwoSides): a received hit whose sender's Sent lists it too, and every sent hit. */
  twoSides: z.boolean(),
  /** For a sent hit: the session whose log holds the line. */
  receiver: z.string().nullable(),
  /**
   * The line in its store (the receiver's log and the line there): the same for the two hits of one
   * line found from both its sides, a received and a sent, and another for every other line.
   */
  line: z.string(),
  receiverNamed: spexNamedSchema.nullable(),
  snippet: z.string().nullable(),
  match: snippetMatchSchema,
  snippetCut: snippetCutSchema,
});
export type SpexSearchHit = z.infer<typeof spexSearchHitSchema>;

/** `GET …/conversations/:id` of a spex session: its items paged in the session's order. */
export const spexPageQuerySchema = pagingQuerySchema;

/** spex's own search filter (`spex.person=1`): messages a person sent, a `sent` line whose `from` is null. */
export const spexSearchFiltersSchema = z.object({ person: z.enum(['1']).optional() });
