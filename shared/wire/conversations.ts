import { z } from 'zod';
import { liveItemSchema, sourceRefSchema, sourceStatusSchema, statedSessionSchema } from './common.ts';
import { conversationSummarySchema } from './kinds.ts';

// The list of every source's conversations, and the events that keep a client's list current.

/** Each store's state, with the files directly in its root: not in a session folder, so not entries. */
const listedSourcesSchema = z.array(sourceStatusSchema.extend({ strays: z.array(z.string()) }));

/**
 * The list's version as its server made it: asked with `?since=`, the server answers only what
 * changed since (or the whole list, if it no longer knows that version: another process, or too old).
 */
const listVersionSchema = z.string().regex(/^[0-9a-f]{8}\.[0-9]+$/, 'expected a list version');

/** The list's envelope: everything but its projects; the first line of the list asked for as lines. */
export const sessionsHeadSchema = z.object({
  schema: z.literal('rec.sessions/4'),
  version: listVersionSchema,
  sources: listedSourcesSchema,
  /** Conversations with at least one degraded-evidence reason, across the sources. */
  degradedSessions: z.number().int(),
});

/** A project (a working directory) and its conversations; each of the other lines of the list asked for as lines. */
export const listedProjectSchema = z.object({ cwd: z.string().nullable(), sessions: z.array(conversationSummarySchema) });

export const sessionsResponseSchema = sessionsHeadSchema.extend({
  /**
   * Conversations of every source grouped by project (a working directory). Each says its source;
   * a session id held by two sources is listed twice, never merged.
   */
  projects: z.array(listedProjectSchema),
});
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>;

/**
 * `GET /api/sessions?since=<version>`: what changed in the list since that version, for a client
 * that holds it. While a store is first read, the list grows with every file read: a client asks
 * again every second or so, and the whole list (megabytes at 10,000 conversations) each time was
 * most of what a browser did then. `changed`: every conversation whose summary is not the one it
 * was at `since` (new ones too), as of `version`; `removed`: those no longer listed;
 * `degradedSessions` the whole list's count as of `version`, as the server counts it.
 */
export const sessionChangesResponseSchema = z.object({
  schema: z.literal('rec.session-changes/1'),
  since: listVersionSchema,
  version: listVersionSchema,
  sources: listedSourcesSchema,
  degradedSessions: z.number().int(),
  changed: z.array(conversationSummarySchema),
  removed: z.array(z.object({ source: sourceRefSchema, id: z.string() })),
});
export type SessionChangesResponse = z.infer<typeof sessionChangesResponseSchema>;

/** What `GET /api/sessions[?since=]` answers: the whole list, or what changed since the version asked with. */
export const sessionListAnswerSchema = z.discriminatedUnion('schema', [sessionsResponseSchema, sessionChangesResponseSchema]);

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
