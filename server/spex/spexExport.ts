import { PAGE_TEXT_LIMIT_BYTES } from '../../shared/wire/common.ts';
import { LINE_NUMBERS_WORDS, STRIPPED_WORDS } from '../../shared/spex/privateData.ts';
import { peerNamedOf } from '../../shared/spex/sessionJson.ts';
import { sayHowMuchSentMayLack, sayWhatSentMayLack, sayWhichLogs, type SentUnknown } from '../../shared/spex/sentUnknown.ts';
import type { SpexSearchHit, SpexSender, SpexSummary, SpexItem } from '../../shared/wire/spex.ts';
import { PERSON_WORDS } from '../../shared/peerMatch.ts';
import type { ConversationExport, ExportItem, ExportRecord, ItemPlace, MarkdownBlock } from '../export/exportParts.ts';
import { describeLargeMarkdown, fencedBlock, inlineValue, snippetMarkdown } from '../../shared/markdown.ts';
import { NotHere, type Answer } from '../sources/source.ts';
import { LARGE_TEXT_BYTES } from '../export/largeText.ts';
import { readLargeLine, readLinePieces, readMemberPieces, type LargeLine } from './largeLine.ts';
import { readRanges, type RangeRead } from './readLine.ts';
import { keyOf, ownerOf, type PlacedItem, type SpexProjection } from './spexProjection.ts';
import type { SpexReader, SpexSession } from './spexReader.ts';

// A spex session taken away whole (server/export/pipeline.ts frames it), as of when the export
// began: the items of its page then (its own log, and the lines of other logs whose `from` is its
// id), each line read again from its segment as the export reaches it, a batch at a time.
//
// - `ndjson`: a first line with the session's summary, then a line per item: whose log holds it,
//   its line number and segment, its evidence, and its bytes exactly as the segment holds them
//   (`lineText`, or `lineBase64` for bytes that are not UTF-8). A line whose bytes held spex's
//   private receipt is given without it, and says so (`withheld`). Byte offsets are not given:
//   the bytes between two lines would say where a private line was, and how long it is.
// - `json`: `rec.spex-session/1` with every item, as the session's pages give them.
// - `md`: a transcript in the words of the session's page.

const SPEX_EXPORT_SCHEMA = 'rec.spex-session-export/1';
/** Items read and projected at a time: a page's worth. */
const BATCH_ITEMS = 200;

export function createSpexExport(reader: SpexReader, projection: SpexProjection, ref: { kind: 'spex'; id: string }): (id: string) => Answer<ConversationExport> {
  async function* records(session: SpexSession, items: readonly PlacedItem[], signal: AbortSignal): AsyncGenerator<ExportItem<'ndjson'>> {
    for (let offset = 0; offset < items.length; offset += BATCH_ITEMS) {
      signal.throwIfAborted();
      const batch = items.slice(offset, offset + BATCH_ITEMS);
      const pathOf = (placed: PlacedItem) => reader.segmentPath(ownerOf(session, placed), placed.item.segment) ?? '';
      // A large line is not read with the others: it is read a piece at a time as it is sent.
      const isLarge = (placed: PlacedItem) => placed.item.end - placed.item.start > LARGE_TEXT_BYTES;
      const reads = readRanges(batch.map((placed) => ({ path: pathOf(placed), start: placed.item.start, end: isLarge(placed) ? placed.item.start : placed.item.end })), reader.root);
      for (let index = 0; index < batch.length; index++) {
        const placed = batch[index]!;
        if (!isLarge(placed)) yield { record: describeLine(session.sessionId, placed, reads[index]!) };
        else yield { record: describeLine(session.sessionId, placed, await readLargeLine(pathOf(placed), placed.item.start, placed.item.end, reader.root, signal)) };
      }
    }
  }

  function describeLine(sessionId: string, placed: PlacedItem, read: RangeRead | LargeLine): ExportRecord {
    const { item } = placed;
    const facts = item.evidence === 'parsed' ? item.facts : null;
    const line = {
      type: 'line',
      source: ref,
      sessionId,
      key: keyOf(placed),
      log: placed.own ? sessionId : placed.receiver,
      side: !placed.own ? 'sent' : facts?.kind === 'sent' ? 'received' : null,
      line: placed.line,
      segment: item.segment,
      at: placed.at,
      evidence: item.evidence,
      why: item.evidence === 'parsed' ? null : item.why,
      kind: facts === null ? null : facts.kind === 'unknown' ? facts.kindName : facts.kind,
    };
    if (read.type === 'gone') return { fields: { ...line, bytes: null, lineText: null, now: read.why } };
    if (read.type === 'withheld') return { fields: { ...line, bytes: null, lineText: null, withheld: read.why } };
    if (read.type === 'pieces') return { fields: { ...line, bytes: read.size }, text: { name: 'lineText', base64Name: 'lineBase64', value: { pieces: readLinePieces(read) } } };
    // The bytes as the segment holds them, or without spex's receipt, which says so.
    const stripped = read.stripped ? { withheld: STRIPPED_WORDS } : {};
    return { fields: { ...line, bytes: read.bytes.length, ...stripped }, text: { name: 'lineText', base64Name: 'lineBase64', value: { bytes: read.bytes } } };
  }

  async function* values(session: SpexSession, items: readonly PlacedItem[], signal: AbortSignal): AsyncGenerator<ExportItem<'json'>> {
    for (let offset = 0; offset < items.length; offset += BATCH_ITEMS) {
      signal.throwIfAborted();
      for (const value of projection.projectItems(session, items.slice(offset, offset + BATCH_ITEMS), PAGE_TEXT_LIMIT_BYTES)) yield { value, place: placeItem(value) };
    }
  }

  async function* transcript(session: SpexSession, items: readonly PlacedItem[], signal: AbortSignal): AsyncGenerator<ExportItem<'md'>> {
    for (let offset = 0; offset < items.length; offset += BATCH_ITEMS) {
      signal.throwIfAborted();
      const batch = items.slice(offset, offset + BATCH_ITEMS);
      const projected = projection.projectItems(session, batch, null);
      for (let index = 0; index < batch.length; index++) {
        const item = projected[index]!;
        const whole = item.large === undefined ? null : await readWholeText(session, batch[index]!, item, signal);
        if (whole === null) yield { markdown: describeItemMarkdown(item, false) };
        else yield { markdown: describeItemMarkdown(item, true), block: whole };
      }
    }
  }

  /**
   * A large line's text, whole, for its fenced block: read a piece at a time as it is sent (a
   * message's text or a note decoded from its JSON string, else the line as written). Null when it
   * cannot be: the transcript shows the head its page shows, and says why.
   */
  async function readWholeText(session: SpexSession, placed: PlacedItem, item: SpexItem, signal: AbortSignal): Promise<MarkdownBlock | null> {
    const head = item.type === 'sent' || item.type === 'received' ? item.text : item.type === 'declaration' ? item.note : item.raw;
    if (head === null) return null;
    const path = reader.segmentPath(ownerOf(session, placed), placed.item.segment) ?? '';
    const line = await readLargeLine(path, placed.item.start, placed.item.end, reader.root, signal);
    if (line.type !== 'pieces') return null;
    const member = item.type === 'sent' || item.type === 'received' ? 'text' : item.type === 'declaration' ? 'note' : null;
    const pieces = member === null ? readLinePieces(line) : readMemberPieces(line, member);
    if (pieces === null) return null;
    return { info: item.type === 'unknown-kind' ? 'json' : 'text', pieces, backticks: line.backticks, after: '\n' };
  }

  return (id) => {
    const session = reader.session(id);
    if (session === null) return new NotHere('no such session in this spex home');
    // The list is kept for pages and replaced as the session changes: the export keeps the items of the moment it began.
    const items = projection.placeItems(session).slice();
    const summary = projection.listed(session).summary;
    const sentUnknown = projection.sentUnknownOf(id);
    return {
      name: ['spex', id],
      ndjsonHead: { type: 'session', schema: SPEX_EXPORT_SCHEMA, source: ref, sessionId: id, session: summary, items: items.length, sentUnknown },
      jsonHead: { schema: 'rec.spex-session/1', page: { offset: 0, limit: items.length, total: items.length } },
      // The summary comes last, taken once every line was read, as a page's agrees with its items.
      jsonTail() {
        const current = reader.session(id) ?? session;
        return { session: projection.listed(current).summary, currentNote: projection.currentNoteOf(id), strays: current.strays.map((stray) => ({ name: stray.name, why: stray.why })), sentUnknown: projection.sentUnknownOf(id) };
      },
      markdownHead: (exportedAt) => describeSessionMarkdown(summary, sentUnknown, exportedAt),
      mayLack() {
        const now = projection.sentUnknownOf(id);
        return now === null ? null : { said: `What it sent may be more: ${sayHowMuchSentMayLack(now)}`, why: sayWhatSentMayLack(now) };
      },
      lists: [{ name: 'items' }],
      items: {
        ndjson: (signal) => records(session, items, signal),
        json: (signal) => values(session, items, signal),
        md: (signal) => transcript(session, items, signal),
      },
      // A session's items are in its page's order, by time: the newest are its last.
      newest: (limit) => ({ total: items.length, json: (signal) => values(session, items.slice(-limit), signal) }),
    };
  };
}


/** The transcript's head: the session, what session.json says now, and every reason to doubt its log. */
function describeSessionMarkdown(summary: SpexSummary, sentUnknown: SentUnknown | null, exportedAt: string): string {
  const { counts, current } = summary;
  const lines = [`# spex session ${inlineValue(summary.id)}`, '', `- Store: spex ${inlineValue(summary.source.id)}`];
  const label = summary.title ?? summary.name;
  if (label !== null) lines.push(`- Title: ${inlineValue(label)}`);
  lines.push(`- Project: ${inlineValue(summary.project.key)}${summary.project.from === 'encoded-name' ? " (spex's encoded folder name: no session names its worktree path)" : ''}`);
  if (summary.branch !== null) lines.push(`- Branch: ${inlineValue(summary.branch)}`);
  if (current.state === 'unknown') lines.push(`- Now (session.json, current, not history): unknown (${current.why})`);
  else {
    const word = current.word === null ? 'no status' : current.word;
    const status = current.status === null ? '' : ` (status ${inlineValue(current.status)})`;
    const proposal = current.proposal === null ? '' : `, proposal ${inlineValue(current.proposal)}`;
    lines.push(`- Now (session.json, current, not history): ${word}${status}${proposal}`);
  }
  lines.push(
    `- First and last line: ${summary.firstAt ?? 'none'} – ${summary.lastAt ?? 'none'}`,
    `- ${counts.received} received (${counts.fromPerson} from a person, ${counts.fromPeers} from sessions or other senders) · ${counts.sent} sent, from the receivers' logs · ${counts.declarations} ${counts.declarations === 1 ? 'declaration' : 'declarations'}`,
    `- Exported at ${exportedAt}, as the segments were on disk then.`,
    '',
    `What this session sent is shown from the receiver's log: the line there whose \`from\` is this session's id. One event seen from two sides, joined by the id spex stored, never by text or time. spex's private delivery data is never shown: ${LINE_NUMBERS_WORDS}.`,
    '',
  );
  if (sentUnknown !== null) {
    lines.push(`**What it sent may be more:** ${sayHowMuchSentMayLack(sentUnknown)}. ${sayWhatSentMayLack(sentUnknown)} ${sayWhichLogs(sentUnknown)}`, '');
  }
  if (summary.degraded.length > 0) {
    lines.push('## Degraded timeline: what it shows is incomplete', '');
    for (const reason of summary.degraded) {
      // As the page's banner says it: the lines are the log's, numbered across its segments.
      const on = reason.lines.length === 0 ? '' : `Log ${reason.linesTotal === 1 ? 'line' : 'lines'} ${reason.lines.join(', ')}${reason.linesTotal > reason.lines.length ? ` and ${reason.linesTotal - reason.lines.length} more` : ''}`;
      const where = reason.files.length === 0 ? '' : `${on === '' ? 'In' : ', in'} ${reason.files.map(inlineValue).join(', ')}`;
      lines.push(`- ${reason.words}${on === '' && where === '' ? '' : ` ${on}${where}.`}`);
    }
    lines.push('');
  }
  lines.push("## Lines, in the session's order", '');
  return lines.join('\n') + '\n';
}

const EVIDENCE_TITLES: Record<Extract<SpexItem, { type: 'evidence' }>['evidence'], string> = {
  damaged: 'is damaged: unknown evidence, not nothing',
  invalid: 'is invalid, JSON that is not an event: unknown evidence, not nothing',
  torn: 'is torn: unknown evidence, not nothing',
  pending: 'is being written',
};

/**
 * One item of the session in its place, its text whole; `streamed`: a large line's text is not
 * written here, but in the fenced block that follows, a piece at a time.
 */
function describeItemMarkdown(item: SpexItem, streamed: boolean): string {
  const block = (text: string, info?: string) => (streamed ? '' : fencedBlock(text, info));
  const place = `- Line ${item.line} of ${item.type === 'sent' ? "the receiver's" : 'its'} log, segment ${inlineValue(item.segment)}`;
  const now = item.now === null ? [] : [`- **Changed after it was read** (${item.now}): shown as it was read.`];
  if (item.large !== undefined) now.push(describeLargeMarkdown(item.large, streamed));
  switch (item.type) {
    case 'received': {
      const from = describeSender(item.from);
      const lines = [place];
      if (item.replyVia !== null) lines.push(`- Reply via ${inlineValue(item.replyVia)}`);
      if (item.twoSides) lines.push("- The same event is in that session's Sent column: joined by the id spex stored in `from`, not by text or time.");
      return section(`Received from ${from} · ${item.at ?? 'no time'}`, [...lines, ...hintOf(item), ...now], messageBody(item, block));
    }
    case 'sent': {
      const lines = [`- From the receiver's log: line ${item.line} of that session's log.`, `- In its segment ${inlineValue(item.segment)}; one event seen from two sides, joined by the id spex stored in \`from\`, not by text or time.`];
      if (item.replyVia !== null) lines.push(`- Reply via ${inlineValue(item.replyVia)}`);
      return section(`Sent to session ${inlineValue(item.receiver)} · ${item.at ?? 'no time'}`, [...lines, ...hintOf(item), ...now], messageBody(item, block));
    }
    case 'declaration': {
      const lines = [place, `- Status ${inlineValue(item.status)}, ${item.proposal === null ? 'no proposal' : `proposal ${inlineValue(item.proposal)}`}`, ...now];
      if (item.note === null) return section(`Declared ${item.word} · ${item.at ?? 'no time'}`, [...lines, '- No note']);
      return section(`Declared ${item.word} · ${item.at ?? 'no time'}`, [...lines, '- Note:'], block(item.note));
    }
    case 'unknown-kind':
      return section(`A line of a kind spex's reader does not know: ${inlineValue(item.kindName)} · ${item.at ?? 'no time'}`, [place, ...now, ...rawLines(item.raw)], item.raw === null ? '' : block(item.raw, 'json'));
    case 'evidence': {
      const lines = [place, `- ${item.bytes} bytes${item.at === null ? '' : `, in place after ${item.at}`}`, `- Why: ${item.why}`, ...now];
      if (item.evidence === 'pending') return section(`Line ${item.line} ${EVIDENCE_TITLES.pending}`, [...lines, '- It is shown once its end is written.']);
      return section(`Line ${item.line} ${EVIDENCE_TITLES[item.evidence]}`, [...lines, ...rawLines(item.raw)], item.raw === null ? '' : block(item.raw));
    }
  }
}

function rawLines(raw: string | null): string[] {
  return raw === null ? ["- Its text is not shown (it may hold spex's private delivery data, or is not UTF-8)."] : ['- As written:'];
}

function hintOf(item: Extract<SpexItem, { type: 'sent' | 'received' }>): string[] {
  return item.hintAt === null ? [] : [`- The text ends with spex's reply hint (from character ${item.hintAt}), which spex stored with it.`];
}

function messageBody(item: Extract<SpexItem, { type: 'sent' | 'received' }>, block: (text: string) => string): string {
  if (item.text !== null) return block(item.text);
  return item.large === undefined ? "Its text is not shown: the line no longer holds it.\n" : 'Its text is not shown: it does not begin within the head of the line read.\n';
}

function section(title: string, lines: readonly string[], block = ''): string {
  return `### ${title}\n\n${lines.join('\n')}\n${block === '' ? '' : '\n' + block}\n`;
}

/** A spex hit: a message seen from the session's side (a sent one, from its receiver's log), or a declaration's note. */
/** Who a `sent` line's `from` names, in the words its row says: a person, a session of the home, or a sender as spex wrote it. */
function describeSender(from: SpexSender): string {
  return from.by === 'person' ? PERSON_WORDS : from.by === 'session' ? `session ${inlineValue(from.sessionId)}` : inlineValue(from.as);
}

export function describeSpexHit(hit: SpexSearchHit): string {
  const from = hit.from === null ? null : describeSender(hit.from);
  const lines = [`- Store spex ${inlineValue(hit.source.id)}, session ${inlineValue(hit.sessionId)}, line ${inlineValue(hit.key)}`, `- Project: ${inlineValue(hit.project)}`];
  if (from !== null) lines.push(`- From ${from}`);
  if (hit.kind === 'sent' && hit.receiver !== null) lines.push(`- From the receiver's log: session ${inlineValue(hit.receiver)} (one event, seen from the sender's side; joined by the id spex stored)`);
  // Each half of one line found from both its sides says so, the received one too: counted as two hits, it is one message.
  if (hit.twoSides) lines.push(`- Two sides: one event, line ${inlineValue(hit.line)} of its store; the ${hit.kind === 'sent' ? 'received' : 'sent'} hit of that line, if the search found it, is the same message`);
  const head = `### ${hit.kind === 'declaration' ? 'Declaration' : hit.kind === 'sent' ? 'Sent' : 'Received'} · ${hit.at}\n\n${lines.join('\n')}\n`;
  return hit.snippet === null ? `${head}\n` : `${head}\n${snippetMarkdown(hit.snippet, hit.snippetCut)}\n`;
}

/**
 * A line at its `ts`: a `sent` line of its own log was received (from the person or the session
 * it names), one in another's log whose `from` is this session was sent to that log's session.
 */
function placeItem(item: SpexItem): ItemPlace {
  // A person is no peer: the item itself says "a person" (its from), a peer's name is as written.
  if (item.type === 'received') {
    if (item.from.by === 'person') return { at: item.at, side: 'received', peer: null, fromPerson: true };
    return item.from.by === 'session' ? { at: item.at, side: 'received', peer: item.from.sessionId, ...peerNamedOf(item.from.named) } : { at: item.at, side: 'received', peer: item.from.as };
  }
  if (item.type === 'sent') return { at: item.at, side: 'sent', peer: item.receiver, ...peerNamedOf(item.receiverNamed) };
  return { at: item.at, side: null, peer: null };
}
