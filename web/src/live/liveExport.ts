import { fencedBlock, inlineValue } from '../../../shared/markdown.ts';
import { capitalize } from '../../../shared/words.ts';
import type { LiveRow } from '../events/liveFeed.ts';
import { liveFilterQuery, type LiveFilter } from './liveFilter.ts';

// The live view's current selection taken away: the rows it holds that pass its filter, as the
// event stream told them. Made in the browser from what the page holds (the server keeps no
// history of notices); each item names its store, conversation and link, and a conversation's
// own export has its items whole, with their bytes as on disk.

const LIVE_EXPORT_SCHEMA = 'rec.live-export/1';
type LiveExportFormat = 'ndjson' | 'json' | 'md';

const NOTE = 'What the live view was told, in the order it arrived: each item\'s whole text and its bytes as on disk are in its conversation\'s export. Nothing here pairs a received item with a sent one.';

export function describeLiveSelection(format: LiveExportFormat, rows: readonly LiveRow[], filter: LiveFilter, exportedAt: string): string {
  const asked = [...liveFilterQuery(filter)].map(([name, value]) => `${name}: ${value}`);
  const items = rows.flatMap((row) => (row.type === 'item' ? [{ source: row.source, sessionId: row.sessionId, session: row.session, ...row.item }] : []));
  const breaks = rows.flatMap((row) => (row.type === 'break' ? [{ lostAt: new Date(row.lostAt).toISOString(), backAt: new Date(row.backAt).toISOString() }] : []));
  switch (format) {
    case 'json':
      return JSON.stringify({ schema: LIVE_EXPORT_SCHEMA, filter: asked, exportedAt, note: NOTE, items, breaks });
    case 'ndjson':
      return (
        [
          JSON.stringify({ type: 'live', schema: LIVE_EXPORT_SCHEMA, filter: asked, exportedAt, items: items.length, note: NOTE }),
          ...rows.map((row) =>
            row.type === 'item'
              ? JSON.stringify({ type: 'item', source: row.source, sessionId: row.sessionId, session: row.session, ...row.item })
              : JSON.stringify({ type: 'break', lostAt: new Date(row.lostAt).toISOString(), backAt: new Date(row.backAt).toISOString(), why: 'the connection was lost: what was written meanwhile is not listed' }),
          ),
        ].join('\n') + '\n'
      );
    case 'md': {
      // Its items under a heading of their own, as a conversation's entries and a search's hits are.
      const lines = ['# Live', '', ...(asked.length === 0 ? ['- Every item, no filter'] : asked.map((term) => `- ${term}`)), `- ${items.length} ${items.length === 1 ? 'item' : 'items'}, in the order they arrived`, `- Exported at ${exportedAt}`, '', NOTE, '', '## Items, in the order they arrived', ''];
      if (rows.length === 0) lines.push('None.', '');
      for (const row of rows) {
        if (row.type === 'break') {
          lines.push(`### Connection lost · ${new Date(row.lostAt).toISOString()} – ${new Date(row.backAt).toISOString()}`, '', 'What was written meanwhile is not listed.', '');
          continue;
        }
        const { item } = row;
        lines.push(
          // A side in the words every export heads it with ("Sent"); a store's kind as the store wrote it.
          `### ${item.side !== null ? capitalize(item.side) : (item.kind ?? item.evidence)} · ${item.at ?? 'no time'}`,
          '',
          `- Store ${row.source.kind} ${inlineValue(row.source.id)}, conversation ${inlineValue(row.sessionId)}, item ${inlineValue(item.key)}`,
          ...(row.session === null ? [] : [`- Session ${inlineValue(row.session)}, as its store states it`]),
          `- ${item.degraded ? `**${item.words}**` : item.words}`,
          ...(item.twoSides === true ? ['- Two sides: the same line is also an item under the other session (joined by the id its store wrote, not paired here)'] : []),
          ...(item.peer === null ? [] : [`- Peer: ${inlineValue(item.peer)}`]),
          `- Opens at ${inlineValue(item.link)}`,
          '',
          ...(item.firstLine === null ? [] : [fencedBlock(item.firstLine)]),
        );
      }
      return lines.join('\n');
    }
  }
}


/** Offers a text the page made as a file to save. */
export function downloadText(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
