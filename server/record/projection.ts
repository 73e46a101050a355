import type { SourceRef } from '../../shared/wire/common.ts';
import type { EntryFactsWire, FileItem, SessionItemWire, SessionSummary } from '../../shared/wire/record.ts';
import { REASON_FILES_SHOWN, seqToWire } from '../../shared/wire/record.ts';
import type { MissingRange } from '../../shared/record/degraded.ts';
import { valueAsWritten } from '../../shared/jsonText.ts';
import type { EntryFacts, MessageDetails } from '../../shared/record/entry.ts';
import type { EvidenceState } from '../../shared/evidence.ts';
import type { SessionFold, SessionItem } from '../../shared/record/session.ts';
import type { FreshRead } from './recordLooks.ts';

// Hand-written projections from the core's state to the wire: a field reaches a client only
// when it is named here.

export function projectSummary(fold: SessionFold, source: SourceRef, reasonFilesShown = REASON_FILES_SHOWN): SessionSummary {
  return {
    source: { kind: 'record', id: source.id },
    id: fold.sessionId,
    sessionId: fold.sessionId,
    statedSession: fold.sessionId,
    cwd: fold.cwd,
    cwds: fold.cwds,
    hasStart: fold.runs.length > 0,
    coverage: fold.coverage,
    runCount: fold.runs.length,
    firstAt: fold.firstAt,
    lastAt: fold.lastAt,
    counts: fold.counts,
    degraded: fold.degraded.map((reason) => ({
      code: reason.code,
      files: reason.files.length > reasonFilesShown ? reason.files.slice(0, reasonFilesShown) : reason.files,
      filesTotal: reason.files.length,
      ...(reason.missing !== undefined ? { missing: reason.missing.slice(0, reasonFilesShown).map(projectRange) } : {}),
      ...(reason.folder !== undefined ? { folder: reason.folder } : {}),
    })),
    chain: fold.chain,
  };
}

function projectRange(range: MissingRange) {
  return { from: seqToWire(range.from), to: seqToWire(range.to), after: range.after, before: range.before };
}

/**
 * A file read for an item. `clipped` is set when the entry was already clipped for a page where
 * it was read (a large entry, in a reader thread): null when nothing had to be left out.
 */
export type ItemRead = FreshRead & { clipped?: Clipping | null; asWritten?: true };

/** Whether an item's file is read again for a page: what it holds is shown as it is on disk now. */
export function isReadForItem(evidence: EvidenceState): boolean {
  return evidence === 'parsed' || evidence === 'changed' || evidence === 'invalid';
}

/**
 * An item of a session page. Parsed and changed files are read again now, so a page shows
 * what is on disk; `read` does that read, and is not called for other items.
 */
export function projectItem(item: SessionItem, source: SourceRef, read: (name: string) => ItemRead, textLimit: number | null): SessionItemWire {
  const ref = { kind: source.kind, id: source.id };
  switch (item.type) {
    case 'gap':
      return { type: 'gap', source: ref, run: item.run, ...projectRange(item.missing) };
    case 'stray':
      return { type: 'stray', source: ref, file: item.file.name, size: item.file.size };
    case 'file': {
      let file = item.file;
      const factsWhenRead = file.facts;
      let facts = factsWhenRead === null ? null : projectFacts(factsWhenRead, null);
      let entry: Record<string, unknown> | null = null;
      let raw: unknown;
      let source: string | undefined;
      let clipped: Clipping | null | undefined;
      if (isReadForItem(file.evidence)) {
        const fresh = read(file.name);
        clipped = fresh.clipped;
        // Read again under the same name, the file keeps its entry name.
        if (fresh.state !== undefined && fresh.state.entryName !== null) {
          file = fresh.state;
          facts = file.facts === null ? null : projectFacts(file.facts, null);
        }
        const reading = fresh.reading;
        // A read made on a reader thread comes with its values as written already.
        const asRead = fresh.asWritten === true;
        if (reading?.outcome === 'entry') {
          entry = (asRead ? reading.value : valueAsWritten(reading.value, reading.source)) as Record<string, unknown>;
          source = reading.source;
          facts = projectFacts(reading.facts, reading.details);
        } else if (reading?.outcome === 'invalid') {
          if (reading.value !== undefined) raw = asRead || reading.source === undefined ? reading.value : valueAsWritten(reading.value, reading.source);
          source = reading.source;
        }
      }
      const wire: FileItem = {
        type: 'file',
        source: ref,
        file: file.name,
        at: file.entryName.at,
        seq: seqToWire(file.entryName.seq),
        size: file.size,
        evidence: file.evidence,
        run: item.run,
        why: file.why,
        kind: file.facts?.kind ?? null,
        side: file.facts?.kind === 'message' ? file.facts.side : null,
        facts,
        entry,
      };
      // An invalid entry has no fields to clip one by one: a large one is left out of a page whole.
      if (file.evidence === 'invalid' && textLimit !== null && file.size > textLimit) wire.rawClipped = { bytes: file.size };
      else if (raw !== undefined) wire.raw = raw;
      // A page carries the text only of what it shows raw in place; the raw view of an entry
      // asks the file endpoint, so that a page is not twice the size.
      const shownRaw = file.evidence === 'invalid' || file.facts?.kind === 'unknown';
      if (source !== undefined && (textLimit === null || (shownRaw && file.size <= textLimit))) wire.fileText = source;
      if ((file.evidence === 'parsed' || file.evidence === 'invalid') && file.touched !== undefined) wire.episode = `${file.touched}-then-restored`;
      if (file.evidence === 'changed' && entry !== null && factsWhenRead !== null) wire.factsWhenRead = projectFacts(factsWhenRead, null);
      if (entry !== null && textLimit !== null) {
        if (clipped === undefined) {
          const forPage = clipEntry(entry, wire.size, textLimit);
          wire.entry = forPage.entry;
          clipped = forPage.clipping;
        }
        if (clipped?.textClipped !== undefined) wire.textClipped = clipped.textClipped;
        if (clipped?.fieldsClipped !== undefined) wire.fieldsClipped = clipped.fieldsClipped;
      }
      return wire;
    }
  }
}

/**
 * An entry's facts for the wire: the core's, named one by one. `details` come with a reading of
 * the entry; without one (a removed entry's facts, kept from when it parsed) they are unknown.
 */
function projectFacts(facts: EntryFacts, details: MessageDetails | null): EntryFactsWire {
  switch (facts.kind) {
    case 'start':
      return { kind: 'start', host: facts.host, version: facts.version, inbound: facts.inbound };
    case 'chain':
      return { kind: 'chain', parent: facts.parent, part: facts.part, brief: facts.brief };
    case 'unknown':
      return { kind: 'unknown', kindName: facts.kindName };
    case 'message':
      return {
        kind: 'message',
        side: facts.side,
        peer: facts.peerAs === null && facts.peerSessionId === null ? null : { as: facts.peerAs, sessionId: facts.peerSessionId },
        isQueued: facts.isQueued,
        reason: details?.reason ?? null,
        outcome: facts.outcome,
        withheld: facts.withheld,
        textLength: details?.textLength ?? null,
        textHash: details?.textHash ?? null,
      };
  }
}

/** What a page left out of an entry, as the item says it. */
export type Clipping = { textClipped?: { bytes: number }; fieldsClipped?: { field: string; bytes: number }[] };

/**
 * Keeps a page small whatever the record holds: a text longer than the limit is cut at a
 * character boundary, and any other field whose JSON is longer is left out of the page. Both
 * are said on the item; the file endpoint gives the entry whole. Fields go as written (numbers
 * too: `1e20` is not sent as its 21 digits), so a file within the limit cannot hold a field over
 * it, and is passed as it is. Pure, so that a reader thread can clip a large entry where it
 * reads it.
 */
export function clipEntry(entry: Record<string, unknown>, size: number, limitBytes: number): { entry: Record<string, unknown>; clipping: Clipping | null } {
  if (size <= limitBytes) return { entry, clipping: null };
  let clipped: Record<string, unknown> | null = null;
  const clipping: Clipping = {};
  const fieldsClipped: { field: string; bytes: number }[] = [];
  for (const [field, value] of Object.entries(entry)) {
    if (field === 'text' && typeof value === 'string') {
      const bytes = Buffer.byteLength(value, 'utf8');
      if (bytes <= limitBytes) continue;
      clipped ??= { ...entry };
      clipped['text'] = value.slice(0, textCut(value, limitBytes));
      clipping.textClipped = { bytes };
      continue;
    }
    const json = JSON.stringify(value) ?? '';
    if (json.length <= limitBytes / 3) continue;
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes <= limitBytes) continue;
    clipped ??= { ...entry };
    delete clipped[field];
    fieldsClipped.push({ field, bytes });
  }
  if (fieldsClipped.length > 0) clipping.fieldsClipped = fieldsClipped;
  return clipped === null ? { entry, clipping: null } : { entry: clipped, clipping };
}

/**
 * The length of the longest prefix of `text` within `limitBytes` of UTF-8, never splitting a
 * pair. Counted character by character: shrinking a guess by a tenth cut up to a tenth short.
 * A lone surrogate counts 3 bytes, as Buffer.byteLength counts it.
 */
function textCut(text: string, limitBytes: number): number {
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    const pair = code >= 0xd800 && code <= 0xdbff && end + 1 < text.length && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00;
    const size = pair ? 4 : code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    if (bytes + size > limitBytes) break;
    bytes += size;
    end += pair ? 2 : 1;
  }
  return end;
}
