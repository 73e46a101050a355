import type { ComponentType, ReactNode } from 'react';
import type { LiveItem, SourceRef } from '../../../shared/wire/common.ts';
import type { ConversationSummary, SearchHit } from '../../../shared/wire/kinds.ts';
import type { SessionItem } from '../../../shared/wire/session.ts';
import type { ViewCode } from '../router/viewCode.ts';

// What a kind of store gives the shell, in one place per kind (kinds/<kind>/<kind>Kind.tsx),
// listed in kinds/registry.ts: its words, its rows in the lists, its search hits, its pages. The
// shell (app, router, sidebar, overview, search, live) knows no kind: it asks the registry, as
// Grafana's panels and VS Code's contribution points do.

export type KindName = SourceRef['kind'];
type SummaryOf<K extends KindName> = Extract<ConversationSummary, { source: { kind: K } }>;
type HitOf<K extends KindName> = Extract<SearchHit, { source: { kind: K } }>;
type PageItemOf<K extends KindName> = Extract<SessionItem, { kind: K }>['item'];

/**
 * An item of one of its conversations on a session's page across the stores: `conversation` is its
 * id in its store; `raw`, whether it is shown in its raw form (`r`, or its own button), where its
 * kind has one (the record's JSON), and `onToggleRaw` turns it over.
 */
export type SessionItemProps<I> = { item: I; source: string; conversation: string; raw: boolean; onToggleRaw(): void };

/** A conversation's page: the store and the conversation, opened at `item`; `query` is the page's own (a filter). */
export type ConversationViewProps = { source: string; id: string; item: string | null; query: string };

/** A view only its kind has (set-agent-comm's rooms): of the whole store, or of one `subject` of it (a room), opened at `item`. */
export type SourceViewProps = { source: string; subject: string | null; item: string | null; query: string };

/** A filter of the search form only this kind's items answer to, by the query parameter the server reads. */
export type SearchFilter = { param: string; label: string; title?: string } & (
  | { type: 'check' }
  | { type: 'choice'; choices: readonly (readonly [value: string, words: string])[] }
  | { type: 'text'; placeholder: string }
);

type SourceView = {
  View: ViewCode<SourceViewProps>;
  /** The top bar's link to it, one per store of the kind; several stores are told apart by their folder. */
  link: { label: string; title: string };
};

type KindOf<C extends ConversationSummary, H extends SearchHit, I> = {
  /** A store of this kind as a sentence names it, before its root: "the spex home /x does not exist". */
  storeWords: string;
  /** Its name after "in": "in the record", "in spex". */
  name: string;
  /** One of its conversations, in a table's hover: "a spex session timeline". */
  conversationWords: string;
  /** What one of its conversations is called where only stores of this kind are read: "session". */
  noun: string;
  /** How the overview speaks where only stores of this kind are read (its title, lede, and what is degraded); else it speaks of every store. */
  alone?: { title: string; lede: string; degraded: string };
  /** How another store's page of the same session names this one, by its id: "its record session". */
  describeAsOther(conversation: { id: string }): string;
  /** Whether the sidebar's filter text (lower case) finds it, beyond its id. */
  matches(conversation: C, needle: string): boolean;
  /** The conversation of the same store it is listed under (a record chain's parent); null: none. */
  parentOf?(conversation: C): string | null;
  /** Its row in the sidebar. */
  ListRow: ComponentType<{ conversation: C; depth: number; selected: boolean }>;
  /** A child listed in another project, linked under its parent with that project's name. */
  ElsewhereRow?: ComponentType<{ conversation: C; depth: number }>;
  /**
   * What its own page leads with, said beside its badge on the session's page across the stores:
   * the record's refusals (each a link to them alone), spex's status now, sac's cursor.
   */
  Lead?: ComponentType<{ conversation: C }>;
  /** What its store calls a refused sent message and a refused received one, where a count of them is said in words alone (the record: not queued, rejected); absent: it records no refusal. */
  refusedWords?: { sent: string; received: string };
  /** Its name in the overview's table: an id (short where the full one is long) and a label, if it has one. */
  tableName(conversation: C): { id: string; label: string | null };
  /** Its degraded reasons in plain words, one a line, for a hover. */
  describeDegraded(conversation: C): string;
  /** How many received entries its page shows at first, as a table counts and sorts them; else its `counts.received`. */
  receivedShown?(conversation: C): number;
  /** Its own search filters, offered where a store of this kind is read (or the address sets one), under `words`. */
  searchFilters?: { words: string; filters: readonly SearchFilter[] };
  /**
   * A search hit of this kind, opening its item in its place. For its head, from the shell: `store`,
   * which store it is from (the same badge for every kind), and `across`, the link to the session
   * across the stores (nothing where the store states none).
   */
  HitRow: ComponentType<{ hit: H; store: ReactNode; across: ReactNode }>;
  /** The key a list of hits keeps a hit by. */
  hitKey(hit: H): string;
  /**
   * What a search's count of hits leaves unsaid for this kind's hits among them (spex: a line found
   * from both its sides is two hits); null: nothing. Said after the count.
   */
  hitsNote?(hits: readonly H[]): string | null;
  /** What the live view says in place of the first line of an item that has none (a withheld text); null: nothing. */
  liveNoText?(item: LiveItem): string | null;
  /** One of its items among a session's items of every store, as its own page shows it (its words, its notes). */
  SessionItem: ComponentType<SessionItemProps<I>>;
  /**
   * Whether one of its items on a session's page was addressed to others, not to this session
   * (an entry a seat's room holds for other seats): left out unless asked for, as its own page does.
   */
  addressedToOthers?(item: I): boolean;
  /** Its conversation's page (loaded when first shown). */
  ConversationView: ViewCode<ConversationViewProps>;
  /** Views only this kind has, by the name in their path (`/source/<id>/<name>`). */
  views?: Readonly<Record<string, SourceView>>;
  /** Its own table of its conversations (a project's), with what it alone counts; else the shell's. */
  Table?: ComponentType<{ conversations: readonly C[]; caption: string }>;
  /** What the overview shows of this kind's conversations besides the table of all of them. */
  OverviewSection?: ComponentType<{ conversations: readonly C[] }>;
};

/** What one kind gives, with its own summary and hit. */
export type Kind<K extends KindName> = KindOf<SummaryOf<K>, HitOf<K>, PageItemOf<K>>;

/** A kind with its own types forgotten, as the shell holds it: what it passes in is of that kind. */
export type AnyKind = KindOf<ConversationSummary, SearchHit, SessionItem['item']>;
