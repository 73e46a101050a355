import { isUtf8 } from 'node:buffer';
import type { z } from 'zod';
import type { ExportFormat } from '../../shared/wire/common.ts';
import { createLoopTurns, type LoopTurns } from '../sources/loopTurns.ts';
import { createChunkWriter, type ChunkWriter } from './chunkWriter.ts';
import type { ExportList, ExportParts, ExportRecord, MarkdownBlock, TextPieces } from './exportParts.ts';

// The one export pipeline, for every kind and for a search's hits: it frames what a kind supplies
// (exportParts.ts) as NDJSON lines, one JSON document or one Markdown document, and makes it as
// it is sent. A conversation of 100,000 entries is hundreds of megabytes, so it is never built in
// memory: items are pulled from the kind only as fast as the client takes the bytes (a stream's
// backpressure), and the kind's reading stops when the client goes away.

/**
 * A file name that any browser and file system takes as it is: letters, digits, `.`, `_` and
 * `-`. A session id comes from a folder name, which may hold anything a header must not.
 */
export function exportFileName(parts: readonly string[], format: ExportFormat): string {
  const base = parts
    .map((part) => part.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, ''))
    .filter((part) => part !== '')
    .join('-')
    .slice(0, 120);
  return `${base === '' ? 'export' : base}.${format}`;
}

const activity = { running: 0, finished: 0, stopped: 0 };

/** Exports being sent, sent whole, and stopped before their end (their client went away, or a read failed). */
export function describeExportActivity(): { running: number; finished: number; stopped: number } {
  return { ...activity };
}

type ExportOptions = {
  /** When the export began, as its Markdown says. */
  exportedAt: string;
  /** What each JSON item is checked against: a page's item of the kind, or a search hit. */
  itemSchema: z.ZodType;
  /** Aborts when the client goes away: the kind stops reading at its next item. */
  signal: AbortSignal;
  /**
   * The event loop's turns, shared with every request's work (server/sources/loopTurns.ts): an
   * export makes each item and chunk in a turn, so that what arrives meanwhile (a page, a refusal) is read
   * within one turn, however many exports are under way. Without it, the export has turns of its own.
   */
  turns?: LoopTurns;
};

/**
 * The export's bytes, in chunks. A failure midway (a read that failed, a client gone) ends the
 * stream with an error, so that the response ends without its last chunk and no client takes a
 * cut export for a whole one.
 */
export async function* exportBytes(parts: ExportParts, format: ExportFormat, options: ExportOptions): AsyncGenerator<Buffer> {
  activity.running++;
  let finished = false;
  try {
    const out = createChunkWriter();
    const turns = options.turns ?? createLoopTurns();
    // A step is an item (a kind reads a file for it), not a chunk: a chunk of 128 KB is a hundred
    // small files, a step longer than exports' share of a turn, which pages then waited behind.
    const framing = { ...options, turns };
    const made = format === 'ndjson' ? frameNdjson(parts, out, framing) : format === 'json' ? frameJson(parts, out, framing) : frameMarkdown(parts, out, framing);
    await turns.take('export');
    for await (const chunk of made) {
      yield chunk;
      if (!turns.takeNow('export')) await turns.take('export');
    }
    yield* out.take();
    finished = true;
  } finally {
    activity.running--;
    if (finished) activity.finished++;
    else activity.stopped++;
  }
}

type Framing = ExportOptions & { turns: LoopTurns };

async function* frameNdjson(parts: ExportParts, out: ChunkWriter, { signal, turns }: Framing): AsyncGenerator<Buffer> {
  out.writeText(JSON.stringify(parts.ndjsonHead) + '\n');
  for await (const item of parts.items.ndjson(signal)) {
    signal.throwIfAborted();
    const { record } = item;
    // A text in memory is written without a generator of its own: most records are a small file.
    if (record.text?.value != null && 'pieces' in record.text.value) yield* writeRecordInPieces(out, record, record.text.value.pieces, signal);
    else yield* writeRecord(out, record);
    out.writeText('\n');
    if (out.isFull()) yield* out.take();
    if (!turns.takeNow('export')) await turns.take('export');
  }
}

/** An NDJSON record's fields, up to where its text's value begins (or whole, when it has no text). */
function writeFields(out: ChunkWriter, record: ExportRecord): void {
  const fields = 'fieldsJson' in record ? record.fieldsJson : JSON.stringify(record.fields);
  if (record.text === undefined) {
    out.writeText(fields);
    return;
  }
  out.writeText(`${fields === '{}' ? '{' : `${fields.slice(0, -1)},`}${JSON.stringify(record.text.name)}:`);
}

/** One NDJSON record whose text is in memory (or none): its fields, then its text, a slice at a time. */
function* writeRecord(out: ChunkWriter, record: ExportRecord): Generator<Buffer> {
  writeFields(out, record);
  if (record.text === undefined) return;
  const { base64Name, value } = record.text;
  if (value === null) out.writeText('null');
  else if ('json' in value) {
    if (value.base64 === true) out.writeText(`null,${JSON.stringify(base64Name)}:`);
    out.writeBytes(value.json);
  } else if ('bytes' in value) {
    if (isUtf8(value.bytes)) yield* out.writeJsonString(value.bytes);
    else {
      out.writeText(`null,${JSON.stringify(base64Name)}:`);
      yield* out.writeBase64String(value.bytes);
    }
  }
  out.writeText('}');
}

/** One NDJSON record whose text may be hundreds of megabytes, read a piece at a time as it is sent. */
async function* writeRecordInPieces(out: ChunkWriter, record: ExportRecord, textPieces: TextPieces, signal: AbortSignal): AsyncGenerator<Buffer> {
  writeFields(out, record);
  const pieces = textPieces.read(signal);
  if (textPieces.utf8) {
    out.writeText('"');
    for await (const piece of pieces) yield* out.writeJsonPiece(piece);
    out.writeText('"');
  } else {
    out.writeText(`null,${JSON.stringify(record.text!.base64Name)}:`);
    yield* out.writeBase64Pieces(pieces);
  }
  out.writeText('}');
}

async function* frameJson(parts: ExportParts, out: ChunkWriter, { itemSchema, signal, turns }: Framing): AsyncGenerator<Buffer> {
  const head = JSON.stringify(parts.jsonHead);
  out.writeText(head.slice(0, -1));
  let members = head === '{}' ? 0 : 1;
  let open = -1;
  let first = true;
  /** Opens the lists up to `index`, each after the one before it is closed: a list with no item is `[]`. */
  const openUpTo = (index: number) => {
    while (open < index) {
      if (open >= 0) out.writeText(']');
      open++;
      out.writeText(`${members++ === 0 ? '' : ','}${JSON.stringify(parts.lists[open]!.name)}:[`);
      first = true;
    }
  };
  for await (const item of parts.items.json(signal)) {
    signal.throwIfAborted();
    openUpTo(listIndex(parts.lists, item.list));
    out.writeText((first ? '' : ',') + JSON.stringify(itemSchema.parse(item.value)));
    first = false;
    if (out.isFull()) yield* out.take();
    if (!turns.takeNow('export')) await turns.take('export');
  }
  openUpTo(parts.lists.length - 1);
  if (open >= 0) out.writeText(']');
  const tail = JSON.stringify(parts.jsonTail());
  out.writeText(tail === '{}' ? '}' : `${members === 0 ? '' : ','}${tail.slice(1)}`);
}

async function* frameMarkdown(parts: ExportParts, out: ChunkWriter, { exportedAt, signal, turns }: Framing): AsyncGenerator<Buffer> {
  out.writeText(parts.markdownHead(exportedAt));
  let open = -1;
  let items = 0;
  /** Titles the lists up to `index`; a list that had no item says so under its title. */
  const openUpTo = (index: number) => {
    while (open < index) {
      const list = open >= 0 ? parts.lists[open]! : null;
      if (list !== null && items === 0 && list.markdownEmpty !== undefined) out.writeText(list.markdownEmpty);
      open++;
      items = 0;
      out.writeText(parts.lists[open]!.markdownTitle ?? '');
    }
  };
  for await (const item of parts.items.md(signal)) {
    signal.throwIfAborted();
    openUpTo(listIndex(parts.lists, item.list));
    out.writeText(item.markdown);
    if (item.block !== undefined) yield* writeBlock(out, item.block, signal);
    items++;
    if (out.isFull()) yield* out.take();
    if (!turns.takeNow('export')) await turns.take('export');
  }
  openUpTo(parts.lists.length - 1);
  const last = parts.lists[open];
  if (last !== undefined && items === 0 && last.markdownEmpty !== undefined) out.writeText(last.markdownEmpty);
}

/**
 * A large text's fenced block: its pieces as they are, when they are UTF-8; else as text, each
 * byte that is not UTF-8 a U+FFFD, as a page shows it.
 */
async function* writeBlock(out: ChunkWriter, block: MarkdownBlock, signal: AbortSignal): AsyncGenerator<Buffer> {
  const fence = '`'.repeat(Math.max(3, block.backticks + 1));
  out.writeText(`${fence}${block.info}\n`);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for await (const piece of block.pieces.read(signal)) {
    if (block.pieces.utf8) out.writeBytes(piece);
    else out.writeText(decoder.decode(piece, { stream: true }));
    yield* out.take();
  }
  out.writeText(`${decoder.decode()}\n${fence}\n${block.after}`);
}

function listIndex(lists: readonly ExportList[], name: string | undefined): number {
  if (name === undefined) return 0;
  const index = lists.findIndex((list) => list.name === name);
  if (index === -1) throw new Error(`an export item names a list its export does not have: ${name}`);
  return index;
}
