import { z } from 'zod';
import { refuseWindowOutOfOrder, sourceRefSchema } from './common.ts';

const ISO_TIME_WORDS = 'not a time: an instant in ISO 8601, e.g. 2026-11-20T09:00:00Z';

// The map of who talks to whom (`GET /api/map`), and one edge's messages (`GET /api/map/messages`):
// what every store states of its messages' senders and receivers (shared/map/), with each count
// said in its store's words and by the side that states it. A node is a session by its full id,
// a person, or a peer as its store wrote it; nothing joins on a prefix, a time or a text.

/** Which messages: within `since`…`until` (ISO instants, inclusive), of the stores named in `stores` (comma-separated ids; all when absent). */
export const mapQuerySchema = z
  .object({
    since: z.iso.datetime({ offset: true, error: ISO_TIME_WORDS }).optional(),
    until: z.iso.datetime({ offset: true, error: ISO_TIME_WORDS }).optional(),
    stores: z
      .string()
      .max(10_000)
      .regex(/^[a-z]+-[0-9a-f]{8}(?:,[a-z]+-[0-9a-f]{8})*$/, 'stores: expected store ids separated by commas')
      .optional(),
  })
  .superRefine(refuseWindowOutOfOrder('since', 'until'));
export type MapQuery = z.infer<typeof mapQuerySchema>;

const partySchema = z.discriminatedUnion('type', [
  /** A session, by the full id a store gives. */
  z.object({ type: z.literal('session'), id: z.string() }),
  /** A person (spex's `from: null`). */
  z.object({ type: z.literal('person') }),
  /** A peer as one store wrote it: a socket path, an agent name, a `from` that is no session known here. */
  z.object({ type: z.literal('as-written'), source: z.string(), as: z.string() }),
  /** A peer the store does not name (the record's empty `peer.as`), of one conversation. */
  z.object({ type: z.literal('unnamed'), source: z.string(), conversation: z.string() }),
]);

const heldSchema = z.object({ source: sourceRefSchema, conversation: z.string() });

const mapNodeSchema = z.object({
  key: z.string(),
  party: partySchema,
  /** The working directory it is listed under (its first store's that names one). */
  project: z.string().nullable(),
  /** The conversations that are it, in each store: a session, a seat. */
  held: z.array(heldSchema),
});
export type MapNode = z.infer<typeof mapNodeSchema>;

const edgeCountSchema = z.object({
  source: sourceRefSchema,
  /** Whose file states these messages: the sender's (a record sent entry, a sac seat file) or the receiver's (a record received entry, a spex log). */
  seenFrom: z.enum(['sender', 'receiver']),
  messages: z.number().int().nonnegative(),
  /** Sends the host did not queue (the record's `isQueued: false`). */
  notQueued: z.number().int().nonnegative(),
  /** Receives with the outcome `rejected`. */
  rejected: z.number().int().nonnegative(),
  /** Entries addressed to everyone in their room (sac, no `to`): counted once per member reached. */
  broadcast: z.number().int().nonnegative(),
});
export type EdgeCount = z.infer<typeof edgeCountSchema>;

const mapEdgeSchema = z.object({
  key: z.string(),
  from: z.string(),
  to: z.string(),
  counts: z.array(edgeCountSchema),
  /** Its latest message's time (ISO 8601); null when none gives one. */
  latestAt: z.string().nullable(),
});
export type MapEdge = z.infer<typeof mapEdgeSchema>;

export const mapResponseSchema = z.object({
  schema: z.literal('rec.map/1'),
  since: z.string().nullable(),
  until: z.string().nullable(),
  /** The stores the map is drawn from. */
  sources: z.array(sourceRefSchema),
  nodes: z.array(mapNodeSchema),
  edges: z.array(mapEdgeSchema),
  /** Statements counted (a message both sides record is two), and those with no time of their own. */
  messages: z.number().int().nonnegative(),
  undated: z.number().int().nonnegative(),
});
export type MapResponse = z.infer<typeof mapResponseSchema>;

/** The most messages of one edge an answer lists. */
export const EDGE_MESSAGES_LIMIT = 500;

export const edgeMessagesQuerySchema = mapQuerySchema.safeExtend({
  from: z.string({ error: 'from: expected a node key' }).min(1),
  to: z.string({ error: 'to: expected a node key' }).min(1),
});

const edgeMessageSchema = z.object({
  source: sourceRefSchema,
  seenFrom: z.enum(['sender', 'receiver']),
  at: z.string().nullable(),
  refused: z.enum(['not-queued', 'rejected']).nullable(),
  broadcast: z.boolean(),
  /** Where it is: an item of a conversation of its store. */
  conversation: z.string(),
  key: z.string(),
  /** Its text's first line, verbatim, at most LIVE_FIRST_LINE_CHARS, read by its store as the answer is made; null with `noFirstLine` when none is shown. */
  firstLine: z.string().nullable(),
  /** Why no first line is shown, in its store's words (its text withheld, its file damaged, …); null when one is. */
  noFirstLine: z.string().nullable(),
});
export type EdgeMessage = z.infer<typeof edgeMessageSchema>;

export const edgeMessagesResponseSchema = z.object({
  schema: z.literal('rec.map-messages/1'),
  from: z.string(),
  to: z.string(),
  /** Newest first; at most EDGE_MESSAGES_LIMIT. */
  messages: z.array(edgeMessageSchema),
  total: z.number().int().nonnegative(),
});
export type EdgeMessagesResponse = z.infer<typeof edgeMessagesResponseSchema>;
