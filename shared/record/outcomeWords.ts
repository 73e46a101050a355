import type { Outcome } from './entry.ts';

// What came of a message, in words that never overstate (rule.deliveryResult,
// rule.receiveOutcome): nothing says "delivered" or "read", which the record cannot show. One
// set of words for every view that says it: a session's page, the live view's rows, an exported
// transcript.

/** On every received entry: the record does not say which sent entry it answers. */
export const CORRELATION_NOT_SHOWN = 'Which sent entry this corresponds to: not shown by the record.';

/** The words a refused send's reason follows, where a view shows the reason apart. */
export const NOT_QUEUED = 'not queued:';

/** A sent entry's result as the host gave it; a refused send's reason follows "not queued:". */
export function describeSentOutcome(isQueued: boolean | null, reason: string | null): string {
  if (isQueued === true) return 'queued by the host';
  if (isQueued === false) return reason === null ? 'not queued (the host gave no reason)' : `${NOT_QUEUED} ${reason}`;
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
