import { z } from 'zod';
import { closingQuote } from '../jsonText.ts';
import type { EvidenceState } from '../evidence.ts';
import type { PublicBytes } from './privateData.ts';
import { STRIPPED_WORDS, stripPrivateData } from './privateData.ts';
import { deriveStatusWord } from './statusWord.ts';

// What one line of a timeline segment is (spex-timeline-format: Lines). Each event is one JSON
// object and a `\n`. Public kinds are `status` and `sent`; any other kind is kept and shown raw.
// Private data (a `dispatch-settled` line, a `dispatchReceipt` member) is taken out of the bytes
// (privateData.ts) before the line is read at all.

/** What a line's bytes say, wherever they sit: the one model of a line, without its place. */
export type LineOutcome =
  /** A line that is an event. */
  | { evidence: 'parsed'; facts: EventFacts }
  /** JSON, but not an event: the why names what is wrong. */
  | { evidence: 'invalid'; why: string }
  /** A complete line that does not parse, or the unterminated end of a closed segment: unknown evidence. */
  | { evidence: 'damaged'; why: string }
  /** Bytes after the last `\n` of a segment that may still grow: read again later. */
  | { evidence: 'pending'; why: string }
  /** Bytes after the last `\n` that stayed unterminated past the pending window: unknown evidence. */
  | { evidence: 'torn'; why: string };

type LineEvidence = LineOutcome['evidence'];

/**
 * The words a line's state crosses the wire as: the record's evidence words, and `torn`, which
 * the record has no need of (a record file is written whole; a segment's end can stop mid-line).
 */
export const LINE_EVIDENCE_STATES = ['parsed', 'pending', 'damaged', 'invalid', 'torn'] as const satisfies readonly (LineEvidence & (EvidenceState | 'torn'))[];

/**
 * What the reader keeps of an event: no `text` and no `note`, which are read again from the line's
 * bytes when a page shows them (readLineView).
 */
export type EventFacts =
  | {
      kind: 'status';
      ts: string;
      /** The status as written. */
      status: string;
      /** The word spex shows for it (deriveStatusWord). */
      word: string;
      proposal: string | null;
      hasNote: boolean;
    }
  | {
      kind: 'sent';
      ts: string;
      mid: string;
      /** The sending session's id, or any other string as written; null is a person. */
      from: string | null;
      /** `note` when the reply was asked for as a note; null when the line has none (a terminal reply). */
      replyVia: string | null;
    }
  /** An event of a kind this reader does not know: kept and shown raw, never guessed at. */
  | { kind: 'unknown'; kindName: string; ts: string | null };

/**
 * The longest string kept as a fact (a time, an id, a status, a kind). Facts stay in memory for
 * as long as the reader runs; an id longer than this is no writer's and would make the index hold
 * text. Such a line is invalid, and says why.
 */
export const FACT_MAX_LENGTH = 1024;

/** Deeper JSON than this is no writer's, and would overflow anything that walks it recursively. */
export const MAX_LINE_DEPTH = 256;

const fact = z.string().max(FACT_MAX_LENGTH, `longer than ${FACT_MAX_LENGTH} characters, which no writer writes`);

const statusSchema = z.looseObject({
  ts: fact,
  status: fact.min(1, 'empty'),
  proposal: fact.nullable(),
  note: z.string().nullable(),
});

const sentSchema = z.looseObject({
  ts: fact,
  mid: fact.min(1, 'empty'),
  text: z.string(),
  // Required: null says a person sent it, so an absent sender must not read as one.
  from: fact.nullable(),
  replyVia: fact.nullable().optional(),
});

// A byte-order mark is kept, so a line that begins with one is not JSON: spex never writes one.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * What one complete line's bytes, as the segment holds them, are. Returns null for a private line,
 * which leaves no trace. Never throws: bad input is an outcome.
 */
export function readLine(bytes: Uint8Array): LineOutcome | null {
  const seen = stripPrivateData(bytes);
  switch (seen.seen) {
    case 'private':
      return null;
    case 'withheld':
      return { evidence: seen.evidence, why: seen.damage };
    case 'as-written':
      return readPublicLine(seen.bytes);
    case 'stripped': {
      // Its bytes are shown without the receipt: a line that is no event says so with its why.
      const outcome = readPublicLine(seen.bytes);
      return outcome.evidence === 'parsed' ? outcome : { ...outcome, why: `${outcome.why}; ${STRIPPED_WORDS}` };
    }
  }
}

function readPublicLine(bytes: PublicBytes): LineOutcome {
  const parsed = parseLineJson(bytes);
  switch (parsed.outcome) {
    case 'unparsed':
      return { evidence: 'damaged', why: parsed.why };
    case 'unsafe':
      return { evidence: 'invalid', why: parsed.why };
    case 'json':
      break;
  }
  const { value, scan } = parsed;
  if (scan.duplicate !== null) return { evidence: 'invalid', why: `${scan.duplicate}: the line says two things, and the reader picks neither` };
  if (!isObject(value)) return { evidence: 'invalid', why: 'an event is a JSON object' };
  const kind = value['kind'];
  if (kind === undefined) return { evidence: 'invalid', why: 'kind: missing' };
  if (typeof kind !== 'string') return { evidence: 'invalid', why: 'kind: expected a string' };
  if (kind === 'status') {
    const result = statusSchema.safeParse(value);
    if (!result.success) return { evidence: 'invalid', why: describeIssues(kind, result.error) };
    const { ts, status, proposal, note } = result.data;
    // spex's empty value is '' in session.json; a line that writes one means no proposal all the same.
    const proposed = proposal === '' ? null : proposal;
    return { evidence: 'parsed', facts: { kind, ts, status, word: deriveStatusWord(status, proposed), proposal: proposed, hasNote: note !== null && note !== '' } };
  }
  if (kind === 'sent') {
    const result = sentSchema.safeParse(value);
    if (!result.success) return { evidence: 'invalid', why: describeIssues(kind, result.error) };
    const { ts, mid, from, replyVia } = result.data;
    return { evidence: 'parsed', facts: { kind, ts, mid, from, replyVia: replyVia ?? null } };
  }
  if (kind.length > FACT_MAX_LENGTH) return { evidence: 'invalid', why: `kind: longer than ${FACT_MAX_LENGTH} characters, which no writer writes` };
  const ts = value['ts'];
  return { evidence: 'parsed', facts: { kind: 'unknown', kindName: kind, ts: typeof ts === 'string' && ts.length <= FACT_MAX_LENGTH ? ts : null } };
}

/** What a line's bytes are as JSON; shared by readLine and readLineView. */
type LineJson =
  | { outcome: 'unparsed'; why: string }
  /** JSON no reader should walk: too deep. */
  | { outcome: 'unsafe'; why: string }
  | { outcome: 'json'; value: unknown; source: string; scan: JsonScan };

/** Decodes and parses a line that stripPrivateData gave. */
export function parseLineJson(bytes: PublicBytes, reviver?: (key: string, value: unknown, context?: { source?: string }) => unknown): LineJson {
  let source: string;
  try {
    source = utf8.decode(bytes);
  } catch {
    return { outcome: 'unparsed', why: 'not valid UTF-8' };
  }
  let value: unknown;
  try {
    value = JSON.parse(source, reviver as Parameters<typeof JSON.parse>[1]);
  } catch {
    // JSON.parse's message quotes the line: a why is in words of this module's own.
    return { outcome: 'unparsed', why: isBlank(source) ? 'an empty line' : 'not JSON' };
  }
  const scan = scanJson(source, MAX_LINE_DEPTH);
  if (scan.tooDeep) return { outcome: 'unsafe', why: `JSON nested deeper than ${MAX_LINE_DEPTH} levels; not shown` };
  return { outcome: 'json', value, source, scan };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isBlank(source: string): boolean {
  return /^[\s]*$/.test(source);
}

function describeIssues(kind: string, error: z.ZodError): string {
  return error.issues.map((issue) => `${kind}: ${issue.path.length > 0 ? issue.path.join('.') : 'line'}: ${issue.message}`).join('; ');
}

type JsonScan = {
  /** The first key written twice in one object, and where: `duplicate key "from" in a.b`; null if none. */
  duplicate: string | null;
  tooDeep: boolean;
};

/**
 * Walks valid JSON text once, without recursion: keys written twice, and the depth. Strings are
 * skipped with indexOf, so a long text costs little more than a search for its closing quote.
 */
function scanJson(json: string, maxDepth: number): JsonScan {
  type Level = { keys: Set<string> | null; path: string; key: string; index: number };
  const levels: Level[] = [];
  const scan: JsonScan = { duplicate: null, tooDeep: false };
  let expectKey = false;
  for (let at = 0; at < json.length; at++) {
    const code = json.charCodeAt(at);
    const level = levels.at(-1);
    if (code === 0x7b || code === 0x5b) {
      if (levels.length >= maxDepth) {
        scan.tooDeep = true;
        return scan;
      }
      const path = level === undefined ? '' : joinPath(level.path, level.keys === null ? String(level.index) : level.key);
      levels.push({ keys: code === 0x7b ? new Set() : null, path, key: '', index: 0 });
      expectKey = code === 0x7b;
    } else if (code === 0x7d || code === 0x5d) {
      levels.pop();
    } else if (code === 0x2c && level !== undefined) {
      if (level.keys === null) level.index++;
      else expectKey = true;
    } else if (code === 0x22) {
      const end = closingQuote(json, at);
      if (expectKey && level?.keys != null) {
        expectKey = false;
        const key = JSON.parse(json.slice(at, end + 1)) as string;
        if (scan.duplicate === null && level.keys.has(key)) scan.duplicate = `duplicate key ${quoteShort(key)}${level.path === '' ? '' : ` in ${level.path}`}`;
        level.keys.add(key);
        level.key = key;
      }
      at = end;
    }
  }
  return scan;
}

function joinPath(path: string, part: string): string {
  return path === '' ? part : `${path}.${part}`;
}

/** A key for a one-line why: quoted, and cut when long, so a why never carries a text. */
function quoteShort(key: string): string {
  return key.length > 64 ? `${JSON.stringify(key.slice(0, 64))}…` : JSON.stringify(key);
}
