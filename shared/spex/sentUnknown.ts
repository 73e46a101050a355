import type { DegradedCode, DegradedReason } from './degraded.ts';

// What a session's Sent may lack. Its Sent is the `sent` lines of other sessions' logs whose
// `from` is its id (sentBy.ts); a line of those logs that is not read as an event, or a segment
// not read, names no sender, so any of them may be a message it sent. In a module of its own, of
// words and counts only: the page says it in the same words as the export.

/**
 * What a session's Sent may lack: the lines of other sessions' logs that are not events (damaged,
 * torn, or JSON that is not an event) and their segments that were not read. Whose each one is,
 * nothing says, so any of them may be a message this session sent: its Sent is what the other
 * logs say it sent, and these are where they say nothing readable.
 */
export type SentUnknown = {
  /** Lines not read as events, in the other logs. */
  lines: number;
  /** Segments not read, in the other logs (a folder not read counts as one). */
  segments: number;
  /** The sessions whose logs hold them, in the order given, at most `LOGS_NAMED`. */
  logs: string[];
  /** How many more logs hold them than are named. */
  moreLogs: number;
};

/** How many of the logs that hold lines of unknown sender are named. */
const LOGS_NAMED = 20;
const UNKNOWN_LINE_CODES: ReadonlySet<DegradedCode> = new Set(['damaged-line', 'invalid-line', 'torn-write']);

/** SentUnknown of `sessionId` over the home's logs (its own left out: it never holds what it sent); null when every other log was read whole. */
export function describeSentUnknown(sessionId: string, logs: Iterable<{ sessionId: string; degraded: readonly DegradedReason[] }>): SentUnknown | null {
  const found: SentUnknown = { lines: 0, segments: 0, logs: [], moreLogs: 0 };
  for (const log of logs) {
    if (log.sessionId === sessionId) continue;
    let holds = false;
    for (const reason of log.degraded) {
      if (UNKNOWN_LINE_CODES.has(reason.code) && reason.lines.length > 0) {
        found.lines += reason.lines.length;
        holds = true;
      } else if (reason.code === 'unreadable') {
        found.segments += Math.max(1, reason.files.length);
        holds = true;
      }
    }
    if (!holds) continue;
    if (found.logs.length < LOGS_NAMED) found.logs.push(log.sessionId);
    else found.moreLogs++;
  }
  return found.lines + found.segments === 0 ? null : found;
}

/** SentUnknown in words, for a page's note and an export's head: never that nothing is missing, never that something is. */
export function sayWhatSentMayLack(found: SentUnknown): string {
  const parts: string[] = [];
  if (found.lines > 0) parts.push(`${found.lines} ${found.lines === 1 ? 'line' : 'lines'} not read as events (damaged, torn, or JSON that is not an event)`);
  if (found.segments > 0) parts.push(`${found.segments} ${found.segments === 1 ? 'segment' : 'segments'} not read`);
  const logs = found.logs.length + found.moreLogs;
  return `${parts.join(' and ')} in ${logs} other ${logs === 1 ? "session's log" : "sessions' logs"}: whose they are, nothing says, so any of them may be a message this session sent.`;
}
