import type { z } from 'zod';
import type { SacFlowItem, sacSeatResponseSchema } from '../../../../shared/wire/sac.ts';

// A seat's Sent and Received on the shell's one time axis. The server gives each column in the
// order the core placed it, the newest `limit` of each; here the two are laid side by side by the
// instant the core placed each item at (`at`). An item the core gave no instant (stray text, a
// tail with no dated neighbour) stays right after the item before it in its column; on the same
// instant, Sent comes first. Nothing here pairs a received entry with a sent one: the order is a
// time axis, not a claim.

type SeatPage = z.infer<typeof sacSeatResponseSchema>;
type SeatRow = { item: SacFlowItem; column: 'sent' | 'received' };

/**
 * The newest rows of the seat, in order: only the stretch both columns hold whole. A column the
 * page holds only the newest of is whole from its oldest dated item on; items of either column
 * before that belong among items not fetched, and wait for a wider page. `total`: every row the
 * seat has, fetched or not.
 */
export function seatRows(page: SeatPage): { rows: SeatRow[]; total: number } {
  const total = page.sentTotal + page.receivedTotal;
  const sentFrom = page.sentTotal > page.sent.length ? firstInstant(page.sent) : null;
  const receivedFrom = page.receivedTotal > page.received.length ? firstInstant(page.received) : null;
  const from = Math.max(sentFrom ?? -Infinity, receivedFrom ?? -Infinity);
  const sent = completeFrom(page.sent, from);
  const received = completeFrom(page.received, from);
  const rows: SeatRow[] = [];
  let s = 0;
  let r = 0;
  while (s < sent.length || r < received.length) {
    const nextSent = sent[s];
    const nextReceived = received[r];
    const takeSent = nextReceived === undefined || (nextSent !== undefined && (instant(nextSent) === null || (instant(nextReceived) !== null && instant(nextSent)! <= instant(nextReceived)!)));
    if (takeSent) rows.push({ item: sent[s++]!, column: 'sent' });
    else rows.push({ item: received[r++]!, column: 'received' });
  }
  return { rows, total };
}

function instant(item: SacFlowItem): number | null {
  if (item.at === null) return null;
  const ms = Date.parse(item.at);
  return Number.isNaN(ms) ? null : ms;
}

function firstInstant(items: readonly SacFlowItem[]): number | null {
  for (const item of items) {
    const at = instant(item);
    if (at !== null) return at;
  }
  return null;
}

/** A column from `from` on: undated items before its first kept one have no place known yet either. */
function completeFrom(items: readonly SacFlowItem[], from: number): readonly SacFlowItem[] {
  if (from === -Infinity) return items;
  let start = 0;
  while (start < items.length) {
    const at = instant(items[start]!);
    if (at !== null && at >= from) break;
    start++;
  }
  return items.slice(start);
}
