import { z } from 'zod';

// The entry kinds a reader knows (record-spec: entryKinds, startEntry, messageEntry, chainEntry).
// Every schema is loose: fields this reader does not know are kept and shown raw, so a newer
// writer's entries still read (record-format: forward compatibility).

const at = z.iso.datetime({ precision: 3 }); // record-spec: timeFormat
const sessionId = z.string().min(1);
const cwd = z.string();

export const startEntrySchema = z.looseObject({
  kind: z.literal('start'),
  sessionId,
  at,
  cwd,
  host: z.string(),
  version: z.string(),
  // The host's inbound setting as read: accept, hold, refuse, or anything else the host said.
  inbound: z.string(),
});

/** `as` is the address or name exactly as the host gave it; empty or missing means unknown. */
export const peerSchema = z.looseObject({
  as: z.string().optional(),
  sessionId: z.string().optional(),
});

export const OUTCOMES = ['queued', 'consumed', 'rejected', 'unknown'] as const;
export type Outcome = (typeof OUTCOMES)[number];

const TEXT_HASH = /^sha256:[0-9a-f]{64}$/;

export const messageEntrySchema = z
  .looseObject({
    kind: z.literal('message'),
    sessionId,
    at,
    cwd,
    side: z.enum(['sent', 'received']),
    peer: peerSchema.optional(),
    envelope: z.unknown().optional(),
    text: z.string().optional(),
    textLength: z.number().int().nonnegative().optional(),
    textHash: z.string().regex(TEXT_HASH, 'expected sha256: and 64 lowercase hex digits').optional(),
    isQueued: z.boolean().optional(),
    reason: z.string().nullable().optional(),
    outcome: z.enum(OUTCOMES).optional(),
  })
  .superRefine((entry, ctx) => {
    // Metadata mode (rule.metadataOnly) replaces the text by its length and hash; an entry has
    // one or the other, never neither.
    const withheld = entry.textLength !== undefined || entry.textHash !== undefined;
    if (entry.text === undefined && !(entry.textLength !== undefined && entry.textHash !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: withheld ? [entry.textLength === undefined ? 'textLength' : 'textHash'] : ['text'],
        message: withheld ? 'a withheld text needs both textLength and textHash' : 'a message needs text, or textLength and textHash',
      });
    }
    if (entry.side === 'sent' && entry.isQueued === undefined) {
      ctx.addIssue({ code: 'custom', path: ['isQueued'], message: 'a sent entry holds the host result isQueued' });
    }
    if (entry.side === 'received' && entry.outcome === undefined) {
      ctx.addIssue({ code: 'custom', path: ['outcome'], message: 'a received entry holds its outcome' });
    }
  });

export const chainEntrySchema = z.looseObject({
  kind: z.literal('chain'),
  sessionId,
  at,
  cwd,
  parent: z.string().min(1),
  part: z.union([z.number(), z.string()]),
  brief: z.string(),
});

export type StartEntry = z.infer<typeof startEntrySchema>;
export type MessageEntry = z.infer<typeof messageEntrySchema>;
export type ChainEntry = z.infer<typeof chainEntrySchema>;

const KNOWN_KINDS = { start: startEntrySchema, message: messageEntrySchema, chain: chainEntrySchema } as const;
export type KnownKind = keyof typeof KNOWN_KINDS;

function isKnownKind(kind: string): kind is KnownKind {
  return Object.hasOwn(KNOWN_KINDS, kind);
}

/**
 * What the reader keeps in memory of an entry that parsed: enough to order, count, group and
 * filter, and no message text (texts are read from disk when a page of a session is asked for).
 */
export type EntryFacts =
  | { kind: 'start'; sessionId: string; at: string; cwd: string; host: string; version: string; inbound: string }
  | {
      kind: 'message';
      sessionId: string;
      at: string;
      cwd: string;
      side: 'sent' | 'received';
      /** The peer as the host gave it; null when the record does not know it. */
      peerAs: string | null;
      /** A full peer session id, only where the writer resolved one (rule.peerAsSeen). */
      peerSessionId: string | null;
      /** Sent entries only: the host's answer. Queued is not delivered, read or acted on. */
      isQueued: boolean | null;
      /** Received entries only. */
      outcome: Outcome | null;
      /** The text was withheld (metadata mode). */
      withheld: boolean;
    }
  | { kind: 'chain'; sessionId: string; at: string; cwd: string; parent: string; part: number | string; brief: string }
  /** An entry of a kind this reader does not know: kept and shown raw, never guessed at. */
  | { kind: 'unknown'; kindName: string; sessionId: string | null; at: string | null; cwd: string | null };

export type EntryReading =
  | { outcome: 'entry'; facts: EntryFacts; value: Record<string, unknown> }
  /** Not UTF-8 or not JSON: maybe still being written (rule.oneWriter), maybe cut short. */
  | { outcome: 'unparsed'; why: string }
  /** JSON, but not an entry this reader can vouch for; `value` is left out when unsafe to show. */
  | { outcome: 'invalid'; why: string; value?: unknown };

/**
 * Deeper JSON than this is not an entry the plugin wrote, and could not be passed on: a value
 * nested 100,000 deep parses, but overflows the stack of anything that walks it recursively
 * (JSON.stringify among them).
 */
export const MAX_ENTRY_DEPTH = 256;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads one entry file's bytes. Never throws: bad input is an outcome, not a crash. */
export function readEntry(bytes: Uint8Array): EntryReading {
  let source: string;
  try {
    source = utf8.decode(bytes);
  } catch {
    return { outcome: 'unparsed', why: 'not valid UTF-8' };
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    return { outcome: 'unparsed', why: bytes.length === 0 ? 'empty file' : `not JSON: ${(error as Error).message}` };
  }
  return validateEntry(value);
}

/** Validates a parsed JSON value as an entry. */
export function validateEntry(value: unknown): EntryReading {
  if (exceedsDepth(value, MAX_ENTRY_DEPTH)) {
    return { outcome: 'invalid', why: `JSON nested deeper than ${MAX_ENTRY_DEPTH} levels; not shown` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { outcome: 'invalid', why: 'an entry is a JSON object', value };
  }
  const object = value as Record<string, unknown>;
  const kind = object['kind'];
  if (typeof kind !== 'string') return { outcome: 'invalid', why: 'kind: expected a string', value };
  if (!isKnownKind(kind)) {
    return {
      outcome: 'entry',
      value: object,
      facts: {
        kind: 'unknown',
        kindName: kind,
        sessionId: stringOrNull(object['sessionId']),
        at: stringOrNull(object['at']),
        cwd: stringOrNull(object['cwd']),
      },
    };
  }
  const result = KNOWN_KINDS[kind].safeParse(value);
  if (!result.success) {
    const why = result.error.issues
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : kind}: ${issue.message}`)
      .join('; ');
    return { outcome: 'invalid', why, value };
  }
  return { outcome: 'entry', value: object, facts: factsOf(result.data as StartEntry | MessageEntry | ChainEntry) };
}

function factsOf(entry: StartEntry | MessageEntry | ChainEntry): EntryFacts {
  switch (entry.kind) {
    case 'start':
      return {
        kind: 'start',
        sessionId: entry.sessionId,
        at: entry.at,
        cwd: entry.cwd,
        host: entry.host,
        version: entry.version,
        inbound: entry.inbound,
      };
    case 'chain':
      return {
        kind: 'chain',
        sessionId: entry.sessionId,
        at: entry.at,
        cwd: entry.cwd,
        parent: entry.parent,
        part: entry.part,
        brief: entry.brief,
      };
    case 'message':
      return {
        kind: 'message',
        sessionId: entry.sessionId,
        at: entry.at,
        cwd: entry.cwd,
        side: entry.side,
        peerAs: entry.peer?.as ? entry.peer.as : null,
        peerSessionId: entry.peer?.sessionId ? entry.peer.sessionId : null,
        isQueued: entry.side === 'sent' ? (entry.isQueued ?? null) : null,
        outcome: entry.side === 'received' ? (entry.outcome ?? null) : null,
        withheld: entry.text === undefined,
      };
  }
}

/** Whether a JSON value nests deeper than `limit`; iterative, so any depth is safe to ask. */
function exceedsDepth(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (const child of Object.values(node as object)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
