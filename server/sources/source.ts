import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LiveItem, SearchQuery, SourceRef, SourceStatus } from '../../shared/api.ts';

// The seam between the stores and everything that shows them. A source is one store of one kind
// (the record, a spex home, a set-agent-comm store): its reader keeps what the kind's core made of
// the files, and its projection says it in the wire's words. The HTTP layer holds a list of
// sources and speaks only of sources, conversations and items: it never opens a store's file, and
// it never knows a kind's rules. Each kind lives in its own folder (server/record, server/spex,
// server/sac) with its reader and projection; its pure core is in shared/<kind>.

/** A conversation as the list of sessions carries it: already projected and validated. */
export type ListedConversation = {
  /** The conversation's own id in its store: a session id, or a set-agent-comm seat. */
  id: string;
  /** The project it is listed under: a working directory (the record's cwd, spex's worktree, set-agent-comm's project). */
  cwd: string | null;
  /** Its latest item's time (ISO 8601), for the list's order. */
  lastAt: string | null;
  /** Whether it has a reason to doubt its evidence: the list counts those. */
  degraded: boolean;
  /** Its wire summary, serialized once per change (a list of 10,000 is not serialized again). */
  json: string;
};

/**
 * What a source tells of: its own state, that one of its conversations changed, or the items of
 * a conversation that are new or changed (in the order it learnt of them, each state once).
 */
export type SourceNotice =
  | { type: 'source'; source: SourceStatus }
  | { type: 'conversation-changed'; id: string }
  | { type: 'items'; id: string; items: LiveItem[] };

/** The hits a source found for a search, newest first, each validated in the wire's shape. */
export type SourceSearch = { hits: { at: string; hit: unknown }[]; scanned: number; truncated: boolean };

/** A search a source will not run now: answered 503, with when to try again. */
export class SearchRefused extends Error {
  readonly code: 'busy' | 'stopping';
  readonly retryAfterSeconds: number | null;
  constructor(code: 'busy' | 'stopping', message: string, retryAfterSeconds: number | null) {
    super(message);
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** What a conversation or a search is exported as: items as on disk, the wire's shape, a transcript. */
export const EXPORT_FORMATS = ['ndjson', 'json', 'md'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type Source = {
  /** The store on the wire: every conversation, item and notice of this source carries it. */
  readonly ref: SourceRef;
  status(): SourceStatus;
  /** Names directly in the root that are not conversations: listed, never read. */
  strays(): string[];
  /** Changes whenever anything a reader can see changes. */
  version(): string;
  conversations(): Iterable<ListedConversation>;
  conversation(id: string): ListedConversation | null;
  subscribe(listener: (notice: SourceNotice) => void): () => void;
  /** Answers `GET /api/sessions/:id` for one of its conversations (the kind's own page). */
  answerConversation(id: string, request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  /** Answers `GET /api/sessions/:id/items/:item`: one item whole, named as the kind names it. */
  answerItem(id: string, item: string, request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  /**
   * Answers `GET /api/sessions/:id/export?format=`: one conversation whole, streamed (see
   * server/sources/exportStream.ts). A kind without it answers 404, saying so.
   */
  answerExport?(id: string, format: ExportFormat, request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  /**
   * Answers `GET /api/sessions/:id/activity` (`rec.session-activity/1`, shared/wire/activity.ts):
   * items per minute and messages per peer, from what its index holds, no text. A kind without
   * it answers 404, saying so.
   */
  answerActivity?(id: string, request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  /** Searches its items; stops when `signal` aborts. */
  search(query: SearchQuery, signal: AbortSignal): Promise<SourceSearch>;
  /** One of its search hits in a Markdown export of a search, in its store's words. */
  describeSearchHit(hit: unknown): string;
  /** Ends searches and reads in flight: the server is stopping and must not wait for them. */
  stopWork(): void;
  /** Routes of views only this kind has (set-agent-comm's rooms), under `/api/<kind>/`. */
  registerRoutes?(app: FastifyInstance): void;
  start(): Promise<void>;
  close(): Promise<void>;
};
