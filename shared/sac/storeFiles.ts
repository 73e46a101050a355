import { z } from 'zod';
import type { StoreFileName } from './layout.ts';

// The store's JSON files (sac-channels-format: Layout), written whole and renamed into place by
// sac. Each record is checked on its own, so one odd record costs that record and not the file;
// a file that does not parse is unknown, never empty (sac itself reads it as empty). Records are
// walked by hand rather than with z.record, which drops a key named `__proto__` without a word.

/** What the reader found at a store file's name. */
export type StoreFileInput = { state: 'absent' } | { state: 'unreadable'; why: string } | { state: 'read'; bytes: Uint8Array };

/** A record that is not as sac writes it: its key and why, never its value. */
type InvalidRecord = { key: string; why: string };

export type StoreFileReading<Facts> =
  | { state: 'read'; facts: Facts; invalid: InvalidRecord[] }
  /** No such file: nothing was declared in it (a new store has none of them). */
  | { state: 'absent' }
  /** Corrupt (does not parse, or not sac's shape) or unreadable: what it holds is unknown. */
  | { state: 'unknown'; cause: 'corrupt' | 'unreadable'; why: string };

type RegistryAgent = {
  agent: string;
  /** The agent's working directory. */
  project: string | null;
  session: string | null;
  host: string | null;
  rooms: string[];
  lastSeen: string | null;
};

type RegistrySeat = {
  seat: string;
  /** The registry agent it is filed under. */
  agent: string;
  /** The full session id: what joins a seat to a session elsewhere. */
  session: string | null;
  owner: number | null;
  /** Processes that wrote for the seat, with when each last did. `pid` is null when not a number. */
  writers: { pid: number | null; at: string }[];
  rooms: string[];
  firstSeen: string | null;
  lastSeen: string | null;
  remote: boolean;
  /** The host its agent is filed under (liveness.ts, isElsewhere). */
  host: string | null;
};

export type RegistryFacts = { agents: RegistryAgent[]; seats: RegistrySeat[] };
type MembersFacts = { seats: { seat: string; rooms: string[]; left: string[] }[] };
export type RoomsFacts = { rooms: { room: string; by: string | null; at: string | null; pair: [string, string] | null }[] };
export type FocusFacts = { seats: { seat: string; text: string; files: string[]; phase: string | null; ts: string }[] };
export type PresenceFacts = { seats: { seat: string; quiet: boolean; since: string | null; until: string | null }[] };
/** `cursors.json`: per `<room>::<seat>`, the time of the last entry read of each writer. */
export type CursorsFacts = { cursors: { key: string; read: { writer: string; time: string }[] }[] };

export type StoreFacts = {
  registry: StoreFileReading<RegistryFacts>;
  members: StoreFileReading<MembersFacts>;
  rooms: StoreFileReading<RoomsFacts>;
  focus: StoreFileReading<FocusFacts>;
  presence: StoreFileReading<PresenceFacts>;
  cursors: StoreFileReading<CursorsFacts>;
};

// Nested records are kept as the same object, never copied by zod: a copy loses `__proto__`.
const jsonObject = z.custom<Record<string, unknown>>((value) => isObject(value), 'expected an object');
const text = z.string();
const nullableText = z.string().nullable().optional();
const names = z.array(z.string());

const agentSchema = z.looseObject({
  agent: text.optional(),
  project: nullableText,
  session: nullableText,
  host: nullableText,
  rooms: names.optional(),
  lastSeen: nullableText,
  seats: jsonObject.optional(),
});

const seatSchema = z.looseObject({
  session: nullableText,
  owner: z.number().nullable().optional(),
  writers: jsonObject.optional(),
  rooms: names.optional(),
  firstSeen: nullableText,
  lastSeen: nullableText,
  remote: z.boolean().optional(),
});

const membersSchema = z.union([names, z.looseObject({ rooms: names, left: names.optional() })]);
const roomSchema = z.looseObject({ by: nullableText, at: nullableText, pair: z.unknown().optional() });
const focusSchema = z.looseObject({ text, files: names.optional(), phase: nullableText, ts: text });
const presenceSchema = z.looseObject({ quiet: z.boolean(), since: nullableText, until: nullableText });

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The top object of a store file, or why there is none. */
function parseObject(input: StoreFileInput, name: string): { object: Record<string, unknown> } | StoreFileReading<never> {
  if (input.state === 'absent') return { state: 'absent' };
  if (input.state === 'unreadable') return { state: 'unknown', cause: 'unreadable', why: `${name} could not be read: ${input.why}` };
  if (input.bytes.length === 0) return { state: 'unknown', cause: 'corrupt', why: `${name} is empty, which sac never writes: what it holds is unknown` };
  let source: string;
  try {
    source = strict.decode(input.bytes);
  } catch {
    return { state: 'unknown', cause: 'corrupt', why: `${name} is not UTF-8: what it holds is unknown` };
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return { state: 'unknown', cause: 'corrupt', why: `${name} is not JSON: what it holds is unknown` };
  }
  if (!isObject(value)) return { state: 'unknown', cause: 'corrupt', why: `${name} is JSON but not an object: what it holds is unknown` };
  return { object: value };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'record'}: ${issue.message}`).join('; ');
}

/** Checks each record of an object with `schema`; bad ones go to `invalid`, by key. */
function eachRecord<T>(object: Record<string, unknown>, schema: z.ZodType<T>, keyPrefix: string, invalid: InvalidRecord[], take: (key: string, record: T) => void): void {
  for (const [key, value] of Object.entries(object)) {
    const result = schema.safeParse(value);
    if (result.success) take(key, result.data);
    else invalid.push({ key: `${keyPrefix}${key}`, why: describeIssues(result.error) });
  }
}

export function readRegistry(input: StoreFileInput): StoreFileReading<RegistryFacts> {
  const top = parseObject(input, 'registry.json');
  if (!('object' in top)) return top;
  const agentsValue = top.object['agents'];
  if (!isObject(agentsValue)) return { state: 'unknown', cause: 'corrupt', why: 'registry.json has no agents object: what it holds is unknown' };
  const facts: RegistryFacts = { agents: [], seats: [] };
  const invalid: InvalidRecord[] = [];
  eachRecord(agentsValue, agentSchema, 'agents.', invalid, (agent, record) => {
    facts.agents.push({
      agent,
      project: record.project ?? null,
      session: record.session ?? null,
      host: record.host ?? null,
      rooms: record.rooms ?? [],
      lastSeen: record.lastSeen ?? null,
    });
    eachRecord(record.seats ?? {}, seatSchema, `agents.${agent}.seats.`, invalid, (seat, seatRecord) => {
      const writers: RegistrySeat['writers'] = [];
      for (const [pid, at] of Object.entries(seatRecord.writers ?? {})) {
        if (typeof at !== 'string') {
          invalid.push({ key: `agents.${agent}.seats.${seat}.writers.${pid}`, why: 'expected the time the process last wrote' });
          continue;
        }
        writers.push({ pid: /^[1-9]\d{0,9}$/.test(pid) ? Number(pid) : null, at });
      }
      facts.seats.push({
        seat,
        agent,
        session: seatRecord.session ?? null,
        owner: seatRecord.owner ?? null,
        writers,
        rooms: seatRecord.rooms ?? [],
        firstSeen: seatRecord.firstSeen ?? null,
        lastSeen: seatRecord.lastSeen ?? null,
        remote: seatRecord.remote === true,
        host: record.host ?? null,
      });
    });
  });
  return { state: 'read', facts, invalid };
}

export function readMembers(input: StoreFileInput): StoreFileReading<MembersFacts> {
  const top = parseObject(input, 'members.json');
  if (!('object' in top)) return top;
  const facts: MembersFacts = { seats: [] };
  const invalid: InvalidRecord[] = [];
  // The first shape this file had was a bare list of rooms; sac still reads it.
  eachRecord(top.object, membersSchema, '', invalid, (seat, record) =>
    facts.seats.push(Array.isArray(record) ? { seat, rooms: record, left: [] } : { seat, rooms: record.rooms, left: record.left ?? [] }),
  );
  return { state: 'read', facts, invalid };
}

export function readRooms(input: StoreFileInput): StoreFileReading<RoomsFacts> {
  const top = parseObject(input, 'rooms.json');
  if (!('object' in top)) return top;
  const facts: RoomsFacts = { rooms: [] };
  const invalid: InvalidRecord[] = [];
  eachRecord(top.object, roomSchema, '', invalid, (room, record) => {
    // sac's pairOf: a room of two only when `pair` is a list of exactly two.
    const pair = record.pair;
    const isPair = Array.isArray(pair) && pair.length === 2 && pair.every((seat) => typeof seat === 'string');
    if (record.pair !== undefined && !isPair) invalid.push({ key: `${room}.pair`, why: 'not a list of two seats: not a room of two' });
    facts.rooms.push({ room, by: record.by ?? null, at: record.at ?? null, pair: isPair ? [pair[0] as string, pair[1] as string] : null });
  });
  return { state: 'read', facts, invalid };
}

export function readFocus(input: StoreFileInput): StoreFileReading<FocusFacts> {
  const top = parseObject(input, 'focus.json');
  if (!('object' in top)) return top;
  const facts: FocusFacts = { seats: [] };
  const invalid: InvalidRecord[] = [];
  eachRecord(top.object, focusSchema, '', invalid, (seat, record) =>
    facts.seats.push({ seat, text: record.text, files: record.files ?? [], phase: record.phase ?? null, ts: record.ts }),
  );
  return { state: 'read', facts, invalid };
}

export function readPresence(input: StoreFileInput): StoreFileReading<PresenceFacts> {
  const top = parseObject(input, 'presence.json');
  if (!('object' in top)) return top;
  const facts: PresenceFacts = { seats: [] };
  const invalid: InvalidRecord[] = [];
  eachRecord(top.object, presenceSchema, '', invalid, (seat, record) =>
    facts.seats.push({ seat, quiet: record.quiet, since: record.since ?? null, until: record.until ?? null }),
  );
  return { state: 'read', facts, invalid };
}

export function readCursors(input: StoreFileInput): StoreFileReading<CursorsFacts> {
  const top = parseObject(input, 'cursors.json');
  if (!('object' in top)) return top;
  const facts: CursorsFacts = { cursors: [] };
  const invalid: InvalidRecord[] = [];
  eachRecord(top.object, jsonObject, '', invalid, (key, record) => {
    const read: CursorsFacts['cursors'][number]['read'] = [];
    for (const [writer, time] of Object.entries(record)) {
      if (typeof time === 'string') read.push({ writer, time });
      else invalid.push({ key: `${key}.${writer}`, why: 'expected the time of the last entry read' });
    }
    facts.cursors.push({ key, read });
  });
  return { state: 'read', facts, invalid };
}

/** Reads the six store files this reader uses, each as its input says. */
export function readStoreFiles(inputs: Readonly<Record<StoreFileName, StoreFileInput>>): StoreFacts {
  return {
    registry: readRegistry(inputs['registry.json']),
    members: readMembers(inputs['members.json']),
    rooms: readRooms(inputs['rooms.json']),
    focus: readFocus(inputs['focus.json']),
    presence: readPresence(inputs['presence.json']),
    cursors: readCursors(inputs['cursors.json']),
  };
}

/** The store files by the name each has on disk, for reasons that name them. */
export const STORE_FILE_OF: Readonly<Record<keyof StoreFacts, StoreFileName>> = {
  registry: 'registry.json',
  members: 'members.json',
  rooms: 'rooms.json',
  focus: 'focus.json',
  presence: 'presence.json',
  cursors: 'cursors.json',
};

/** Reads one store file: its facts, as readStoreFiles gives them under its key. */
export function readStoreFile(name: StoreFileName, input: StoreFileInput): StoreFacts[keyof StoreFacts] {
  return READERS[name](input);
}

const READERS: Readonly<Record<StoreFileName, (input: StoreFileInput) => StoreFacts[keyof StoreFacts]>> = {
  'registry.json': readRegistry,
  'members.json': readMembers,
  'rooms.json': readRooms,
  'focus.json': readFocus,
  'presence.json': readPresence,
  'cursors.json': readCursors,
};
