import { z } from 'zod';
import { activityResponseSchema } from './activity.ts';
import { statedSessionSchema, type SourceKind } from './common.ts';
import { fileResponseSchema, recordFilterQuerySchema, recordPageQuerySchema, recordSearchFiltersSchema, recordSearchHitSchema, sessionItemSchema, sessionResponseSchema, sessionSummarySchema } from './record.ts';
import {
  sacFlowItemSchema,
  sacItemResponseSchema,
  sacRoomQuerySchema,
  sacRoomResponseSchema,
  sacRoomsQuerySchema,
  sacRoomsResponseSchema,
  sacSearchFiltersSchema,
  sacSearchHitSchema,
  sacSeatQuerySchema,
  sacSeatResponseSchema,
  sacSeatSummarySchema,
} from './sac.ts';
import { spexItemResponseSchema, spexItemSchema, spexPageQuerySchema, spexSearchFiltersSchema, spexSearchHitSchema, spexSessionResponseSchema, spexSummarySchema } from './spex.ts';

// The registry of wire kinds: for each kind of store, the schemas of everything it answers. The
// HTTP layer declares its routes with these (a route that serves every kind validates a query with
// the schema of the addressed source's kind, and declares the union of the kinds' answers), the
// search composes its query from the kinds' own filters, and the browser parses with the same
// schemas. A new kind is a module beside record.ts, its entry here, and its schemas in the unions
// at the end.

type Exchange = { query: z.ZodType; response: z.ZodType };

type WireKind = {
  /** A conversation in the list of sessions and the event stream. */
  summary: z.ZodType;
  /** A conversation's page (`GET /api/sources/:source/conversations/:id`). */
  page: Exchange;
  /** One item whole (`…/items/:item`). */
  item: z.ZodType;
  /** An item as a page gives it: each item of a JSON export. */
  pageItem: z.ZodType;
  searchHit: z.ZodType;
  /** The kind's own search filters, named `<kind>.<name>` in a search's query (search.ts). */
  searchFilters: z.ZodObject;
  /** A conversation's activity (`…/activity`), for a kind that sums it from its index. */
  activity?: Exchange;
  /** Views only this kind has (`GET /api/sources/:source/views/:view[/:key]`): a list, and one of it by key. */
  views: Readonly<Record<string, { list: Exchange; one: Exchange }>>;
};

export const WIRE_KINDS = {
  record: {
    summary: sessionSummarySchema,
    page: { query: recordPageQuerySchema, response: sessionResponseSchema },
    item: fileResponseSchema,
    pageItem: sessionItemSchema,
    searchHit: recordSearchHitSchema,
    searchFilters: recordSearchFiltersSchema,
    activity: { query: recordFilterQuerySchema, response: activityResponseSchema },
    views: {},
  },
  spex: {
    summary: spexSummarySchema,
    page: { query: spexPageQuerySchema, response: spexSessionResponseSchema },
    item: spexItemResponseSchema,
    pageItem: spexItemSchema,
    searchHit: spexSearchHitSchema,
    searchFilters: spexSearchFiltersSchema,
    views: {},
  },
  sac: {
    summary: sacSeatSummarySchema,
    page: { query: sacSeatQuerySchema, response: sacSeatResponseSchema },
    item: sacItemResponseSchema,
    pageItem: sacFlowItemSchema,
    searchHit: sacSearchHitSchema,
    searchFilters: sacSearchFiltersSchema,
    views: {
      /** The store's rooms, and one room's flow: every seat's entries in time order. */
      rooms: { list: { query: sacRoomsQuerySchema, response: sacRoomsResponseSchema }, one: { query: sacRoomQuerySchema, response: sacRoomResponseSchema } },
    },
  },
} as const satisfies Record<SourceKind, WireKind>;

export type WireKinds = typeof WIRE_KINDS;

// Each kind's schema of one thing, as a union: what the list, the search and a route that serves
// every kind carry. Answers name their schema, so a union of them dispatches on it.
const { record, spex, sac } = WIRE_KINDS;

/** A conversation of any kind, as the list and the event stream carry it; `source.kind` says which. */
export const conversationSummarySchema = z.union([record.summary, spex.summary, sac.summary]);
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

/**
 * A hit of any kind; `source.kind` says which. Each is its kind's facts and `session`: the full
 * session id the store states for the conversation the hit opens (null: none), which the search
 * adds to every kind's hits alike.
 */
const withSession = { session: statedSessionSchema };
export const searchHitSchema = z.union([record.searchHit.extend(withSession), spex.searchHit.extend(withSession), sac.searchHit.extend(withSession)]);
export type SearchHit = z.infer<typeof searchHitSchema>;

/** A page of any kind. */
export const pageResponseSchema = z.discriminatedUnion('schema', [record.page.response, spex.page.response, sac.page.response]);
/** One item whole, of any kind. */
export const itemResponseSchema = z.discriminatedUnion('schema', [record.item, spex.item, sac.item]);
/** A conversation's activity, of the kinds that sum it. */
export const activityAnswerSchema = record.activity.response;
/** A view's list, and one of it, of every kind's views. */
export const viewListSchema = z.discriminatedUnion('schema', [sac.views.rooms.list.response]);
export const viewOneSchema = z.discriminatedUnion('schema', [sac.views.rooms.one.response]);
