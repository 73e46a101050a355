import type { DegradedCode, DegradedReason } from './degraded.ts';
import { ownLineKey } from './itemKey.ts';

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
  /** Segments not read, in the other logs; a session folder not read counts as one. */
  segments: number;
  /** The sessions whose logs hold them, in the order of their ids, at most `LOGS_NAMED`. */
  logs: string[];
  /**
   * Beside each of `logs`, the key of its first line not read on that log's own page (`line-<n>`,
   * shared/spex/itemKey.ts), where a link opens it; null where only segments were not read.
   */
  firstLines: (string | null)[];
  /** How many more logs hold them than are named. */
  moreLogs: number;
};

/** How many of the logs that hold lines of unknown sender are named. */
const LOGS_NAMED = 20;
const UNKNOWN_LINE_CODES: ReadonlySet<DegradedCode> = new Set(['damaged-line', 'invalid-line', 'torn-write']);

/**
 * What one log holds that names no sender: its lines not read as events, the first of them (null:
 * none), and its segments not read (a folder not read counts as one).
 */
export function countUnknownSenders(degraded: readonly DegradedReason[]): { lines: number; firstLine: number | null; segments: number } {
  let lines = 0;
  let firstLine: number | null = null;
  let segments = 0;
  for (const reason of degraded) {
    if (UNKNOWN_LINE_CODES.has(reason.code)) {
      lines += reason.lines.length;
      for (const line of reason.lines) if (firstLine === null || line < firstLine) firstLine = line;
    } else if (reason.code === 'unreadable') segments += Math.max(1, reason.files.length);
  }
  return { lines, firstLine, segments };
}

/**
 * SentUnknown of `sessionId` over the home's logs (its own left out: it never holds what it
 * sent), the logs named in the order of their ids; null when every other log was read whole.
 */
export function describeSentUnknown(sessionId: string, logs: Iterable<{ sessionId: string; degraded: readonly DegradedReason[] }>): SentUnknown | null {
  let lines = 0;
  let segments = 0;
  const holding: { sessionId: string; firstLine: number | null }[] = [];
  for (const log of logs) {
    if (log.sessionId === sessionId) continue;
    const found = countUnknownSenders(log.degraded);
    if (found.lines + found.segments === 0) continue;
    lines += found.lines;
    segments += found.segments;
    holding.push({ sessionId: log.sessionId, firstLine: found.firstLine });
  }
  if (holding.length === 0) return null;
  holding.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
  const named = holding.slice(0, LOGS_NAMED);
  return {
    lines,
    segments,
    logs: named.map((log) => log.sessionId),
    firstLines: named.map((log) => (log.firstLine === null ? null : ownLineKey(log.firstLine))),
    moreLogs: Math.max(0, holding.length - LOGS_NAMED),
  };
}

/** SentUnknown in a few words, for a summary the note folds under: how much, in how many logs. */
export function sayHowMuchSentMayLack(found: SentUnknown): string {
  const parts: string[] = [];
  if (found.lines > 0) parts.push(`${found.lines} ${found.lines === 1 ? 'line' : 'lines'}`);
  if (found.segments > 0) parts.push(`${found.segments} ${found.segments === 1 ? 'segment' : 'segments'}`);
  const logs = found.logs.length + found.moreLogs;
  return `${parts.join(' and ')} of ${logs} other ${logs === 1 ? 'log' : 'logs'} not read`;
}

/** The logs a SentUnknown names, in words after its sentence: "Those logs: a, b and 3 more." */
export function sayWhichLogs(found: SentUnknown): string {
  return `Those logs: ${found.logs.join(', ')}${found.moreLogs > 0 ? ` and ${found.moreLogs} more` : ''}.`;
}

/** SentUnknown in words, for a page's note and an export's head: never that nothing is missing, never that something is. */
export function sayWhatSentMayLack(found: SentUnknown): string {
  const parts: string[] = [];
  if (found.lines > 0) parts.push(`${found.lines} ${found.lines === 1 ? 'line not read as an event' : 'lines not read as events'} (damaged, torn, or JSON that is not an event)`);
  if (found.segments > 0) parts.push(`${found.segments} ${found.segments === 1 ? 'segment' : 'segments'} not read`);
  const logs = found.logs.length + found.moreLogs;
  const whose = found.lines + found.segments === 1 ? 'whose it is, nothing says, so it may be a message this session sent' : 'whose they are, nothing says, so any of them may be a message this session sent';
  return `${parts.join(' and ')} in ${logs} other ${logs === 1 ? "session's log" : "sessions' logs"}: ${whose}.`;
}
