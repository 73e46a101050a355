import type { ExportFormat } from '../../shared/wire/common.ts';

// What a kind supplies to the export pipeline (pipeline.ts): what is its own, and nothing of the
// framing. The pipeline makes the NDJSON lines, the JSON document and the Markdown document, and
// streams them at the pace the client takes them.

/**
 * A text as its store holds it: its bytes (written as a JSON string when they are UTF-8, in
 * base64 when they are not), or the JSON string of them already made on a thread (of their base64,
 * `base64`, when they are not UTF-8); null when there are none to give. A value of its own, so
 * that a text can become chunks read as they are sent without its kind or the framing changing.
 */
export type ExportText = { bytes: Uint8Array } | { json: Uint8Array; base64?: boolean } | { pieces: TextPieces } | null;

/**
 * A text too large to hold, read a piece at a time as it is sent (largeText.ts): whether it is
 * UTF-8 is known before its first piece is.
 */
export type TextPieces = { utf8: boolean; read(signal: AbortSignal): AsyncIterable<Uint8Array> };

/**
 * An item's NDJSON record: the item as its store holds it. Its fields, in order (or their JSON
 * object, written by a kind that exports 100,000 items and makes it in pieces: a JSON.stringify
 * per item was a tenth of such an export), then its text last under `name` (`fileText`,
 * `lineText`), or null there and the bytes in base64 under `base64Name` when they are not UTF-8.
 */
export type ExportRecord = ({ fields: Readonly<Record<string, unknown>> } | { fieldsJson: string }) & {
  text?: { name: string; base64Name: string; value: ExportText };
};

/**
 * Where an item stands among a session's items across the stores, as its kind states it: its
 * time (null: its store gives none, and it keeps its place after the item before it), its side
 * seen from the conversation, and its peer as the store names it (none for a message a person
 * wrote, which says `fromPerson`), with what the peer's store calls it beside (`peerNamed`: a spex
 * session's title and branch, as a live item has it), so that a peer filter finds it by either.
 */
export type ItemPlace = { at: string | null; side: 'sent' | 'received' | null; peer: string | null; fromPerson?: true; peerNamed?: string };

/**
 * The forms of an item, one per format: the NDJSON record, the JSON value (a page's item, with
 * its place where it is a conversation's), the Markdown section.
 */
type ItemForms = { ndjson: { record: ExportRecord }; json: { value: unknown; place?: ItemPlace }; md: { markdown: string; block?: MarkdownBlock } };

/**
 * A text too large to hold, as a fenced block after an item's Markdown, read a piece at a time as
 * it is sent: its fence is longer than `backticks`, the longest run of them in it (found by the
 * look through it), so nothing in it closes the block; `after` follows the block.
 */
export type MarkdownBlock = { info: string; pieces: TextPieces; backticks: number; after: string };

/** An item in one form, and the list it belongs in (the export's first list when it names none). */
export type ExportItem<F extends ExportFormat> = { list?: string } & ItemForms[F];

/** A list of items: a page's `items`, or set-agent-comm's `sent` and `received`. */
export type ExportList = {
  /** Its member in the JSON document. */
  name: string;
  /** Its heading and words in the Markdown document, before its first item; none: items follow the head. */
  markdownTitle?: string;
  /** What the Markdown document says under its heading when it has no item. */
  markdownEmpty?: string;
};

/**
 * A conversation's export, and its newest items as its own page gives them first: what a session's
 * page across the stores reads, so that a session of 100,000 entries is not read whole for a screen.
 */
export type ConversationExport = ExportParts & {
  /**
   * Its newest `limit` items (by time, where its lists are several), each in its JSON form with its
   * place, and how many it holds: only those items are read.
   */
  newest(limit: number): { total: number; json(signal: AbortSignal): AsyncIterable<ExportItem<'json'>> };
  /**
   * What its items may lack that no degraded reason of its own says, in its store's words: a few
   * (`said`) and a sentence (`why`); null when nothing is known to be lacking. A spex session's
   * Sent is read from other logs, whose unread lines may be its own (shared/spex/sentUnknown.ts);
   * a kind that reads a conversation's sent messages from its own files (the record's session
   * folder, a seat's file) has no such thing, and leaves it out.
   */
  mayLack?(): { said: string; why: string } | null;
};

/** One conversation (or a search's hits) taken away whole: its heads, its lists, and its items in each form. */
export type ExportParts = {
  /** The file's name, as its parts (the kind and the conversation's id); the pipeline makes it safe. */
  name: readonly string[];
  /** The NDJSON's first line: the conversation and its summary, naming the export's schema. */
  ndjsonHead: Readonly<Record<string, unknown>>;
  /** The JSON document's members before its lists. */
  jsonHead: Readonly<Record<string, unknown>>;
  /** Its members after its lists, taken once every item was read, so that they agree with the items. */
  jsonTail(): Readonly<Record<string, unknown>>;
  /** The Markdown document's head: the conversation, its coverage, every reason to doubt it. */
  markdownHead(exportedAt: string): string;
  lists: readonly ExportList[];
  /** The items in order, in the form of each format, read as the pipeline asks for them. */
  items: { readonly [F in ExportFormat]: (signal: AbortSignal) => AsyncIterable<ExportItem<F>> };
};
