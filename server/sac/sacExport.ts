import type { ReceivedItem, SeatView } from '../../shared/sac/seat.ts';
import type { FlowItem } from '../../shared/sac/room.ts';
import { readHeader } from '../../shared/sac/entryHeader.ts';
import { BACKLOG_WORDS } from '../../shared/sac/sacCursor.ts';
import type { SacFlowItem, SacRoomSummary, SacSearchHit, SacSeatSummary } from '../../shared/wire/sac.ts';
import type { ConversationExport, ExportItem, ExportParts, TextPieces } from '../export/exportParts.ts';
import { LARGE_TEXT_BYTES, lookThrough, PIECE_BYTES, readPieces, trimPieces, type PieceRead } from '../export/largeText.ts';
import { describeLargeMarkdown, fencedBlock, inlineValue, snippetMarkdown } from '../../shared/markdown.ts';
import { NotHere, type Answer } from '../sources/source.ts';
import type { FlowProjection } from './sacProjection.ts';
import type { SacReader, SeatFileState } from './sacReader.ts';
import { readSeatRange } from './storeOpen.ts';

// A seat exported whole (server/export/pipeline.ts frames it), as of when the export began: the
// stretches of its Sent | Received then, each read from its file as the export reaches it. A room
// is exported the same way, its flow one list in time order (`rec.sac-room-export/1`).
//
// - `ndjson`: a first line with the seat's summary, then one line per stretch, Sent then
//   Received: its place (room, file, byte range), its evidence, its header's facts, and its bytes
//   exactly as in the file (`fileText`; `fileBase64` for bytes that are not UTF-8).
// - `json`: `rec.sac-seat/1` with every item (those addressed to others too), as a page gives them.
// - `md`: a transcript in sac's words.

const SAC_EXPORT_SCHEMA = 'rec.sac-seat-export/1';
const SAC_ROOM_EXPORT_SCHEMA = 'rec.sac-room-export/1';

type Column = 'sent' | 'received';
/** A stretch exported: of a seat's Sent or Received (`column`), or of a room's flow (`column` null). */
type Exported = { column: Column | null; room: string; flow: FlowItem; received: ReceivedItem | null };

/** The list a stretch is in: a seat's column, or a room's items (named as a room's page names them). */
const listOf = (item: Exported) => item.column ?? 'items';

type SacExporting = {
  ref: { kind: 'sac'; id: string };
  root: string;
  reader: SacReader;
  flows: FlowProjection;
  /** The seat's fold and summary now; null when the store holds no such seat. */
  foldSeat(seat: string): { view: SeatView; summary: SacSeatSummary } | null;
  summaryOf(seat: string): SacSeatSummary;
  /** The room's flow and summary now; null when no folder of it is read. */
  roomNow(room: string): { items: FlowItem[]; summary: SacRoomSummary } | null;
};

export function createSacExport(exporting: SacExporting): { seat(seat: string): Answer<ConversationExport>; room(room: string): Answer<ExportParts> } {
  const { ref, reader, flows } = exporting;

  /**
   * The stretch's bytes, checked to be those the reader read: the same file, long enough, and an
   * entry's header reading as it did. A file found otherwise is changed after read from now on.
   */
  function* readStretch(room: string, flow: FlowItem): Generator<Buffer | { changed: string } | { unreadable: string }> {
    const file: SeatFileState | null = reader.seatFile(room, flow.seat);
    if (file === null) {
      yield { changed: 'the file is no longer listed' };
      return;
    }
    const identity = file.mark === null ? null : { dev: file.mark.dev, ino: file.mark.ino };
    const { start, end } = flow.item;
    // A body of 100 MB is read a piece at a time.
    const step = end - start <= LARGE_TEXT_BYTES ? end - start : PIECE_BYTES;
    let at = start;
    do {
      const length = Math.min(step, end - at);
      const read = readSeatRange(exporting.root, file.relative, identity, at, length, end);
      if (read.type === 'changed') {
        reader.noteChanged(room, flow.seat, read.why);
        yield { changed: read.why };
        return;
      }
      if (read.type !== 'bytes') {
        yield { unreadable: read.why };
        return;
      }
      if (at === start && flow.item.type === 'entry') {
        const lineEnd = read.bytes.indexOf(0x0a);
        const header = readHeader(read.bytes.subarray(0, lineEnd === -1 ? read.bytes.length : lineEnd).toString('utf8'));
        if (header === null || header.time !== flow.item.facts.time || header.typeWord !== flow.item.facts.typeWord) {
          const why = 'an entry’s header no longer reads as it did: bytes already read are different';
          reader.noteChanged(room, flow.seat, why);
          yield { changed: why };
          return;
        }
      }
      yield read.bytes;
      at += length;
    } while (at < end);
  }

  /**
   * A stretch too large to hold, a piece at a time: looked through once (its header checked
   * first, and whether it is UTF-8), then read again piece by piece as it is sent.
   */
  async function readLargeStretch(room: string, flow: FlowItem, signal: AbortSignal): Promise<{ pieces: TextPieces; shown: TextPieces; backticks: number } | { changed: string } | { unreadable: string }> {
    const file: SeatFileState | null = reader.seatFile(room, flow.seat);
    if (file === null) return { changed: 'the file is no longer listed' };
    const identity = file.mark === null ? null : { dev: file.mark.dev, ino: file.mark.ino };
    const { start, end } = flow.item;
    let changed: string | null = null;
    const read: PieceRead = (at, length) => {
      const piece = readSeatRange(exporting.root, file.relative, identity, start + at, length, end);
      if (piece.type === 'changed') changed ??= piece.why;
      return piece.type === 'bytes' ? piece.bytes : { failed: piece.why };
    };
    for (const piece of readStretch(room, { ...flow, item: { ...flow.item, end: Math.min(end, start + PIECE_BYTES) } } as FlowItem)) {
      if (!Buffer.isBuffer(piece)) return piece;
    }
    const key = `sac:${exporting.root}:${file.relative}:${identity?.dev}:${identity?.ino}:${start}:${end}`;
    const look = await lookThrough(key, end - start, read, null, signal);
    if ('failed' in look) {
      if (changed === null) return { unreadable: look.failed };
      reader.noteChanged(room, flow.seat, changed);
      return { changed };
    }
    // What a transcript shows: an entry's body without the white space around it (readBodyText), any other stretch as written.
    const from = flow.item.type === 'entry' ? flow.item.bodyStart - start : 0;
    const shown = readPieces(end - start - from, (at, length) => read(from + at, length), look.utf8);
    return { pieces: readPieces(end - start, read, look.utf8), shown: flow.item.type === 'entry' ? trimPieces(shown) : shown, backticks: look.backticks };
  }

  async function* records(items: readonly Exported[], signal: AbortSignal): AsyncGenerator<ExportItem<'ndjson'>> {
    for (const item of items) {
      signal.throwIfAborted();
      if (item.flow.item.end - item.flow.item.start > LARGE_TEXT_BYTES) {
        const large = await readLargeStretch(item.room, item.flow, signal);
        const problem = 'pieces' in large ? null : 'changed' in large ? { evidence: 'changed', why: `changed after it was read: ${large.changed}` } : { evidence: item.flow.item.evidence, why: `unreadable now: ${large.unreadable}` };
        const fields = problem === null ? describePlace(ref, item, item.flow.item.evidence, item.flow.item.why) : describePlace(ref, item, problem.evidence, problem.why);
        yield { list: listOf(item), record: { fields, text: { name: 'fileText', base64Name: 'fileBase64', value: 'pieces' in large ? { pieces: large.pieces } : null } } };
        continue;
      }
      const pieces: Buffer[] = [];
      let problem: { evidence: string; why: string } | null = null;
      for (const piece of readStretch(item.room, item.flow)) {
        if (Buffer.isBuffer(piece)) pieces.push(piece);
        else problem = 'changed' in piece ? { evidence: 'changed', why: `changed after it was read: ${piece.changed}` } : { evidence: item.flow.item.evidence, why: `unreadable now: ${piece.unreadable}` };
      }
      // The evidence sent is that of the bytes sent: none, and why, when they are not those read.
      const fields = problem === null ? describePlace(ref, item, item.flow.item.evidence, item.flow.item.why) : describePlace(ref, item, problem.evidence, problem.why);
      const bytes = problem === null ? (pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)) : null;
      yield { list: listOf(item), record: { fields, text: { name: 'fileText', base64Name: 'fileBase64', value: bytes === null ? null : { bytes } } } };
    }
  }

  async function* values(items: readonly Exported[], signal: AbortSignal): AsyncGenerator<ExportItem<'json'>> {
    for (const item of items) {
      signal.throwIfAborted();
      const value = flows.projectFlow(item.room, item.flow, item.received, true);
      if (item.column === null) {
        // A room's flow is no session's: its items have no side or peer to be placed by.
        yield { list: 'items', value };
        continue;
      }
      // Sent: to whom it was addressed (no one named: everyone); received: the seat that wrote it.
      const peer = item.column === 'received' ? value.seat : value.to.length === 0 ? 'everyone' : value.to.join(', ');
      yield { list: item.column, value, place: { at: value.at, side: item.column, peer } };
    }
  }

  async function* transcript(items: readonly Exported[], signal: AbortSignal): AsyncGenerator<ExportItem<'md'>> {
    for (const item of items) {
      signal.throwIfAborted();
      const value = flows.projectFlow(item.room, item.flow, item.received, false);
      // A large body is given whole in its block, read a piece at a time as it is sent; when it
      // cannot be read again, the transcript shows the head its page shows, and says so.
      const large = value.large === undefined || value.text === null ? null : await readLargeStretch(item.room, item.flow, signal);
      if (large === null || !('pieces' in large)) yield { list: listOf(item), markdown: describeStretchMarkdown(value, false) };
      else yield { list: listOf(item), markdown: describeStretchMarkdown(value, true), block: { info: 'text', pieces: large.shown, backticks: large.backticks, after: '\n' } };
    }
  }

  const forms = (items: readonly Exported[]) => ({ ndjson: (signal: AbortSignal) => records(items, signal), json: (signal: AbortSignal) => values(items, signal), md: (signal: AbortSignal) => transcript(items, signal) });

  /** A room's flow, every entry and every stretch of degraded evidence, in time order, as of now. */
  function room(room: string): Answer<ExportParts> {
    const now = exporting.roomNow(room);
    if (now === null) return new NotHere(`no room ${JSON.stringify(room)} read in this set-agent-comm store`);
    const items: Exported[] = now.items.map((flow) => ({ column: null, room, flow, received: null }));
    return {
      name: ['sac', 'room', room],
      ndjsonHead: { type: 'room', schema: SAC_ROOM_EXPORT_SCHEMA, source: ref, room, summary: now.summary, items: items.length },
      jsonHead: { schema: 'rec.sac-room/1', flow: 'all' },
      jsonTail: () => ({ limit: Math.max(items.length, 1), total: items.length, room: exporting.roomNow(room)?.summary ?? now.summary }),
      markdownHead: (exportedAt) => describeRoomMarkdown(now.summary, exportedAt),
      // The JSON document is a room's page with every item: rec.sac-room/1, as its page answers.
      lists: [{ name: 'items', markdownTitle: '## Flow\n\nEvery entry of the room in time order, as each seat wrote it in its file.\n\n', markdownEmpty: 'Nothing.\n' }],
      items: forms(items),
    };
  }

  const seat = (seat: string): Answer<ConversationExport> => {
    const folded = exporting.foldSeat(seat);
    if (folded === null) return new NotHere(`no seat ${JSON.stringify(seat)} in this set-agent-comm store`);
    // The stretches of the moment the export began; later ones are in the next export.
    const items: Exported[] = [
      ...folded.view.sent.map((item) => ({ column: 'sent' as const, room: item.room, flow: item.flow, received: null })),
      ...folded.view.received.map((item) => ({ column: 'received' as const, room: item.room, flow: item.flow, received: item })),
    ];
    const sent = folded.view.sent.length;
    const received = folded.view.received.length;
    return {
      name: ['sac', seat],
      ndjsonHead: { type: 'seat', schema: SAC_EXPORT_SCHEMA, source: ref, seat, summary: folded.summary, sent, received },
      jsonHead: { schema: 'rec.sac-seat/1', others: true },
      // The summary comes last, taken once every stretch was read, so that it agrees with them.
      jsonTail: () => ({ limit: Math.max(sent, received, 1), sentTotal: sent, receivedTotal: received, seat: exporting.summaryOf(seat) }),
      markdownHead: (exportedAt) => describeSeatMarkdown(folded.summary, exportedAt),
      lists: [
        { name: 'sent', markdownTitle: '## Sent\n\nWhat this seat wrote, in every room, in time order.\n\n', markdownEmpty: 'Nothing.\n\n' },
        {
          name: 'received',
          markdownTitle: "## Received\n\nWhat other seats wrote in this seat's rooms, in time order, those addressed to others included. Read or unread is as sac’s cursor says (for a seat whose session is gone, what is past it is its backlog): sac’s cursor is not what the session read.\n\n",
          markdownEmpty: 'Nothing.\n',
        },
      ],
      items: forms(items),
      newest: (limit) => ({ total: items.length, json: (signal) => values(pickNewest(items, sent, limit), signal) }),
    };
  };

  return { seat, room };
}

/** A stretch's place, evidence and header facts: what an NDJSON record says beside its bytes. */
function describePlace(ref: SacExporting['ref'], item: Exported, evidence: string, why: string | null): Record<string, unknown> {
  const { flow, room, column, received } = item;
  const stretch = flow.item;
  const entry = stretch.type === 'entry' ? stretch : null;
  const at = entry === null ? null : entry.facts.instant === null ? null : new Date(entry.facts.instant).toISOString();
  return {
    type: stretch.type,
    column,
    source: ref,
    seat: flow.seat,
    room,
    file: `channels/${room}/${flow.seat}.md`,
    item: `channels/${room}/${flow.seat}.md:${stretch.start}`,
    start: stretch.start,
    end: stretch.end,
    evidence,
    why,
    time: entry?.facts.time ?? null,
    at,
    entryType: entry?.facts.type ?? null,
    typeWord: entry?.facts.typeWord ?? null,
    to: entry === null ? [] : [...entry.facts.to],
    re: entry?.facts.re ?? null,
    addressing: received?.addressing ?? null,
    sacCursor: received?.sacCursor ?? null,
  };
}

/** The transcript's head: the seat, its session and project, its counts, and every reason to doubt what was read. */
function describeSeatMarkdown(summary: SacSeatSummary, exportedAt: string): string {
  const c = summary.counts;
  const lines = [
    `# Seat ${inlineValue(summary.seat)}`,
    '',
    `- Store: sac ${inlineValue(summary.source.id)}`,
    `- Agent ${inlineValue(summary.agent)}${summary.host === null ? '' : ` on host ${inlineValue(summary.host)}`}`,
    `- Session: ${summary.session.state === 'known' ? inlineValue(summary.session.session) : `unknown (${summary.session.why})`}`,
    `- Project: ${inlineValue(summary.project.project)} (${summary.project.from === 'registry' ? 'from the registry' : 'the agent name: the registry names none'})`,
    `- Last seen (the registry's word): ${summary.lastSeen === null ? 'not recorded' : inlineValue(summary.lastSeen)}`,
    `- Liveness, derived as sac derives it: ${summary.liveness.word} (${summary.liveness.why})`,
    `- Rooms: ${summary.rooms.length === 0 ? 'none' : summary.rooms.map((room) => `${inlineValue(room.room)}${room.kind === 'pair' ? ' (a room of two)' : ''}${room.left ? ' (left)' : ''}`).join(', ')}`,
    `- ${c.sent} sent · ${c.received} received (${c.toSeat} to this seat, ${c.toAgent} to its agent, ${c.toEveryone} to everyone, ${c.toOthers} to others) · ${describeReading(summary.reading, c.unread)}`,
    '- Read or unread is as sac’s cursor says: sac’s cursor is not what the session read.',
  ];
  return withExportedAndDegraded(lines, exportedAt, summary.degraded);
}

/** How far sac's cursor has the seat read, in the seat page's words: a gone seat's backlog is never unread. */
function describeReading(reading: SacSeatSummary['reading'], unread: number): string {
  switch (reading.state) {
    case 'gone':
      return `its session is gone: its backlog of ${reading.backlog} past sac’s cursor is not counted as unread`;
    case 'unknown':
      return `sac’s cursor unknown (${reading.why})`;
    default:
      return `${unread} unread by sac’s cursor`;
  }
}

/** A transcript head's last lines: when it was exported, then every reason to doubt what was read. */
function withExportedAndDegraded(lines: string[], exportedAt: string, degraded: readonly { words: string }[]): string {
  lines.push(`- Exported at ${exportedAt}, as the files were on disk then.`, '');
  if (degraded.length > 0) {
    lines.push('## Degraded', '');
    for (const reason of degraded) lines.push(`- ${reason.words}`);
    lines.push('');
  }
  return lines.join('\n') + '\n';
}

/** A room's transcript head: its kind, members, counts, and every reason to doubt what was read. */
function describeRoomMarkdown(summary: SacRoomSummary, exportedAt: string): string {
  const lines = [
    `# Room ${inlineValue(summary.room)}`,
    '',
    `- Store: sac ${inlineValue(summary.source.id)}`,
    // A room of two is said, as the page says it; a room of any number says nothing more.
    ...(summary.kind === 'pair' ? ['- A room of two'] : summary.kind === 'unknown' ? [`- Room of two: unknown${summary.kindWhy === null ? '' : ` (${summary.kindWhy})`}`] : []),
    `- Members: ${summary.members.length === 0 ? 'none' : summary.members.map((member) => inlineValue(member.seat)).join(', ')}`,
    `- Seat files: ${summary.seats.length === 0 ? 'none' : summary.seats.map((seat) => inlineValue(seat)).join(', ')}`,
    `- ${summary.entries} ${summary.entries === 1 ? 'entry' : 'entries'}`,
    '- Who wakes whom is derived by sac’s rule: sac wrote none of it.',
  ];
  return withExportedAndDegraded(lines, exportedAt, summary.degraded);
}

const ADDRESSING_WORDS: Record<string, string> = {
  'to-seat': 'addressed to this seat',
  'to-agent': 'addressed to this seat’s agent',
  'to-everyone': 'addressed to everyone',
  'to-others': 'addressed to others, not this seat',
};

/**
 * One stretch in its place: an entry in sac's words, or the degraded evidence it is. `item` is
 * whole; `streamed`: a large body is not written here, but in the fenced block that follows.
 */
function describeStretchMarkdown(item: SacFlowItem, streamed: boolean): string {
  const large = item.large === undefined ? '' : `\n${describeLargeMarkdown(item.large, streamed)}`;
  const place = `- Room ${inlineValue(item.room)}, written by seat ${inlineValue(item.seat)}, file ${inlineValue(item.file)}, bytes ${item.start}–${item.end}${large}`;
  const why = item.why === null ? [] : [`- Why: ${item.why}`];
  const text = item.text === null || streamed ? '' : fencedBlock(item.text);
  if (item.type === 'stray-text') {
    return section(`Stray text before the file’s first header`, [place, '- Not an entry: sac reads no entry from it.', ...why], text);
  }
  if (item.type === 'tail') {
    const title = item.evidence === 'pending' ? 'Being written' : item.evidence === 'damaged' ? 'Torn write: a line that did not end in time' : `A line not ended: ${item.evidence}`;
    return section(title, [place, ...why, ...(item.text === null ? [] : ['- As the file holds it:'])], text);
  }
  const lines = [
    place,
    `- Type: ${inlineValue(item.typeWord ?? '')}${item.typeWord === item.entryType ? '' : ` (${item.entryType})`}`,
    `- To: ${item.to.length === 0 ? 'everyone' : item.to.map(inlineValue).join(', ')}`,
  ];
  if (item.re !== null) {
    const answered = item.re.state === 'unresolved' ? 'no entry of this room has that time' : item.re.entries.map((entry) => `seat ${inlineValue(entry.seat)}, ${inlineValue(entry.item)}`).join('; ');
    lines.push(`- Re: ${inlineValue(item.re.time)}: ${answered}${item.re.state === 'ambiguous' ? ` (${item.re.entries.length} entries share this time)` : ''}`);
  }
  if (item.addressing !== null) lines.push(`- ${ADDRESSING_WORDS[item.addressing]}${item.sibling ? ', written by another seat of the same agent' : ''}`);
  if (item.sacCursor === 'backlog') lines.push(`- ${BACKLOG_WORDS} (derived), so not counted as unread (sac’s rule)`);
  else if (item.sacCursor !== null) lines.push(`- sac’s cursor: ${item.sacCursor} (as sac’s cursor says; not what the session read)`);
  if (item.sharesTime > 1) lines.push(`- ${item.sharesTime} entries of the room share this time; their order between them is the files' order`);
  if (item.timeGoesBack) lines.push('- In its file after an entry dated later: placed by its time, as sac history orders it');
  const at = item.time ?? 'no time';
  switch (item.evidence) {
    case 'parsed':
      return section(`${item.typeWord} · ${at}`, lines, text);
    case 'pending':
      return section(`Being written: ${item.typeWord} · ${at}`, [...lines, '- Its body is still being written.', ...why], text);
    case 'damaged':
      return section(`Torn write: ${item.typeWord} · ${at}`, [...lines, '- Unknown evidence: its write was cut short.', ...why], text);
    case 'changed':
      return section(`Changed after it was read: ${item.typeWord} · ${at}`, [...lines, '- sac only appends, so something else rewrote the file; what its header said when read is kept.', ...why], text);
    default:
      return section(`${item.typeWord} · ${at}: ${item.evidence}`, [...lines, ...why], text);
  }
}

function section(title: string, lines: readonly string[], block = ''): string {
  return `### ${title}\n\n${lines.join('\n')}\n${block === '' ? '' : '\n' + block}\n`;
}

/** A set-agent-comm hit: an entry written by a seat in a room. */
export function describeSacHit(hit: SacSearchHit): string {
  const lines = [
    `- Store sac ${inlineValue(hit.source.id)}, room ${inlineValue(hit.room)}, written by seat ${inlineValue(hit.seat)}`,
    `- Type: ${inlineValue(hit.typeWord)}${hit.typeWord === hit.entryType ? '' : ` (${hit.entryType})`}`,
    `- To: ${hit.to.length === 0 ? 'everyone' : hit.to.map(inlineValue).join(', ')}`,
  ];
  return `### Entry · ${hit.at}\n\n${lines.join('\n')}\n\n${snippetMarkdown(hit.snippet, hit.snippetCut)}\n`;
}

/**
 * The newest `limit` of a seat's items by their place in time, oldest first: its sent (the first
 * `sent` of `items`) and its received are each in time order, so the newest are taken from their ends.
 */
function pickNewest(items: readonly Exported[], sent: number, limit: number): Exported[] {
  const picked: Exported[] = [];
  let s = sent;
  let r = items.length;
  while (picked.length < limit && (s > 0 || r > sent)) {
    const fromSent = s > 0 && (r === sent || items[s - 1]!.flow.place >= items[r - 1]!.flow.place);
    picked.push(fromSent ? items[--s]! : items[--r]!);
  }
  return picked.reverse();
}
