// The word spex shows for a status (spex-timeline-format: Lines; session-timeline spec: "each
// status event carrying its composed display word"). The raw status is always shown beside it.

/** The statuses spex writes today; any other is shown as it is, never rejected. */
export const STATUSES = ['active', 'idle', 'awaiting', 'parked', 'error', 'asking', 'queued'] as const;

/**
 * `active` is `working`; `awaiting` is named by its proposal (`merge` → `review`, `close` →
 * `close-pending`, anything else, none included, → `done`); any other status as it is.
 */
export function deriveStatusWord(status: string, proposal: string | null): string {
  if (status === 'active') return 'working';
  if (status !== 'awaiting') return status;
  if (proposal === 'merge') return 'review';
  if (proposal === 'close') return 'close-pending';
  return 'done';
}
