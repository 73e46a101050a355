import type { FileItem, GapItem, RecordSearchHit, SessionItemWire, SessionSummary, StrayItem } from '../../shared/wire/record.ts';
import { missingRangeFromWire } from '../../shared/wire/record.ts';
import { CORRELATION_NOT_SHOWN, NOT_QUEUED, describeReceivedOutcome, describeSentOutcome } from '../../shared/record/outcomeWords.ts';
import { COVERAGE_UNKNOWN, describeMissing, describeMissingNumbers, describeReason, isSequenceJump, type DegradedReason } from '../../shared/record/degraded.ts';
import { fencedBlock, inlineValue, snippetMarkdown } from '../../shared/markdown.ts';
import { capitalize } from '../../shared/words.ts';

// A record session as a Markdown transcript, read away from the dashboard. It keeps the page's
// honesty: outcomes in words that never overstate, the statement on each received entry that the
// record does not pair it with a sent one, gaps and files that are not entries in their place,
// withheld texts as their length and hash, and every text verbatim in a fence it cannot close.

/** The transcript's head: the session, its coverage, and every reason to doubt its record. */
export function describeSessionMarkdown(summary: SessionSummary, reasons: readonly DegradedReason[], exportedAt: string): string {
  const { counts } = summary;
  const lines = [
    `# Session ${inlineValue(summary.sessionId)}`,
    '',
    `- Store: ${summary.source.kind} ${inlineValue(summary.source.id)}`,
    `- Working directory: ${summary.cwd === null ? 'unknown' : inlineValue(summary.cwd)}`,
    `- First and last activity: ${summary.firstAt ?? 'none'} – ${summary.lastAt ?? 'none'}`,
    `- ${counts.sent} sent · ${counts.received} received · ${counts.refused} not queued · ${counts.rejected} rejected`,
    summary.coverage === 'from-start'
      ? `- Coverage: from its start entry (${summary.runCount === 1 ? '1 run' : `${summary.runCount} runs: resumed`})`
      : `- **Coverage unknown: no start entry.** ${COVERAGE_UNKNOWN}`,
    `- Exported at ${exportedAt}, as the files were on disk then.`,
  ];
  if (summary.chain !== null) lines.push(`- Part ${String(summary.chain.part)} of a chain under session ${inlineValue(summary.chain.parent)}`);
  lines.push('', 'Nothing here pairs a received entry with a sent one: the record does not show which sent entry a received one corresponds to.', '');
  if (reasons.length > 0) {
    lines.push('## Degraded recording', '');
    for (const reason of reasons) lines.push(`- ${describeReason(reason, reason.missing !== undefined ? counts.missing : undefined)}`);
    lines.push('');
  }
  lines.push('## Entries, in the session\'s order', '');
  return lines.join('\n') + '\n';
}

/** One item of the session, in its place. `item` is read whole: its text is not clipped. */
export function describeItemMarkdown(item: SessionItemWire): string {
  switch (item.type) {
    case 'gap':
      return describeGap(item);
    case 'stray':
      return describeStray(item);
    case 'file':
      return describeFile(item);
  }
}

function describeGap(gap: GapItem): string {
  const range = missingRangeFromWire(gap);
  const between = `Unknown, not nothing: between ${gap.after === null ? 'the start of the run' : inlineValue(gap.after)} and ${inlineValue(gap.before)}.`;
  if (isSequenceJump(range)) {
    const words = describeMissing(range);
    return `### ${capitalize(words)}\n\nEntries may be missing here, or the writer's numbering jumped; how many, the record cannot say. ${between}\n\n`;
  }
  return `### ${capitalize(describeMissingNumbers(range))} missing\n\nA write may have failed or the file was removed. ${between}\n\n`;
}

function describeStray(stray: StrayItem): string {
  return `### Stray file ${inlineValue(stray.file)}\n\n${stray.size} bytes: its name is not an entry's, so it is listed and never read as evidence.\n\n`;
}

function describeFile(item: FileItem): string {
  // A run is counted from 1, as the session's page counts it ("Start again: run 2"); the wire's `run` is its index.
  const place = `- File ${inlineValue(item.file)}, ${item.size} bytes, sequence number ${String(item.seq)}${item.run === null ? ', no start entry before it (coverage unknown)' : `, run ${item.run + 1}`}`;
  const notes: string[] = [];
  if (item.evidence === 'changed') {
    notes.push(`- **Changed after it was read** (${item.why ?? 'changed'}): the writer writes each file once, so something else touched it. What it said when first read still counts in the session; shown here is what the file holds now.`);
  }
  if (item.episode === 'changed-then-restored') notes.push('- This file changed after it was read, then was put back as it was read: something else touched it.');
  if (item.episode === 'removed-then-restored') notes.push('- This file was removed after it was read, then was put back as it was read: something else removed it.');
  const entry = item.entry;
  const facts = item.facts;
  if (entry !== null && facts !== null) {
    // The time in the file's name, which the reader checked; the entry's own `at` is any text.
    const at = item.at;
    switch (facts.kind) {
      case 'start':
        // Headed as the page heads it: the first run's start begins coverage, a later one is run N.
        return section(`${(item.run ?? 0) === 0 ? 'Start: coverage begins' : `Start again: run ${item.run! + 1}`} · ${at}`, [place, `- Host ${inlineValue(facts.host)} ${inlineValue(facts.version)}, inbound ${inlineValue(facts.inbound)}`, ...notes]);
      case 'chain': {
        const brief = typeof entry['brief'] === 'string' ? entry['brief'] : facts.brief;
        return section(`Chain · ${at}`, [place, `- Part ${String(facts.part)} of a chain under session ${inlineValue(facts.parent)}`, ...notes], fencedBlock(brief));
      }
      case 'unknown':
        return section(`Entry of a kind this reader does not know: ${inlineValue(facts.kindName)} · ${at}`, [place, ...notes, '- Shown as the file holds it:'], fencedBlock(item.fileText ?? '', 'json'));
      case 'message': {
        const lines = [place];
        const peer = facts.peer;
        lines.push(
          peer === null
            ? '- Peer: unknown (the host gave none)'
            : `- Peer: ${peer.as === null ? 'unknown' : inlineValue(peer.as)}${peer.sessionId === null ? '' : `, session ${inlineValue(peer.sessionId)}`}`,
        );
        if (facts.side === 'sent') {
          // A reason goes after the words, quoted, as the page shows it apart.
          const words = facts.isQueued === false && facts.reason !== null ? NOT_QUEUED : describeSentOutcome(facts.isQueued, facts.reason);
          lines.push(`- ${facts.isQueued === false ? '**' + words + '**' : words}${facts.isQueued === false && facts.reason !== null ? ' ' + inlineValue(facts.reason) : ''}`);
        } else {
          lines.push(`- ${describeReceivedOutcome(facts.outcome)}`, `- ${CORRELATION_NOT_SHOWN}`);
        }
        lines.push(...notes);
        const text = entry['text'];
        if (facts.withheld || typeof text !== 'string') {
          const length = facts.textLength === null ? 'length not recorded' : `${facts.textLength} bytes`;
          lines.push(`- **Text withheld** (recordText set to metadata): ${length}${facts.textHash === null ? '' : `, ${inlineValue(facts.textHash)}`}`);
          return section(`${capitalize(facts.side)} · ${at}`, lines);
        }
        return section(`${capitalize(facts.side)} · ${at}`, lines, fencedBlock(text));
      }
    }
  }
  const name = inlineValue(item.file);
  const why = item.why === null ? [] : [`- Why: ${inlineValue(item.why)}`];
  const was = item.kind !== null ? ` (a ${item.side === null ? '' : item.side + ' '}${item.kind} entry)` : '';
  switch (item.evidence) {
    case 'pending':
      return section(`Being written: file ${name}`, [place, '- It does not parse yet; it is read again until it does.', ...why]);
    case 'damaged':
      return section(`Unknown evidence: file ${name}`, [place, '- It never parsed, for example a write cut short.', ...why]);
    case 'invalid':
      return section(
        `Not a valid entry: file ${name}`,
        [place, '- It holds JSON the reader cannot vouch for: unknown evidence.', ...why, ...notes, ...(item.fileText === undefined ? [] : ['- Shown as the file holds it:'])],
        item.fileText === undefined ? '' : fencedBlock(item.fileText, 'json'),
      );
    case 'unreadable':
      return section(`Unreadable: file ${name}`, [place, '- It was not read: unknown evidence.', ...why]);
    case 'removed':
      return section(`Removed after it was read: file ${name}`, [place, `- It${was} disappeared; the writer never deletes, so something else removed it.`, ...why]);
    case 'changed':
      return section(`Changed after it was read: file ${name}`, [place, `- It${was} no longer holds an entry; the writer writes each file once, so something else touched it. What it said when read still counts.`, ...why]);
    default:
      return section(`File ${name}: ${item.evidence}`, [place, ...why]);
  }
}

function section(title: string, lines: readonly string[], block = ''): string {
  return `### ${title}\n\n${lines.join('\n')}\n${block === '' ? '' : '\n' + block}\n`;
}

/** A search hit of the record, for a Markdown export of a search. */
export function describeRecordHit(hit: RecordSearchHit): string {
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
  return hit.snippet === null ? `${head}\n` : `${head}\n${snippetMarkdown(hit.snippet, hit.snippetCut)}\n`;
}
