import { receivedShownAtFirst } from '../../../../shared/sac/seat.ts';
import type { SacSeatSummary } from '../../../../shared/wire/sac.ts';

/**
 * How many received entries a seat's page shows: at first those sac's core says
 * (receivedShownAtFirst), all of them with the entries to others (`?others=1`). The sidebar's
 * count, the overview's and the page's heading say the same number.
 */
export function receivedShown(counts: SacSeatSummary['counts'], others: boolean): number {
  return others ? counts.received : receivedShownAtFirst(counts);
}
