import type { SacSeatSummary } from '../../../../shared/wire/sac.ts';

/**
 * How many received entries a seat's page shows: sac counts the entries in the seat's rooms
 * addressed to others among those it received, and the page shows them only on demand
 * (`?others=1`). The sidebar's count and the page's heading say the same number.
 */
export function receivedShown(counts: SacSeatSummary['counts'], others: boolean): number {
  return others ? counts.received : counts.received - counts.toOthers;
}
