import { z } from 'zod';
import { deriveStatusWord } from './statusWord.ts';

// `session.json` holds a session's CURRENT state (session-timeline spec: "A session's record holds
// only its CURRENT status"), written whole and renamed into place. It is never history: what a
// session declared is in its timeline. One that does not parse is unknown, not "no session"
// (spex-timeline-format: Layout).

/** The fields this reader uses; '' (spex's empty value) is null here. */
type SessionMeta = {
  session_id: string | null;
  worktree_path: string | null;
  branch: string | null;
  title: string | null;
  name: string | null;
  parent: string | null;
  status: string | null;
  proposal: string | null;
  note: string | null;
  /** As written: spex writes a number, and a string is kept rather than refused. */
  createdAt: number | string | null;
  harness: string | null;
  stopped: boolean | null;
  archived: boolean | null;
  /** Every other field, kept as read, to be shown raw. */
  others: Record<string, unknown>;
};

export type SessionJsonReading =
  | { state: 'known'; meta: SessionMeta }
  /**
   * What the session is now cannot be said: `session.json` is missing from a folder that has a
   * session, is not JSON (`damaged`), is JSON of the wrong shape (`invalid`), or could not be read.
   */
  | { state: 'unknown'; evidence: 'missing' | 'damaged' | 'invalid' | 'unreadable'; why: string };

const text = z.string().nullable().optional();
const flag = z.boolean().nullable().optional();

const sessionJsonSchema = z.looseObject({
  session_id: text,
  worktree_path: text,
  branch: text,
  title: text,
  name: text,
  parent: text,
  status: text,
  proposal: text,
  note: text,
  createdAt: z.union([z.number(), z.string()]).nullable().optional(),
  harness: text,
  stopped: flag,
  archived: flag,
});

const KNOWN_FIELDS = new Set(Object.keys(sessionJsonSchema.shape));

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads `session.json`'s bytes. Never throws: a file that is not a session record is unknown. */
export function readSessionJson(bytes: Uint8Array): SessionJsonReading {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    // JSON.parse's message quotes the bytes; a one-line why must not carry them.
    return { state: 'unknown', evidence: 'damaged', why: bytes.length === 0 ? 'session.json is empty' : 'session.json is not JSON in UTF-8' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { state: 'unknown', evidence: 'invalid', why: 'session.json is not a JSON object' };
  }
  const result = sessionJsonSchema.safeParse(value);
  if (!result.success) {
    const why = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    return { state: 'unknown', evidence: 'invalid', why: `session.json: ${why}` };
  }
  const data = result.data;
  const others: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (!KNOWN_FIELDS.has(key)) others[key] = field;
  return {
    state: 'known',
    meta: {
      session_id: emptyAsNull(data.session_id),
      worktree_path: emptyAsNull(data.worktree_path),
      branch: emptyAsNull(data.branch),
      title: emptyAsNull(data.title),
      name: emptyAsNull(data.name),
      parent: emptyAsNull(data.parent),
      status: emptyAsNull(data.status),
      proposal: emptyAsNull(data.proposal),
      note: emptyAsNull(data.note),
      createdAt: data.createdAt === '' ? null : (data.createdAt ?? null),
      harness: emptyAsNull(data.harness),
      stopped: data.stopped ?? null,
      archived: data.archived ?? null,
      others,
    },
  };
}

/** The session's status now, from `session.json`: current state, never a declaration in the log. */
export type CurrentStatus =
  | {
      state: 'known';
      status: string | null;
      /** The word spex shows for the status; null when there is none. */
      word: string | null;
      proposal: string | null;
      /** Whether session.json holds a note; the note itself is read with the session's page. */
      hasNote: boolean;
      stopped: boolean | null;
      archived: boolean | null;
    }
  | { state: 'unknown'; why: string };

/** The current status a reading says, labelled as such. */
export function readCurrentStatus(reading: SessionJsonReading): CurrentStatus {
  if (reading.state === 'unknown') return { state: 'unknown', why: reading.why };
  const { status, proposal, note, stopped, archived } = reading.meta;
  return { state: 'known', status, word: status === null ? null : deriveStatusWord(status, proposal), proposal, hasNote: note !== null, stopped, archived };
}

function emptyAsNull(value: string | null | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

/**
 * How spex users know a session: the title spex shows for it (its `name` where it has no title)
 * and its branch, from session.json. Both null where session.json names none or is unknown.
 */
type SessionNamed = { title: string | null; branch: string | null };

export function nameSession(reading: SessionJsonReading | null): SessionNamed {
  if (reading?.state !== 'known') return { title: null, branch: null };
  return { title: reading.meta.title ?? reading.meta.name, branch: reading.meta.branch };
}

/** A session's name in one line (`title · branch`), where one string is shown; null where it has none. */
export function describeSessionNamed(named: SessionNamed): string | null {
  const parts = [named.title, named.branch].filter((part) => part !== null);
  return parts.length === 0 ? null : parts.join(' · ');
}

/** A peer's name beside its id, as a live item and a session item carry it (`peerNamed`); nothing where its session.json names none. */
export function peerNamedOf(named: SessionNamed): { peerNamed?: string } {
  const words = describeSessionNamed(named);
  return words === null ? {} : { peerNamed: words };
}
