import type { RecordSearchHit, SearchHit, SearchResponse } from '../../shared/api.ts';
import type { SacSearchHit } from '../../shared/wire/sac.ts';
import type { SpexSearchHit } from '../../shared/wire/spex.ts';
import { CORRELATION_NOT_SHOWN, NOT_QUEUED, describeReceivedOutcome, describeSentOutcome } from '../../shared/record/outcomeWords.ts';
import { fencedBlock, inlineValue } from '../sources/markdown.ts';
import type { ExportFormat } from '../sources/source.ts';

// A search's hits taken away: each hit as the search answers it, naming its store, session and
// file, so that the entry itself can be found (and exported with its session).

const SEARCH_EXPORT_SCHEMA = 'rec.search-export/1';

/** The query as asked, without what only picks the export's form. */
function describeQuery(query: Record<string, unknown>): Record<string, string> {
  const asked: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) if (name !== 'format' && typeof value === 'string') asked[name] = value;
  return asked;
}

export function* describeSearchExport(format: ExportFormat, response: SearchResponse, query: Record<string, unknown>, exportedAt: string): Generator<string> {
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
      for (const hit of response.hits) yield describeHit(hit);
    }
  }
}

function describeHit(hit: SearchHit): string {
  if (hit.source.kind === 'spex') return describeSpexHit(hit as SpexSearchHit);
  if (hit.source.kind === 'sac') return describeSacHit(hit as SacSearchHit);
  return describeRecordHit(hit as RecordSearchHit);
}

/** A spex hit: a message seen from the session's side (a sent one, from its receiver's log), or a declaration's note. */
function describeSpexHit(hit: SpexSearchHit): string {
  const from = hit.from === null ? null : hit.from.by === 'person' ? 'a person' : hit.from.by === 'session' ? `session ${inlineValue(hit.from.sessionId)}` : inlineValue(hit.from.as);
  const lines = [`- Store spex ${inlineValue(hit.source.id)}, session ${inlineValue(hit.sessionId)}, line ${inlineValue(hit.key)}`, `- Project: ${inlineValue(hit.project)}`];
  if (from !== null) lines.push(`- From ${from}`);
  if (hit.kind === 'sent' && hit.receiver !== null) lines.push(`- From the receiver's log: session ${inlineValue(hit.receiver)} (one event, seen from the sender's side; joined by the id spex stored)`);
  const head = `### ${hit.kind === 'declaration' ? 'Declaration' : hit.kind === 'sent' ? 'Sent' : 'Received'} · ${hit.at}\n\n${lines.join('\n')}\n`;
  return hit.snippet === null ? `${head}\n` : `${head}\n${fencedBlock(hit.snippet)}\n`;
}

/** A set-agent-comm hit: an entry written by a seat in a room. */
function describeSacHit(hit: SacSearchHit): string {
  const lines = [
    `- Store sac ${inlineValue(hit.source.id)}, room ${inlineValue(hit.room)}, written by seat ${inlineValue(hit.seat)}`,
    `- Type: ${inlineValue(hit.typeWord)}${hit.typeWord === hit.entryType ? '' : ` (${hit.entryType})`}`,
    `- To: ${hit.to.length === 0 ? 'everyone' : hit.to.map(inlineValue).join(', ')}`,
  ];
  return `### Entry · ${hit.at}\n\n${lines.join('\n')}\n\n${fencedBlock(hit.snippet)}\n`;
}

function describeRecordHit(hit: RecordSearchHit): string {
  const lines = [
    `- Store ${hit.source.kind} ${inlineValue(hit.source.id)}, session ${inlineValue(hit.sessionId)}, file ${inlineValue(hit.file)}`,
    `- Working directory: ${hit.cwd === null ? 'unknown' : inlineValue(hit.cwd)}`,
    `- Peer: ${hit.peerAs === null ? 'unknown' : inlineValue(hit.peerAs)}${hit.peerSessionId === null ? '' : `, session ${inlineValue(hit.peerSessionId)}`}`,
  ];
  if (hit.side === 'sent') {
    // A reason goes after the words, quoted, as the page shows it apart.
    const words = hit.isQueued === false && hit.reason !== null ? NOT_QUEUED : describeSentOutcome(hit.isQueued, hit.reason);
    lines.push(`- ${hit.isQueued === false ? `**${words}**` : words}${hit.isQueued === false && hit.reason !== null ? ' ' + inlineValue(hit.reason) : ''}`);
  } else {
    lines.push(`- ${describeReceivedOutcome(hit.outcome)}`, `- ${CORRELATION_NOT_SHOWN}`);
  }
  if (hit.withheld) lines.push('- **Text withheld** (recordText set to metadata): its length and hash are in the entry');
  const head = `### ${hit.side === 'sent' ? 'Sent' : 'Received'} · ${hit.at}\n\n${lines.join('\n')}\n`;
  return hit.snippet === null ? `${head}\n` : `${head}\n${fencedBlock(hit.snippet)}\n`;
}
