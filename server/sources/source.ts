import type { z } from 'zod';
import type { LiveItem, SourceKind, SourceRef, SourceStatus } from '../../shared/wire/common.ts';
import type { WireKinds } from '../../shared/wire/kinds.ts';
import type { KindSearchQuery, StoppedEarly } from '../../shared/wire/search.ts';
import type { NotRead } from '../../shared/searchNotRead.ts';
import type { ConversationExport, ExportParts } from '../export/exportParts.ts';
import type { MapFacts } from '../../shared/map/party.ts';
import type { Refused } from '../../shared/session/joinSessions.ts';

// The seam between the stores and everything that shows them. A source is one store of one kind
// (the record, a spex home, a set-agent-comm store): its reader keeps what the kind's core made of
// the files, and its projection says it in the wire's words. A source returns data: wire values,
// or "not here" with the reason. It never sees a request or a reply: the HTTP layer owns routes,
// parameters, status codes and the schemas answers are checked against (shared/wire/kinds.ts), and
// it never opens a store's file nor knows a kind's rules. Each kind lives in its own folder
// (server/record, server/spex, server/sac) with its reader and projection; its pure core is in
// shared/<kind>.

/** A conversation as the list of sessions carries it: already projected and validated. */
export type ListedConversation = {
  /** The conversation's own id in its store: a session id, or a set-agent-comm seat. */
  id: string;
  /** The project it is listed under: a working directory (the record's cwd, spex's worktree, set-agent-comm's project). */
  cwd: string | null;
  /** Its latest item's time (ISO 8601), for the list's order. */
  lastAt: string | null;
  /**
   * The Claude Code session it is, by the full id its store states (the record's folder, spex's
   * session id, set-agent-comm's registry `session` of the seat); null where the store states none.
   */
  session: string | null;
  /** Messages it sent and received, as its store counts them. */
  sent: number;
  received: number;
  /** Of those, the ones its store says were refused (the record's sends not queued and receives rejected); absent where a store records no refusal. */
  refused?: Refused;
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

/**
 * The hits a source found for a search, newest first, each validated in its kind's wire shape,
 * with the id of the conversation it opens (the search says which session that is, for every kind).
 */
/** `stoppedEarly`: its time ran out before it went through every text it had to (null: it did not). */
export type SourceSearch = {
  hits: { at: string; conversation: string; hit: unknown }[];
  scanned: number;
  truncated: boolean;
  stoppedEarly: StoppedEarly | null;
  /** Why none of its entries can match the query, in its store's words: it was not searched. */
  keptOut?: string;
  /** What the filters may select that it could not read, so did not search; null or absent: none. */
  notRead?: NotRead | null;
};

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

/** Why a source holds no such conversation, item or view: the HTTP layer answers 404 with it. */
export class NotHere {
  readonly why: string;
  constructor(why: string) {
    this.why = why;
  }
}

/**
 * An answer its source validated and serialized itself, as bytes: a large entry's JSON, made on
 * a reader thread, is put into its answer as it is and never parsed again on the event loop.
 */
export class JsonBytes {
  readonly chunks: readonly Uint8Array[];
  readonly bytes: number;
  constructor(chunks: readonly Uint8Array[]) {
    this.chunks = chunks;
    this.bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }
}

export type Answer<T> = T | NotHere;

/** An item's first line, verbatim (as its live item gives it), or why none is shown, in its store's words. */
export type FirstLine = { line: string } | { none: string };

type Wire<K extends SourceKind> = WireKinds[K];
type Output<S> = S extends z.ZodType ? z.output<S> : never;

/** A view only one kind has (set-agent-comm's rooms): a list, and one of it by its key. */
export type SourceView<List = unknown, ListQuery = never, One = unknown, OneQuery = never> = {
  list(query: ListQuery, signal: AbortSignal): Promise<Answer<List>>;
  one(key: string, query: OneQuery, signal: AbortSignal): Promise<Answer<One>>;
  /** One of it whole (a room's flow), for the export pipeline, as a conversation's export is. */
  export?(key: string): Answer<ExportParts>;
};
type ViewsOf<K extends SourceKind> = {
  readonly [V in keyof Wire<K>['views']]: Wire<K>['views'][V] extends { list: { query: infer LQ; response: infer L }; one: { query: infer OQ; response: infer O } }
    ? SourceView<Output<L>, Output<LQ>, Output<O>, Output<OQ>>
    : never;
};
/** The query of a kind's activity; never for a kind that sums none. */
type ActivityQuery<K extends SourceKind> = K extends SourceKind ? (Wire<K> extends { activity: { query: infer Q } } ? Output<Q> : never) : never;
type ActivityAnswer<K extends SourceKind> = K extends SourceKind ? (Wire<K> extends { activity: { response: infer R } } ? Output<R> : never) : never;

/** A store of kind `K`; the HTTP layer holds `Source` (of any kind) and knows none of them. */
export type Source<K extends SourceKind = SourceKind> = {
  /** The store on the wire: every conversation, item and notice of this source carries it. */
  readonly ref: SourceRef & { kind: K };
  status(): SourceStatus;
  /** Names directly in the root that are not conversations: listed, never read. */
  strays(): string[];
  /** Changes whenever anything a reader can see changes. */
  version(): string;
  conversations(): Iterable<ListedConversation>;
  conversation(id: string): ListedConversation | null;
  subscribe(listener: (notice: SourceNotice) => void): () => void;
  /** One of its conversations, a page at a time (the kind's own page and query). */
  page(id: string, query: z.output<Wire<K>['page']['query']>, signal: AbortSignal): Promise<Answer<z.output<Wire<K>['page']['response']>>>;
  /** One item whole, named as the kind names it. */
  item(id: string, key: string, signal: AbortSignal): Promise<Answer<z.output<Wire<K>['item']> | JsonBytes>>;
  /**
   * One conversation whole, as of now, for the export pipeline (server/export/): its head, and
   * its items in each form. A kind without it has its conversations answered 404, saying so.
   */
  export?(id: string): Answer<ConversationExport>;
  /** Views of the store only this kind has (set-agent-comm's rooms), by the names the wire registry gives them. */
  readonly views: ViewsOf<K>;
  /**
   * A conversation's activity (`rec.session-activity/1`, shared/wire/activity.ts): items per
   * minute and messages per peer, from what its index holds, no text. A kind without it has
   * its conversations answered 404, saying so.
   */
  activity?(id: string, query: ActivityQuery<K>, signal: AbortSignal): Promise<Answer<ActivityAnswer<K>>>;
  /**
   * Who its messages go from and to, as its store states them (shared/map/party.ts), from what
   * its reader holds: no text is read. A kind without it is left off the map.
   */
  mapFacts?(): MapFacts;
  /**
   * The first line of each item named by its page's key, read now as its page reads it (a slice a
   * step, a long text only as far as a page's limit), or why there is none: a key it does not hold
   * is answered so. For a list that shows items of many conversations by where they are (the
   * map's edge messages).
   */
  firstLines(conversation: string, keys: readonly string[], signal: AbortSignal): Promise<Map<string, FirstLine>>;
  /** Searches its items for the common filters and its kind's own; stops when `signal` aborts. */
  search(query: KindSearchQuery<K>, signal: AbortSignal): Promise<SourceSearch>;
  /** One of its search hits in a Markdown export of a search, in its store's words. */
  describeSearchHit(hit: unknown): string;
  /** Ends searches and reads in flight: the server is stopping and must not wait for them. */
  stopWork(): void;
  start(): Promise<void>;
  close(): Promise<void>;
};
