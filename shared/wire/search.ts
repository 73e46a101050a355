import { z } from 'zod';
import { SOURCE_KINDS, SOURCE_KIND_NAMES, commonSearchQuerySchema, refuseWindowOutOfOrder, sourceRefSchema, type CommonSearchQuery, type SourceKind } from './common.ts';
import { WIRE_KINDS, searchHitSchema, type WireKinds } from './kinds.ts';

// `GET /api/search`: the common filters, and each kind's own named `<kind>.<name>`
// (`record.outcome`, `spex.person`, `sac.room`, …), composed from the registry of kinds. A source
// is asked only the common filters and its own kind's: it never needs to know another kind's, and
// when another kind's filter is given it is not asked at all (none of its items could match).

type KindFilters<K extends SourceKind> = z.output<WireKinds[K]['searchFilters']>;
type Prefixed<K extends string, S> = { [N in keyof S & string as `${K}.${N}`]: S[N] };
type IntersectionOf<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type KindFilterShape = IntersectionOf<{ [K in SourceKind]: Prefixed<K, WireKinds[K]['searchFilters']['shape']> }[SourceKind]>;

function composeKindFilters(): KindFilterShape {
  const shape: Record<string, z.ZodType> = {};
  for (const kind of SOURCE_KINDS) {
    for (const [name, schema] of Object.entries(WIRE_KINDS[kind].searchFilters.shape)) shape[`${kind}.${name}`] = schema as z.ZodType;
  }
  return shape as KindFilterShape;
}

export const searchQuerySchema = commonSearchQuerySchema
  .extend({
    /** One store's id: only that source is searched. */
    source: z.string().optional(),
    ...composeKindFilters(),
  })
  .superRefine(refuseWindowOutOfOrder('from', 'to'));
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** A search as the sources of one kind are asked it: the common filters, and the kind's own by their own names. */
export type KindSearchQuery<K extends SourceKind> = CommonSearchQuery & KindFilters<K>;

/**
 * The search a source of `kind` is asked; or, when a filter of another kind is given, why it is
 * kept out (a search's `keptOut`): that filter selects only its own kind's items.
 */
export function narrowSearchQuery<K extends SourceKind>(query: SearchQuery, kind: K): { query: KindSearchQuery<K> } | { keptOut: string; filter: string } {
  const narrowed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || name === 'source') continue;
    const dot = name.indexOf('.');
    if (dot === -1) narrowed[name] = value;
    else if (name.slice(0, dot) === kind) narrowed[name.slice(dot + 1)] = value;
    else {
      const other = SOURCE_KIND_NAMES[name.slice(0, dot) as SourceKind];
      // Its name, not its value: a name is one the query's schema knows, a value is anyone's text.
      return { keptOut: `${name} is ${other}’s own filter: it selects only ${other}’s entries`, filter: name };
    }
  }
  return { query: narrowed as KindSearchQuery<K> };
}

/**
 * A search whose time ran out before it went through every text it had to: its hits are those
 * found in the texts it searched, the newest `searched` of `candidates` (every text that passed
 * the filters), and the texts it did not reach may hold more. Never "no matches".
 */
const stoppedEarlySchema = z.object({
  /** Texts gone through, newest first, before the search stopped. */
  searched: z.number().int().nonnegative(),
  /** Texts the search had to go through: those that passed its filters. */
  candidates: z.number().int().nonnegative(),
  /** How long it had searched when it stopped, in milliseconds: its budget. */
  afterMs: z.number().nonnegative(),
});
export type StoppedEarly = z.infer<typeof stoppedEarlySchema>;

export const searchResponseSchema = z.object({
  /**
   * rec.search/4: `stoppedEarly` (rec.search/3 had none: a search out of time was a 503). From /3:
   * a kind's own filters are named `<kind>.<name>` in the query (rec.search/2 named them bare).
   */
  schema: z.literal('rec.search/4'),
  hits: z.array(searchHitSchema),
  /** Entries read from disk for the query. */
  scanned: z.number().int(),
  /** More entries matched than `limit`. */
  truncated: z.boolean(),
  /** null: the search went through every text it needed to. */
  stoppedEarly: stoppedEarlySchema.nullable(),
  /**
   * Stores none of whose entries can match the query, each with why in its words: not searched.
   * Added to rec.search/4 without a new version (a client that ignores it needs no change).
   */
  keptOut: z.array(
    z.object({
      source: sourceRefSchema,
      why: z.string(),
      /** The query's name of the kind's own filter that kept it out (`record.refused`), where one did; added without a new version. */
      filter: z.string().optional(),
    }),
  ),
  /**
   * Stores that hold items the filters may select and that the search could not read (a damaged
   * file, a torn line, a write cut short), so did not search: how many, and what, in the store's
   * words (shared/searchNotRead.ts). The hits are never all there is while one is listed. Added to
   * rec.search/4 without a new version, as `keptOut` was.
   */
  notRead: z.array(z.object({ source: sourceRefSchema, items: z.number().int().positive(), why: z.string() })),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
