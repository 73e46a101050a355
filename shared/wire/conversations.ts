import { z } from 'zod';
import { liveItemSchema, sourceRefSchema, sourceStatusSchema, statedSessionSchema } from './common.ts';
import { conversationSummarySchema } from './kinds.ts';

// The list of every source's conversations, and the events that keep a client's list current.

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
  /**
   * New or changed items of one conversation, in the order the source learnt of them; `session`
   * is the full session id its store states for that conversation (null: none).
   */
  z.object({ type: z.literal('items'), source: sourceRefSchema, sessionId: z.string(), session: statedSessionSchema, items: z.array(liveItemSchema) }),
]);
export type RecordEvent = z.infer<typeof recordEventSchema>;
