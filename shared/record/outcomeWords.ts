import type { Outcome } from './entry.ts';

// What came of a message, in words that never overstate (rule.deliveryResult,
// rule.receiveOutcome): nothing says "delivered" or "read", which the record cannot show. One
// set of words for every view that says it: a session's page, the live view's rows.

/** A sent entry's result as the host gave it; a refused send's reason follows "not queued:". */
export function describeSentOutcome(isQueued: boolean | null, reason: string | null): string {
  if (isQueued === true) return 'queued by the host';
  if (isQueued === false) return reason === null ? 'not queued (the host gave no reason)' : `not queued: ${reason}`;
  return 'host result not recorded';
}

/** A received entry's outcome as its receive hook recorded it. */
export function describeReceivedOutcome(outcome: Outcome | null): string {
  switch (outcome) {
    case 'queued':
      return 'queued: neither read nor acted on';
    case 'consumed':
      return 'consumed';
    case 'rejected':
      return 'rejected: the receive hook was refused';
    case 'unknown':
      return 'outcome unknown';
    case null:
      return 'outcome not recorded';
  }
}
