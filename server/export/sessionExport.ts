import { SOURCE_KIND_NAMES, type SourceKind, type SourceRef } from '../../shared/wire/common.ts';
import type { SessionItem } from '../../shared/wire/session.ts';
import type { ExportItem, ExportParts, ItemPlace } from './exportParts.ts';
import { deepenHeadings, inlineValue } from '../../shared/markdown.ts';

// One Claude Code session taken away whole, from every store that holds it: each conversation's
// own export (its head and its items, in its store's words), one after the other, every item
// naming its store and conversation. The pipeline frames it as it frames any export.

const SESSION_EXPORT_SCHEMA = 'rec.joined-session-export/1';

/** A conversation of the session and its store's export of it. */
export type ExportedConversation = { source: SourceRef; conversation: string; parts: ExportParts };

/** A store's name at the start of a line. */
const storeName = (kind: SourceKind) => SOURCE_KIND_NAMES[kind].replace(/^the /, 'The ');

/** An item of a conversation as its store's page gives it, placed on the session's time axis as its kind states. */
export function toSessionItem(kind: SourceKind, conversation: string, value: unknown, place: ItemPlace | undefined): SessionItem {
  const { at = null, side = null, peer = null, fromPerson, peerNamed } = place ?? {};
  // The value is the kind's page item, checked against the kind's schema where it is sent.
  return { kind, conversation, at, side, peer, ...(fromPerson === true ? { fromPerson } : {}), ...(peerNamed === undefined ? {} : { peerNamed }), item: value } as SessionItem;
}

export function composeSessionExport(session: string, conversations: readonly ExportedConversation[]): ExportParts {
  const named = (one: ExportedConversation) => ({ source: one.source, conversation: one.conversation });
  let exportedAt = '';
  async function* ndjson(signal: AbortSignal): AsyncGenerator<ExportItem<'ndjson'>> {
    for (const one of conversations) {
      yield { record: { fields: { type: 'conversation', ...named(one), head: one.parts.ndjsonHead } } };
      const prefix = JSON.stringify(named(one)).slice(0, -1);
      for await (const { record } of one.parts.items.ndjson(signal)) {
        const fields = 'fieldsJson' in record ? record.fieldsJson : JSON.stringify(record.fields);
        yield { record: { ...record, fieldsJson: fields === '{}' ? `${prefix}}` : `${prefix},${fields.slice(1)}` } as typeof record };
      }
    }
  }
  async function* json(signal: AbortSignal): AsyncGenerator<ExportItem<'json'>> {
    for (const one of conversations) {
      for await (const { value, place } of one.parts.items.json(signal)) {
        yield { value: toSessionItem(one.source.kind, one.conversation, value, place) };
      }
    }
  }
  async function* md(signal: AbortSignal): AsyncGenerator<ExportItem<'md'>> {
    for (const one of conversations) {
      // Each store's own head, its coverage and its reasons to doubt it, before its items: under
      // the store's heading, which says what its own title did, every heading of its a level deeper.
      yield { markdown: `---\n\n## ${storeName(one.source.kind)}: ${inlineValue(one.conversation)}\n\n${deepenHeadings(one.parts.markdownHead(exportedAt).replace(/^# [^\n]*\n+/, ''))}` };
      for await (const { markdown, block } of one.parts.items.md(signal)) {
        yield block === undefined ? { markdown: deepenHeadings(markdown) } : { markdown: deepenHeadings(markdown), block: { ...block, after: deepenHeadings(block.after) } };
      }
    }
  }
  return {
    name: ['session', session],
    ndjsonHead: { type: 'session', schema: SESSION_EXPORT_SCHEMA, session, conversations: conversations.map(named) },
    jsonHead: { schema: SESSION_EXPORT_SCHEMA, session, conversations: conversations.map((one) => ({ ...named(one), head: one.parts.jsonHead })) },
    jsonTail: () => ({ tails: conversations.map((one) => ({ ...named(one), tail: one.parts.jsonTail() })) }),
    markdownHead(at) {
      exportedAt = at;
      const lines = [`# Session ${inlineValue(session)}`, '', `- Exported at ${at}`];
      for (const one of conversations) lines.push(`- ${storeName(one.source.kind)}: ${inlineValue(one.conversation)} (${inlineValue(one.source.id)})`);
      lines.push(
        '',
        "Every store that names this full session id, one after the other, each in its own words. Nothing here pairs a received message with a sent one, across the stores or within one.",
        '',
      );
      return lines.join('\n') + '\n';
    },
    lists: [{ name: 'items' }],
    items: { ndjson, json, md },
  };
}
