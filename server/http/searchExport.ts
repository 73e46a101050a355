import type { SearchHit, SearchResponse } from '../../shared/api.ts';
import { inlineValue } from '../sources/markdown.ts';
import type { ExportFormat, Source } from '../sources/source.ts';

// A search's hits taken away: each hit as the search answers it, naming its store, session and
// file, so that the entry itself can be found (and exported with its session).

const SEARCH_EXPORT_SCHEMA = 'rec.search-export/1';

/** The query as asked, without what only picks the export's form. */
function describeQuery(query: Record<string, unknown>): Record<string, string> {
  const asked: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) if (name !== 'format' && typeof value === 'string') asked[name] = value;
  return asked;
}

export function* describeSearchExport(format: ExportFormat, response: SearchResponse, query: Record<string, unknown>, exportedAt: string, sources: readonly Source[]): Generator<string> {
  const asked = describeQuery(query);
  switch (format) {
    case 'json':
      yield JSON.stringify(response);
      return;
    case 'ndjson':
      yield JSON.stringify({ type: 'search', schema: SEARCH_EXPORT_SCHEMA, query: asked, exportedAt, hits: response.hits.length, scanned: response.scanned, truncated: response.truncated }) + '\n';
      for (const hit of response.hits) yield JSON.stringify({ type: 'hit', ...hit }) + '\n';
      return;
    case 'md': {
      const lines = ['# Search', ''];
      const terms = Object.entries(asked);
      if (terms.length === 0) lines.push('- Everything, with no filter');
      for (const [name, value] of terms) lines.push(`- ${name}: ${inlineValue(value)}`);
      lines.push(
        `- ${response.hits.length} ${response.hits.length === 1 ? 'hit' : 'hits'}, newest first; ${response.scanned} texts read${response.truncated ? '; **more entries matched** than the limit' : ''}`,
        `- Exported at ${exportedAt}`,
        '',
        'Each hit shows the text around its match. Nothing here pairs a received entry with a sent one.',
        '',
      );
      yield lines.join('\n') + '\n';
      // Each hit in its own store's words, by the source that found it.
      for (const hit of response.hits) yield describeHit(hit, sources);
    }
  }
}

function describeHit(hit: SearchHit, sources: readonly Source[]): string {
  const source = sources.find((one) => one.ref.id === hit.source.id);
  return source?.describeSearchHit(hit) ?? `### A hit of ${inlineValue(hit.source.id)}, a store this dashboard no longer reads\n\n`;
}
