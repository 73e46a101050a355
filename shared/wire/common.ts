import { z } from 'zod';
import { EVIDENCE_STATES } from '../evidence.ts';

// The wire every kind shares: which store a value comes from, a store's state, an error, a live
// item, paging and the search's common filters. Each kind's own wire is in its module beside this
// one (record.ts, spex.ts, sac.ts), and kinds.ts lists them. Every answer is a versioned,
// hand-written projection of a core's state, so an internal field never reaches the wire by
// accident; the server and the browser parse with the same schemas.

export const evidenceStateSchema = z.enum(EVIDENCE_STATES);

/**
 * The Claude Code session a conversation, a notice or a hit is of, by the full id its store states
 * (the record's folder, spex's session id, set-agent-comm's registry `session` of a seat); null
 * where the store states none. The server says it, so the browser never reads a store's rule for it.
 */
export const statedSessionSchema = z.string().nullable();

/** The kinds of store the dashboard reads: the record, spex timelines, set-agent-comm. */
export const SOURCE_KINDS = ['record', 'spex', 'sac'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
/** Each kind of store as the server's words name it (an export's headings, a search's notes). */
export const SOURCE_KIND_NAMES: Readonly<Record<SourceKind, string>> = { record: 'the record', spex: 'spex', sac: 'set-agent-comm' };

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

/** The ref of one kind's store, where only that kind's values can be: a client narrows on `source.kind`. */
export function kindRefSchema<K extends SourceKind>(kind: K) {
  return z.object({ kind: z.literal(kind), id: z.string().regex(new RegExp(`^${kind}-[0-9a-f]{8}$`), `expected ${kind}- and 8 hex digits`) });
}

const indexingSchema = z.object({
  /** waiting: the store's root does not exist yet; scanning: first read under way; ready. */
  state: z.enum(['waiting', 'scanning', 'ready']),
  /** Files read so far. */
  files: z.number().int(),
});
export type Indexing = z.infer<typeof indexingSchema>;

/** A store as it stands: where it is, whether it can be read, how far its first read is. */
export const sourceStatusSchema = sourceRefSchema.extend({
  /** The store's root directory (for the record: the record directory). */
  root: z.string(),
  state: z.enum(['present', 'missing', 'unreadable']),
  /** Why the root is missing or unreadable, as the system said it. */
  why: z.string().nullable(),
  indexing: indexingSchema,
});
export type SourceStatus = z.infer<typeof sourceStatusSchema>;

/** Every answer that is not a value: a 400, 401, 404 or 503 says what went wrong in `message`. */
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
  /**
   * The words are a person's, not a peer's (spex's `from: null`): `peer` is null then. A peer
   * whose name as written is "a person" is a peer, never this.
   */
  fromPerson: z.literal(true).optional(),
  /** What the peer's store calls it, beside `peer` (a spex session's title and branch); absent where it names none. */
  peerNamed: z.string().optional(),
  /** What came of it, or what it is, in the words the conversation's page uses. */
  words: z.string(),
  /**
   * One event seen from two sides: another item of the stream is the same line of its store, told
   * under the other session (a spex `sent` line whose `from` is a session of the home: its
   * receiver's Received and its sender's Sent, joined by the id spex wrote). Absent otherwise.
   */
  twoSides: z.literal(true).optional(),
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

/** Texts longer than this are cut in a page; an item's own answer gives them whole. */
export const PAGE_TEXT_LIMIT_BYTES = 64 * 1024;

/**
 * A text too large to read for a page or an item (a spex line, a set-agent-comm body of more than
 * 4 MiB): only its head is read, and `shownBytes` of it are shown, verbatim; `bytes` is the size
 * of what holds it in its store (`holder`: spex's line, sac's body). No answer but the
 * conversation's NDJSON and Markdown exports, read a piece at a time, holds it whole.
 */
export const largeTextSchema = z.object({ holder: z.enum(['line', 'body']), bytes: z.number().int(), shownBytes: z.number().int() });
export type LargeText = z.infer<typeof largeTextSchema>;
/** A screenful or three; the UI asks for pages of this size. */
const DEFAULT_PAGE_LIMIT = 200;
export const MAX_PAGE_LIMIT = 5_000;

/**
 * A number in a query as people write it: decimal digits only. `Number()` would also take
 * `0x10`, `1e2`, ` 10` and an empty string (as 0).
 */
export function decimalQuerySchema(min: number, max: number) {
  const words = `expected a decimal number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^[0-9]{1,15}$/, words)
    .transform(Number)
    .pipe(z.number().int().min(min, words).max(max, words));
}

/**
 * A conversation paged by position in its order: `?offset=&limit=`; or `?last=1&limit=`, the page
 * that holds its last item, so that a view opening at the newest asks once, not for the length
 * first and then for the page.
 */
export const pagingQuerySchema = z.object({
  offset: decimalQuerySchema(0, Number.MAX_SAFE_INTEGER).default(0),
  limit: decimalQuerySchema(1, MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
  last: z.literal('1', 'last is 1 or not given').optional(),
});

/**
 * Where a page begins in a conversation of `total` items: at `offset`; asked for the last page,
 * at the greatest multiple of `limit` that is still an item's place (0 when there is none), the
 * same place a reader paging by `limit` from 0 reaches, so the answer is one of those pages.
 */
export function pageStart(query: { offset: number; limit: number; last?: '1' | undefined }, total: number): number {
  if (query.last === undefined) return query.offset;
  return total === 0 ? 0 : Math.floor((total - 1) / query.limit) * query.limit;
}

export const pageExtentSchema = z.object({ offset: z.number().int(), limit: z.number().int(), total: z.number().int() });

/**
 * Whether a search's snippet is cut from a longer text: the text goes on before it, after it. The
 * snippet itself is verbatim; the page marks each cut beside it, never in it.
 */
export const snippetCutSchema = z.object({ before: z.boolean(), after: z.boolean() });
export type SnippetCut = z.infer<typeof snippetCutSchema>;
export const NO_SNIPPET_CUT: SnippetCut = { before: false, after: false };

/** Where a search's match sits in its snippet (UTF-16 offsets), when there is a text query. */
export const snippetMatchSchema = z.object({ start: z.number().int(), end: z.number().int() }).nullable();

/** What a conversation or a search is exported as: items as their store holds them, the wire's shape, a transcript. */
const EXPORT_FORMATS = ['ndjson', 'json', 'md'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const exportQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(', ')}` }),
});

/**
 * `GET /api/search`: the filters every kind reads, each in its own store's terms. A kind's own
 * filters are named `<kind>.<name>` (search.ts composes them from kinds.ts); a source of another
 * kind is not asked when one is given. Text matching is a substring, or a regular expression in
 * RE2 syntax (linear time) with `regex=1`.
 */
/** What a time in a query must be, said where one is not: the address may have been written by hand. */
const ISO_INSTANT_WORDS = 'not a time: an instant in ISO 8601 in UTC, e.g. 2026-11-20T09:00:00Z';

/**
 * Refuses a window whose start is after its end, in words: no time is in it, and an answer of
 * nothing found there would read as nothing having happened. The times are instants the schema
 * has read already.
 */
export function refuseWindowOutOfOrder<Start extends string, End extends string>(start: Start, end: End) {
  return (query: { [Name in Start | End]?: string | undefined }, context: z.RefinementCtx): void => {
    const from = query[start];
    const to = query[end];
    if (from === undefined || to === undefined || !(Date.parse(from) > Date.parse(to))) return;
    context.addIssue({ code: 'custom', path: [start], message: `${start} (${from}) is after ${end} (${to}): no time is in that window` });
  };
}

/** The most hits a search gives (its `limit`'s bound). */
export const MOST_SEARCH_HITS = 1_000;

/** A text a query narrows by (a search's words, a peer, a room): at most 1,000 characters, said in words. */
export const queryTextSchema = z.string().max(1_000, { error: 'at most 1,000 characters' });

export const commonSearchQuerySchema = z.object({
  q: queryTextSchema.default(''),
  regex: z.enum(['0', '1']).default('0'),
  /** Case-insensitive matching with `case=0` (the default); `case=1` matches case exactly. */
  case: z.enum(['0', '1']).default('0'),
  /** A message's side, seen from the conversation the hit opens. */
  side: z.enum(['sent', 'received']).optional(),
  /** A substring of the peer as the store names it. */
  peer: queryTextSchema.optional(),
  /** A project: the working directory a conversation is listed under, exactly. */
  project: z.string().optional(),
  from: z.iso.datetime({ error: ISO_INSTANT_WORDS }).optional(),
  to: z.iso.datetime({ error: ISO_INSTANT_WORDS }).optional(),
  limit: decimalQuerySchema(1, MOST_SEARCH_HITS).default(200),
});
export type CommonSearchQuery = z.infer<typeof commonSearchQuerySchema>;
