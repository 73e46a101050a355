import type { FileItem, SessionItemWire, SessionSummary } from '../../shared/api.ts';
import { REASON_FILES_SHOWN } from '../../shared/api.ts';
import type { SessionFold, SessionItem } from '../../shared/record/session.ts';
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
 * An item of a session page. Parsed and changed files are read again now, so a page shows
 * what is on disk; `read` does that read, and is not called for other items.
 */
export function projectItem(item: SessionItem, read: (name: string) => FreshRead, textLimit: number | null): SessionItemWire {
  switch (item.type) {
    case 'gap':
      return { type: 'gap', run: item.run, ...item.missing };
    case 'stray':
      return { type: 'stray', file: item.fact.name, size: item.fact.size };
    case 'file': {
      let fact = item.fact;
      let entry: Record<string, unknown> | null = null;
      let raw: unknown;
      if (fact.evidence === 'parsed' || fact.evidence === 'changed' || fact.evidence === 'invalid') {
        const fresh = read(fact.name);
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
      if (entry !== null && textLimit !== null) clipText(wire, entry, textLimit);
      return wire;
    }
  }
}

/** Cuts a text longer than the page limit, at a character boundary, and says so. */
function clipText(wire: FileItem, entry: Record<string, unknown>, limitBytes: number): void {
  const text = entry['text'];
  if (typeof text !== 'string' || text.length <= limitBytes / 3) return;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= limitBytes) return;
  let end = Math.min(text.length, limitBytes);
  while (end > 0 && Buffer.byteLength(text.slice(0, end), 'utf8') > limitBytes) end = Math.floor(end * 0.9);
  // Never split a surrogate pair: the clipped text must still be the text's own characters.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  wire.entry = { ...entry, text: text.slice(0, end) };
  wire.textClipped = { bytes };
}

