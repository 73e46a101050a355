import type { Outcome } from './record/entry.ts';

// What came of a message, in words that never overstate, for what is read away from the page (an
// exported transcript). They are the page's words (web/src/timeline/outcomeWords.ts); a test
// holds the two to the same words.

export const CORRELATION_NOT_SHOWN = 'Which sent entry this corresponds to: not shown by the record.';

/** A sent entry's host result: `isQueued` says only whether the host queued it. */
export function describeSentOutcome(isQueued: boolean | null, reason: string | null): string {
  if (isQueued === true) return 'queued by the host';
  if (isQueued === false) return reason === null ? 'not queued (the host gave no reason)' : 'not queued:';
  return 'host result not recorded';
}

/** A received entry's outcome, as the receive hook gave it. */
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
