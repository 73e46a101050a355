import { z } from 'zod';
import { decimalQuerySchema, sourceRefSchema, statedSessionSchema } from './common.ts';
import { WIRE_KINDS, conversationSummarySchema } from './kinds.ts';

// One Claude Code session across the stores (shared/session/joinSessions.ts): the list of them,
// and one session's page. The join is the server's, on the full id each store states; the browser
// derives none of it. Every item still says its store and is said in that store's words: nothing
// here pairs a received message with a sent one, across stores or within one.

/** One of a session's conversations: a store's session, or a set-agent-comm seat. */
const heldConversationSchema = z.object({
  source: sourceRefSchema,
  /** Its id in its store: the session id, or the seat. */
  id: z.string(),
  cwd: z.string().nullable(),
  lastAt: z.string().nullable(),
  degraded: z.boolean(),
  sent: z.number().int(),
  received: z.number().int(),
  /** Of those, the ones its store says were refused: the record's sends not queued (`sent`) and receives rejected (`received`). Absent where a store records no refusal. */
  refused: z.object({ sent: z.number().int(), received: z.number().int() }).optional(),
});

const joinedSessionSchema = z.object({
  /** The full id its stores state. */
  session: z.string(),
  lastAt: z.string().nullable(),
  /** Every working directory its stores name. */
  cwds: z.array(z.string().nullable()),
  /** The other directories it is listed under: its stores name several. */
  elsewhere: z.array(z.string().nullable()),
  conversations: z.array(heldConversationSchema),
});

/**
 * `GET /api/sources/:source/conversations/:id/session`: the session a store's conversation is, as
 * the server joined it, so that each store's own page links to the others and to the session's
 * page without the browser reading any store's rule of where a session id is.
 */
export const conversationSessionResponseSchema = z.object({
  schema: z.literal('rec.conversation-session/1'),
  /** The full id its store states; null: its store states none, and it joins nothing. */
  session: statedSessionSchema,
  /** That session's conversations in every store read, this one among them; none when its store states no session. */
  conversations: z.array(heldConversationSchema),
});
export type ConversationSessionResponse = z.infer<typeof conversationSessionResponseSchema>;

/** `GET /api/joined-sessions`: each session once per project it is in. */
export const joinedSessionsResponseSchema = z.object({
  schema: z.literal('rec.joined-sessions/1'),
  projects: z.array(z.object({ cwd: z.string().nullable(), sessions: z.array(joinedSessionSchema) })),
});
export type JoinedSessionsResponse = z.infer<typeof joinedSessionsResponseSchema>;

const placeFields = {
  /** The conversation of its store it is in (a session id, or a seat). */
  conversation: z.string(),
  /** Its time as its store gives it; null: none, and it keeps its place after the item before it in its store. */
  at: z.string().nullable(),
  side: z.enum(['sent', 'received']).nullable(),
  /** The peer as its store names it; null where it names none. */
  peer: z.string().nullable(),
  /** Its store says a person wrote it (spex's `from: null`): a person, not a peer, and no peer named. */
  fromPerson: z.literal(true).optional(),
  /** What the peer's store calls it, beside `peer` (a spex session's title and branch); absent where it names none. */
  peerNamed: z.string().optional(),
};

/** An item of one of the session's stores, as that store's page gives it, and its place on the session's time axis. */
export const sessionItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('record'), ...placeFields, item: WIRE_KINDS.record.pageItem }),
  z.object({ kind: z.literal('spex'), ...placeFields, item: WIRE_KINDS.spex.pageItem }),
  z.object({ kind: z.literal('sac'), ...placeFields, item: WIRE_KINDS.sac.pageItem }),
]);
export type SessionItem = z.infer<typeof sessionItemSchema>;

/** `GET /api/joined-sessions/:session?limit=`: the newest items of every store, at most `limit` of each conversation. */
export const joinedSessionQuerySchema = z.object({ limit: decimalQuerySchema(1, 5_000).default(1_000) });

export const joinedSessionResponseSchema = z.object({
  schema: z.literal('rec.joined-session/1'),
  session: z.string(),
  /** Each conversation's summary as its store lists it. */
  conversations: z.array(conversationSummarySchema),
  /** Every store's items on one time axis, oldest first. */
  items: z.array(sessionItemSchema),
  /** Conversations whose oldest items were left out: the store's own page has them all. */
  cut: z.array(z.object({ source: sourceRefSchema, conversation: z.string(), shown: z.number().int(), total: z.number().int() })),
  /**
   * Conversations whose items may lack what no degraded reason of their own says, in their store's
   * words, in a few (`said`) and a sentence (`why`): a spex session's Sent, when other logs hold
   * lines not read (its page's `sentUnknown`). Added to rec.joined-session/1 without a new version.
   */
  mayLack: z.array(z.object({ source: sourceRefSchema, conversation: z.string(), said: z.string(), why: z.string() })),
});
export type JoinedSessionResponse = z.infer<typeof joinedSessionResponseSchema>;
