import type { FileItem, SessionItemWire, SessionSummary } from '../../shared/api.ts';
import { REASON_FILES_SHOWN } from '../../shared/api.ts';
import type { SessionFold, SessionItem } from '../../shared/record/session.ts';
import type { FileState } from '../record/recordIndex.ts';
import type { FreshRead } from '../record/recordWatcher.ts';

// Hand-written projections from the core's state to the wire: a field reaches a client only
// when it is named here.

export function projectSummary(fold: SessionFold, reasonFilesShown = REASON_FILES_SHOWN): SessionSummary {
  return {
    sessionId: fold.sessionId,
    cwd: fold.cwd,
    cwds: fold.cwds,
    hasStart: fold.runs.length > 0,
    coverage: fold.coverage,
    runs: fold.runs.length,
    firstAt: fold.firstAt,
    lastAt: fold.lastAt,
    counts: fold.counts,
    degraded: fold.degraded.map((reason) => ({
      code: reason.code,
      files: reason.files.length > reasonFilesShown ? reason.files.slice(0, reasonFilesShown) : reason.files,
      filesTotal: reason.files.length,
      ...(reason.missing !== undefined ? { missing: reason.missing.slice(0, reasonFilesShown) } : {}),
      ...(reason.folder !== undefined ? { folder: reason.folder } : {}),
    })),
    chain: fold.chain,
  };
}

/**
 * A file read for an item. `clipped` is set when the entry was already clipped for a page where
 * it was read (a large entry, in a reader thread): null when nothing had to be left out.
 */
export type ItemRead = FreshRead & { clipped?: Clipping | null };

/** Whether an item's file is read again for a page: what it holds is shown as it is on disk now. */
export function isReadForItem(evidence: FileState['evidence']): boolean {
  return evidence === 'parsed' || evidence === 'changed' || evidence === 'invalid';
}

/**
 * An item of a session page. Parsed and changed files are read again now, so a page shows
 * what is on disk; `read` does that read, and is not called for other items.
 */
export function projectItem(item: SessionItem, read: (name: string) => ItemRead, textLimit: number | null): SessionItemWire {
  switch (item.type) {
    case 'gap':
      return { type: 'gap', run: item.run, ...item.missing };
    case 'stray':
      return { type: 'stray', file: item.fact.name, size: item.fact.size };
    case 'file': {
      let fact = item.fact;
      let entry: Record<string, unknown> | null = null;
      let raw: unknown;
      let clipped: Clipping | null | undefined;
      if (isReadForItem(fact.evidence)) {
        const fresh = read(fact.name);
        clipped = fresh.clipped;
        if (fresh.state !== undefined) fact = fresh.state;
        if (fresh.reading?.outcome === 'entry') entry = fresh.reading.value;
        else if (fresh.reading?.outcome === 'invalid') raw = fresh.reading.value;
      }
      const wire: FileItem = {
        type: 'file',
        file: fact.name,
        at: fact.entryName!.at,
        seq: fact.entryName!.seq,
        size: fact.size,
        evidence: fact.evidence,
        run: item.run,
        why: fact.why,
        kind: fact.facts?.kind ?? null,
        side: fact.facts?.kind === 'message' ? fact.facts.side : null,
        entry,
      };
      if (raw !== undefined) wire.raw = raw;
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

/** What a page left out of an entry, as the item says it. */
export type Clipping = { textClipped?: { bytes: number }; fieldsClipped?: { field: string; bytes: number }[] };

/**
 * Keeps a page small whatever the record holds: a text longer than the limit is cut at a
 * character boundary, and any other field whose JSON is longer is left out of the page. Both
 * are said on the item; the file endpoint gives the entry whole. Files no larger than the limit
 * cannot hold such fields, so they are passed as they are. Pure, so that a reader thread can
 * clip a large entry where it reads it.
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

/** The length of the longest prefix of `text` within `limitBytes` of UTF-8, never splitting a pair. */
function textCut(text: string, limitBytes: number): number {
  let end = Math.min(text.length, limitBytes);
  while (end > 0 && Buffer.byteLength(text.slice(0, end), 'utf8') > limitBytes) end = Math.floor(end * 0.9);
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}
