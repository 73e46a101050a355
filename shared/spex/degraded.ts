// Degraded reasons of a spex timeline: evidence that what the reader can say of a session is
// incomplete, each with a stable code and the files and lines it rests on. A reason is never a
// verdict that nothing happened (spex-timeline-format: What a reader must do, "Unknown vs nothing").

export const DEGRADED_CODES = [
  /** Complete lines that do not parse, and unterminated ends of closed segments. */
  'damaged-line',
  /** Lines that are JSON but not events. */
  'invalid-line',
  /** An unterminated end that stopped growing: a write cut short. */
  'torn-write',
  /** Segments whose bytes changed after they were read, or that grew once closed. */
  'changed-after-read',
  /** Segments that could not be read; or the session folder itself, listed and not read (its name is not UTF-8). */
  'unreadable',
  /** `session.json` missing, not JSON, of the wrong shape, or not readable: the current state is unknown. */
  'session-json-unknown',
  /** `session.json` names a session other than its folder's. */
  'session-mismatch',
] as const;

export type DegradedCode = (typeof DEGRADED_CODES)[number];

export type DegradedReason = {
  code: DegradedCode;
  /** The files the reason rests on, in log order: segment names, or `session.json`. */
  files: string[];
  /** The log's line numbers it rests on, when it rests on lines. */
  lines: number[];
  /** Why, in one line, when the reason rests on one file that says (session.json). */
  why: string | null;
};

/** The reason in plain words, for a banner. Never says that nothing happened. */
export function describeReason(reason: DegradedReason): string {
  const lines = reason.lines.length;
  const files = reason.files.length;
  const segments = files === 1 ? 'segment' : 'segments';
  switch (reason.code) {
    case 'damaged-line':
      return `${lines} ${lines === 1 ? 'line does' : 'lines do'} not parse (for example a write cut short): unknown evidence, not nothing.`;
    case 'invalid-line':
      return `${lines} ${lines === 1 ? 'line holds' : 'lines hold'} JSON that is not an event: shown raw, unknown evidence.`;
    case 'torn-write':
      return `${lines} ${lines === 1 ? 'line' : 'lines'} stopped before ${lines === 1 ? 'its' : 'their'} end and did not complete in time: a write cut short, unknown evidence.`;
    case 'changed-after-read':
      return `${files} ${segments} changed after ${files === 1 ? 'it was' : 'they were'} read; spex only appends, so something else touched ${files === 1 ? 'it' : 'them'}. What was read is kept.`;
    case 'unreadable':
      // No file: the session folder itself was not read, and says why.
      if (files === 0) return `The session folder was not read: ${reason.why ?? 'it could not be'}. What it holds is unknown, not nothing.`;
      return `${files} ${segments} could not be read: what ${files === 1 ? 'it holds' : 'they hold'} is unknown.`;
    case 'session-json-unknown':
      return `What the session is now is unknown (${reason.why ?? 'session.json could not be read'}); its timeline is read all the same.`;
    case 'session-mismatch':
      return `session.json names a session other than its folder's (${reason.why ?? 'another id'}).`;
  }
}
