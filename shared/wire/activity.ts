import { z } from 'zod';
import { sourceRefSchema } from './common.ts';

// A busy conversation at a glance, from what the source's index already holds: how many items
// fell in each minute, and how many messages each peer exchanged. No text is read for it, so a
// session of 100,000 entries is summed whole, not only the pages a browser happens to have.

/** What a conversation's pages can be narrowed to; null (false for `refused`) where no filter is set. */
const conversationFilterSchema = z.object({
  side: z.enum(['sent', 'received']).nullable(),
  /**
   * A peer as the host gave it (`peer.as`, exactly); `{ as: null }` selects the messages whose
   * host gave no name or address ("unknown"), which is not the same as one named "unknown".
   */
  peer: z.object({ as: z.string().nullable() }).nullable(),
  /** Only the messages refused: sent ones the host did not queue (`isQueued: false`), received ones it rejected (`outcome: "rejected"`). */
  refused: z.boolean(),
});
export type ConversationFilter = z.infer<typeof conversationFilterSchema>;

const activityMinuteSchema = z.object({
  /** The minute, as an ISO instant at its start (UTC): `2026-11-20T09:00:00.000Z`. */
  minute: z.string(),
  /** Items whose time falls in that minute, in the filtered order. */
  count: z.number().int().nonnegative(),
  /** The position of its first item in the filtered order: where a page with that filter holds it. */
  firstIndex: z.number().int().nonnegative(),
});
export type ActivityMinute = z.infer<typeof activityMinuteSchema>;

const activityPeerSchema = z.object({
  /** The peer exactly as the host gave it; null when it gave none (shown as "unknown"). */
  as: z.string().nullable(),
  sent: z.number().int().nonnegative(),
  received: z.number().int().nonnegative(),
});
export type ActivityPeer = z.infer<typeof activityPeerSchema>;

export const activityResponseSchema = z.object({
  schema: z.literal('rec.session-activity/1'),
  source: sourceRefSchema,
  sessionId: z.string(),
  filter: conversationFilterSchema,
  /** Items in the filtered order: a page with the same filter says the same `page.total`. */
  total: z.number().int().nonnegative(),
  /**
   * Of `total`, the message entries: the rest are what stays in place whatever the filter (a
   * gap, a start entry, a file that holds no message), which says nothing of a side or a peer.
   */
  messages: z.number().int().nonnegative(),
  /** Minutes that hold at least one item, in order; an empty minute is not listed. */
  minutes: z.array(activityMinuteSchema),
  /** Items with no time of their own (gaps, stray files): in the total, in no minute. */
  undated: z.number().int().nonnegative(),
  /** Every peer of the whole conversation (whatever the filter), most messages first. */
  peers: z.array(activityPeerSchema),
});
export type ActivityResponse = z.infer<typeof activityResponseSchema>;
