import { z } from 'zod';
import { EVIDENCE_STATES } from '../evidence.ts';
import { DEGRADED_CODES } from '../sac/degraded.ts';
import { ENTRY_TYPES } from '../sac/entryHeader.ts';
import { decimalQuerySchema, kindRefSchema, queryTextSchema, largeTextSchema, snippetMatchSchema, snippetCutSchema, statedSessionSchema } from './common.ts';

// What a set-agent-comm source puts on the wire: seats as conversations, a seat's Sent | Received,
// rooms and their flow, one entry whole, and search hits. Every fact the browser shows is here as
// the core concluded it (addressing, sac's cursor, liveness, focus freshness): the browser applies
// none of sac's rules.

const sacSourceRefSchema = kindRefSchema('sac');
const evidenceStateSchema = z.enum(EVIDENCE_STATES);

const sacDegradedReasonSchema = z.object({
  code: z.enum(DEGRADED_CODES),
  /** The reason in plain words, from the core. */
  words: z.string(),
  /** Files relative to the store's root; at most 20 listed, `filesTotal` says how many. */
  files: z.array(z.string()),
  filesTotal: z.number().int(),
  /** Where in those files (torn writes, stray text): each with the seat whose file it is and its flow item, to link to. */
  ranges: z.array(z.object({ file: z.string(), start: z.number().int(), end: z.number().int(), room: z.string(), seat: z.string(), item: z.string() })).optional(),
});
export type SacDegradedReason = z.infer<typeof sacDegradedReasonSchema>;

const sacFocusSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('declared'),
    text: z.string(),
    files: z.array(z.string()),
    phase: z.string().nullable(),
    ts: z.string(),
    /** stale: older than 4 h (sac's FOCUS_STALE_MS); still shown, marked. */
    freshness: z.enum(['fresh', 'stale', 'unknown']),
  }),
  z.object({ state: z.literal('none') }),
  z.object({ state: z.literal('unknown'), why: z.string() }),
]);

const sacPresenceSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('quiet'), since: z.string().nullable(), until: z.string().nullable() }),
  z.object({ state: z.literal('expired'), until: z.string() }),
  z.object({ state: z.literal('not-quiet') }),
  z.object({ state: z.literal('unknown'), why: z.string() }),
]);

/** Derived as sac derives it, and labelled so: never a fact of the files. */
const sacLivenessSchema = z.object({ word: z.enum(['live', 'unknown', 'gone']), basis: z.literal('derived'), why: z.string() });

const sacSessionSchema = z.discriminatedUnion('state', [
  /** The registry's full session id: the same id in another source is the same session. */
  z.object({ state: z.literal('known'), session: z.string() }),
  z.object({ state: z.literal('unknown'), why: z.string() }),
]);

const sacRoomKindSchema = z.enum(['room', 'pair', 'unknown']);

/** How far sac's cursor has a seat read of the others' entries, as the core words it: "a closed session is not behind, it is gone". */
const sacReadingSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('caught-up') }),
  z.object({ state: z.literal('behind'), unread: z.number().int() }),
  z.object({ state: z.literal('gone'), backlog: z.number().int() }),
  z.object({ state: z.literal('unknown'), why: z.string() }),
]);
export type SacReading = z.infer<typeof sacReadingSchema>;

const sacSeatCountsSchema = z.object({
  sent: z.number().int(),
  received: z.number().int(),
  toSeat: z.number().int(),
  toAgent: z.number().int(),
  toEveryone: z.number().int(),
  toOthers: z.number().int(),
  /**
   * Received entries past sac's cursor (sac's cursor: not what the session read): unread, or, for
   * a seat whose session is gone, its backlog (see `reading`, and each entry's `sacCursor`).
   */
  unread: z.number().int(),
  pending: z.number().int(),
  torn: z.number().int(),
});

export const sacSeatSummarySchema = z.object({
  source: sacSourceRefSchema,
  /** The conversation's id in its store: the seat. */
  id: z.string(),
  seat: z.string(),
  /** The project it is listed under: `project.project`. */
  cwd: z.string().nullable(),
  agent: z.string(),
  host: z.string().nullable(),
  session: sacSessionSchema,
  /** The Claude Code session it is, by the full id its store states (null: none): what the lists join on (shared/session/joinSessions.ts). */
  statedSession: statedSessionSchema,
  /** The registry's project (the agent's working directory), else the agent name. */
  project: z.object({ project: z.string(), from: z.enum(['registry', 'agent-name']) }),
  /** The registry's lastSeen for the seat, as written. */
  lastSeen: z.string().nullable(),
  /** The newest entry sent or received, as an ISO instant; null when none names one. */
  lastAt: z.string().nullable(),
  rooms: z.array(z.object({ room: z.string(), kind: sacRoomKindSchema, left: z.boolean(), because: z.array(z.enum(['members', 'registry', 'file'])) })),
  focus: sacFocusSchema,
  presence: sacPresenceSchema,
  liveness: sacLivenessSchema,
  /** It has files and wrote nothing in any. */
  neverWrote: z.boolean(),
  counts: sacSeatCountsSchema,
  /** How far sac's cursor has it read across its rooms: the sidebar shows this, never counts.unread of a gone seat. */
  reading: sacReadingSchema,
  degraded: z.array(sacDegradedReasonSchema),
});
export type SacSeatSummary = z.infer<typeof sacSeatSummarySchema>;

const sacEntryRefSchema = z.object({ seat: z.string(), start: z.number().int(), item: z.string() });

/** One stretch of a seat file in a flow: an entry, stray text before a first header, or a tail. */
export const sacFlowItemSchema = z.object({
  source: sacSourceRefSchema,
  /** `channels/<room>/<seat>.md:<start>`: the item's id for `GET …/items/:item`. */
  item: z.string(),
  type: z.enum(['entry', 'stray-text', 'tail']),
  room: z.string(),
  /** The writer: the seat whose file holds it. */
  seat: z.string(),
  file: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  evidence: evidenceStateSchema,
  why: z.string().nullable(),
  /** Where it is placed: the instant of its own time, or of its neighbour in its file. */
  placedBy: z.enum(['time', 'file-order']),
  /** Entries only: the header as read. */
  time: z.string().nullable(),
  at: z.string().nullable(),
  entryType: z.enum(ENTRY_TYPES).nullable(),
  /** The type word as written: the type itself or its older Hungarian name. */
  typeWord: z.string().nullable(),
  /** Addressees as written; empty: to everyone. */
  to: z.array(z.string()),
  re: z
    .object({ time: z.string(), state: z.enum(['resolved', 'ambiguous', 'unresolved']), entries: z.array(sacEntryRefSchema) })
    .nullable(),
  /** How many entries of the room name the same instant (1: only this one). */
  sharesTime: z.number().int(),
  timeGoesBack: z.boolean(),
  /** The body (entries) or the bytes as written (stray text, tail), verbatim; clipped for a page. */
  text: z.string().nullable(),
  /** The text's full size in UTF-8 bytes, when it was cut (the item route has it whole). */
  textClipped: z.object({ bytes: z.number().int() }).optional(),
  /** The body is too large to read here: `text` is its head. */
  large: largeTextSchema.optional(),
  /** Received side only: whom it was addressed to, seen from the seat. */
  addressing: z.enum(['to-seat', 'to-agent', 'to-everyone', 'to-others']).nullable(),
  /**
   * Received side only: what sac's cursor says of it; not what the session read. `backlog`: past
   * the cursor of a seat whose session is gone (derived), not counted as unread (sac's rule).
   */
  sacCursor: z.enum(['read', 'unread', 'unknown', 'backlog']).nullable(),
  /** Received side only: written by another seat of the same agent. */
  sibling: z.boolean(),
  /**
   * Entries only: whom it wakes, derived by sac's rule from the room's roster and declared quiet
   * (never a fact of the files). Null for an entry still being written or cut short: sac wakes once
   * its append is done, so whom such a write woke, if anyone, is unknown.
   */
  wakes: z
    .object({
      basis: z.literal('derived'),
      seats: z.array(z.object({ seat: z.string(), rule: z.enum(['addressed', 're', 'broadcast', 'pair']) })),
      /** Seats a rule names that were declared quiet at its time: not woken. */
      quiet: z.array(z.string()),
      quietUnknown: z.string().nullable(),
    })
    .nullable(),
});
export type SacFlowItem = z.infer<typeof sacFlowItemSchema>;

export const sacSeatResponseSchema = z.object({
  schema: z.literal('rec.sac-seat/1'),
  seat: sacSeatSummarySchema,
  /** Entries addressed to others are in `received` only when asked for (`others=1`). */
  others: z.boolean(),
  sent: z.array(sacFlowItemSchema),
  received: z.array(sacFlowItemSchema),
  /** The newest `limit` of each column are given; totals say how many there are. */
  limit: z.number().int(),
  sentTotal: z.number().int(),
  receivedTotal: z.number().int(),
});
export type SacSeatResponse = z.infer<typeof sacSeatResponseSchema>;

export const sacItemResponseSchema = z.object({ schema: z.literal('rec.sac-item/1'), item: sacFlowItemSchema });
export type SacItemResponse = z.infer<typeof sacItemResponseSchema>;

/** A member of a room, as `sac admin` lists who is subscribed to it and whether they are reading. */
const sacRoomMemberSchema = z.object({
  seat: z.string(),
  because: z.array(z.enum(['members', 'registry', 'file', 'pair'])),
  left: z.boolean(),
  file: z.enum(['none', 'empty', 'written']),
  liveness: sacLivenessSchema,
  presence: sacPresenceSchema,
  focus: sacFocusSchema,
  /** How far sac's cursor has it read of the others' entries in the room; a gone seat's backlog is not unread. */
  reading: sacReadingSchema,
});
export type SacRoomMember = z.infer<typeof sacRoomMemberSchema>;

const sacRoomSummarySchema = z.object({
  source: sacSourceRefSchema,
  room: z.string(),
  kind: sacRoomKindSchema,
  /** For a room of two: its two seats, as rooms.json names them. */
  pair: z.tuple([z.string(), z.string()]).nullable(),
  kindWhy: z.string().nullable(),
  /**
   * Where its folder is: read here; not made yet (a room sac's records name that nobody wrote or
   * joined, as a room of two before its first entry); or retired to the archive and never read.
   */
  folder: z.discriminatedUnion('state', [z.object({ state: z.literal('present') }), z.object({ state: z.literal('absent') }), z.object({ state: z.literal('archived'), path: z.string() })]),
  /** Seats with a file in the room, in sac's order. */
  seats: z.array(z.string()),
  /** Every member: declared in members.json, the registry or rooms.json's pair, or with a file there. */
  members: z.array(sacRoomMemberSchema),
  entries: z.number().int(),
  neverWrote: z.number().int(),
  pending: z.number().int(),
  torn: z.number().int(),
  changed: z.number().int(),
  strayText: z.number().int(),
  sharingTime: z.number().int(),
  /** The last entry in the flow. */
  last: z.object({ seat: z.string(), time: z.string(), at: z.string().nullable(), entryType: z.enum(ENTRY_TYPES) }).nullable(),
  degraded: z.array(sacDegradedReasonSchema),
});
export type SacRoomSummary = z.infer<typeof sacRoomSummarySchema>;

export const sacRoomsResponseSchema = z.object({ schema: z.literal('rec.sac-rooms/1'), source: sacSourceRefSchema, rooms: z.array(sacRoomSummarySchema) });
export type SacRoomsResponse = z.infer<typeof sacRoomsResponseSchema>;

export const sacRoomResponseSchema = z.object({
  schema: z.literal('rec.sac-room/1'),
  room: sacRoomSummarySchema,
  /** The newest `limit` items of the flow, in time order. */
  items: z.array(sacFlowItemSchema),
  /** waking: only the entries that wake a seat (as `sac admin`'s flow filter). */
  flow: z.enum(['all', 'waking']),
  limit: z.number().int(),
  total: z.number().int(),
});
export type SacRoomResponse = z.infer<typeof sacRoomResponseSchema>;

export const sacSearchHitSchema = z.object({
  source: sacSourceRefSchema,
  /** The writer's seat: the conversation the hit opens. */
  seat: z.string(),
  room: z.string(),
  item: z.string(),
  time: z.string(),
  at: z.string(),
  entryType: z.enum(ENTRY_TYPES),
  typeWord: z.string(),
  to: z.array(z.string()),
  project: z.string(),
  snippet: z.string(),
  match: snippetMatchSchema,
  snippetCut: snippetCutSchema,
});
export type SacSearchHit = z.infer<typeof sacSearchHitSchema>;

const DEFAULT_FLOW_LIMIT = 500;
const MAX_FLOW_LIMIT = 20_000;

/** `GET …/conversations/:seat` of a seat: the newest `limit` of each column; `others=1` adds entries addressed to others. */
export const sacSeatQuerySchema = z.object({
  others: z.enum(['0', '1']).default('0'),
  limit: decimalQuerySchema(1, MAX_FLOW_LIMIT).default(DEFAULT_FLOW_LIMIT),
});

/** The rooms view (`GET …/views/rooms`): every room of the store. */
export const sacRoomsQuerySchema = z.object({});
/** One room's flow (`GET …/views/rooms/:room`): its newest `limit` items. */
export const sacRoomQuerySchema = z.object({ flow: z.enum(['all', 'waking']).default('all'), limit: decimalQuerySchema(1, MAX_FLOW_LIMIT).default(DEFAULT_FLOW_LIMIT) });

/** set-agent-comm's own search filters (`sac.type=`, `sac.room=`, `sac.writer=`): no record entry or spex line has them. */
export const sacSearchFiltersSchema = z.object({
  /** Entries of this type (a legacy word counts as the type it stands for). */
  type: z.enum(ENTRY_TYPES).optional(),
  /** Entries in this room, exactly. */
  room: queryTextSchema.optional(),
  /** Entries written by this seat, exactly. */
  writer: queryTextSchema.optional(),
});
