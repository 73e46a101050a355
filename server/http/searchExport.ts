import type { SearchHit } from '../../shared/wire/kinds.ts';
import type { SearchResponse, StoppedEarly } from '../../shared/wire/search.ts';
import type { ExportItem, ExportParts } from '../export/exportParts.ts';
import { inlineValue } from '../../shared/markdown.ts';
import type { Source } from '../sources/source.ts';

// A search's hits taken away, through the one export pipeline: each hit as the search answers it,
// naming its store, session and file, so that the entry itself can be found (and exported with
// its session).

const SEARCH_EXPORT_SCHEMA = 'rec.search-export/1';

/** The query as asked, without what only picks the export's form. */
function describeQuery(query: Record<string, unknown>): Record<string, string> {
  const asked: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) if (name !== 'format' && typeof value === 'string') asked[name] = value;
  return asked;
}

export function describeSearchExport(response: SearchResponse, query: Record<string, unknown>, exportedAt: string, sources: readonly Source[]): ExportParts {
  const asked = describeQuery(query);
  async function* each<F extends 'ndjson' | 'json' | 'md'>(form: (hit: SearchHit) => ExportItem<F>): AsyncGenerator<ExportItem<F>> {
    for (const hit of response.hits) yield form(hit);
  }
  return {
    // Named as the live view names its own download: live-2026-12-07T17-04-20-373Z.md.
    name: ['search', exportedAt.replace(/[:.]/g, '-')],
    ndjsonHead: { type: 'search', schema: SEARCH_EXPORT_SCHEMA, query: asked, exportedAt, hits: response.hits.length, scanned: response.scanned, truncated: response.truncated, stoppedEarly: response.stoppedEarly, keptOut: response.keptOut, notRead: response.notRead },
    jsonHead: { schema: response.schema },
    jsonTail: () => ({ scanned: response.scanned, truncated: response.truncated, stoppedEarly: response.stoppedEarly, keptOut: response.keptOut, notRead: response.notRead }),
    markdownHead() {
      const lines = ['# Search', ''];
      const terms = Object.entries(asked);
      if (terms.length === 0) lines.push('- Everything, with no filter');
      for (const [name, value] of terms) lines.push(`- ${name}: ${inlineValue(value)}`);
      lines.push(
        `- ${response.hits.length} ${response.hits.length === 1 ? 'hit' : 'hits'}, newest first; ${response.scanned} texts read${response.truncated ? '; **more entries matched** than the limit' : ''}`,
        ...(response.stoppedEarly === null ? [] : [`- **Stopped early**: ${describeStoppedEarly(response.stoppedEarly)}; the texts not searched may hold more`]),
        ...response.keptOut.map(({ source, why }) => `- **Not searched**: ${source.kind} store ${source.id}: ${why}`),
        ...response.notRead.map(({ source, why }) => `- **Not read**: ${source.kind} store ${source.id}: ${why}`),
        `- Exported at ${exportedAt}`,
        '',
        'Each hit shows the text around its match. Nothing here pairs a received entry with a sent one.',
        '',
      );
      return lines.join('\n') + '\n';
    },
    // Under a heading of their own, as a conversation's entries are: each hit's heading is the third level.
    lists: [{ name: 'hits', markdownTitle: '## Hits\n\n', markdownEmpty: 'None.\n' }],
    items: {
      ndjson: () => each((hit) => ({ record: { fields: { type: 'hit', ...hit } } })),
      json: () => each((hit) => ({ value: hit })),
      // Each hit in its own store's words, by the source that found it.
      md: () => each((hit) => ({ markdown: describeHit(hit, sources) })),
    },
  };
}

function describeHit(hit: SearchHit, sources: readonly Source[]): string {
  const source = sources.find((one) => one.ref.id === hit.source.id);
  return source?.describeSearchHit(hit) ?? `### A hit of ${inlineValue(hit.source.id)}, a store this dashboard no longer reads\n\n`;
}

function describeStoppedEarly({ searched, candidates, afterMs }: StoppedEarly): string {
  return `searched ${searched} of ${candidates} texts; stopped after ${(afterMs / 1000).toFixed(1)} s`;
}
