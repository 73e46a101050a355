import type { FileItem, MessageFactsWire } from '../../../../shared/wire/record.ts';
import { CORRELATION_NOT_SHOWN } from '../../../../shared/record/outcomeWords.ts';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { countOf } from '../../text/count.ts';
import { Link } from '../../router/Router.tsx';
import { itemPath } from '../../router/routes.ts';
import { Time } from '../../time/Time.tsx';
import { entryTime } from './EntryChrome.tsx';
import { useFilterQuery } from './filterContext.ts';
import { CORRELATION_TITLE } from './MessageEntry.tsx';
import { OutcomeLabel } from './OutcomeLabel.tsx';
import { Peer } from './Peer.tsx';
import { receivedOutcome, sentOutcome } from './outcomeWords.ts';
import './busy.css';

// The compact density: a message on one line until it is opened. What may never be left out of
// an entry is still on that line: its peer as the host gave it, what came of it in the table's
// words, and, on a received entry, that the record does not say which sent entry it answers
// (the whole sentence on hover). The time is without its date (the session's header has the
// days), and Copy link is on the opened entry.

/** The longest first line shown; the rest of the text is one "Open" away. */
const FIRST_LINE_CHARS = 240;

type Props = { sessionId: string; item: FileItem; entry: Record<string, unknown>; facts: MessageFactsWire; onOpen(): void };

export function CompactMessageEntry({ sessionId, item, entry, facts, onOpen }: Props) {
  const filter = useFilterQuery();
  const side = facts.side;
  const outcome = side === 'sent' ? sentOutcome(facts) : receivedOutcome(facts);
  const text = !facts.withheld && typeof entry['text'] === 'string' ? entry['text'] : null;
  const lineEnd = text === null ? -1 : text.indexOf('\n');
  const firstLine = text === null ? '' : (lineEnd === -1 ? text : text.slice(0, lineEnd)).slice(0, FIRST_LINE_CHARS);
  const moreLines = text === null || lineEnd === -1 ? 0 : text.slice(lineEnd + 1).split('\n').length;
  // Notes the full form shows on the entry itself: the line says there are some.
  const noted = item.evidence === 'changed' || item.episode !== undefined || item.run === null || (typeof entry['sessionId'] === 'string' && entry['sessionId'] !== sessionId);
  return (
    <article
      className={`entry entry-compact entry-${side} tone-${outcome.tone}${item.evidence === 'changed' ? ' entry-changed' : ''}`}
      aria-label={`${side} entry ${item.file}`}
      data-file={item.file}
    >
      {/* First on the line, so that a narrow column clips the text, never the way to open it. */}
      <button type="button" className="small entry-open" aria-expanded={false} onClick={onOpen} aria-label={`Open entry ${item.file}`} title="Open this entry">
        ▸
      </button>
      <Link to={itemPath(item.source.id, sessionId, item.file, filter)} className="entry-time" title={item.file} aria-label={`Link to entry ${item.file}`}>
        <Time at={entryTime(item, entry)} withDate={false} />
      </Link>
      <span className="seq" title="Sequence number in the file name">
        #{item.seq}
      </span>
      <Peer source={item.source.id} facts={facts} />
      <OutcomeLabel outcome={outcome} />
      {side === 'received' && (
        <span className="correlation correlation-compact" title={`${CORRELATION_NOT_SHOWN} ${CORRELATION_TITLE}`}>
          which sent entry: not shown
        </span>
      )}
      {noted && (
        <span className="badge badge-warn" title="This entry carries notes on its evidence: open it to read them">
          notes
        </span>
      )}
      <span className="compact-text">
        {text === null ? (
          <em className="muted">text withheld</em>
        ) : (
          <>
            <VerbatimText text={firstLine} inline />
            {(moreLines > 0 || firstLine.length < (lineEnd === -1 ? text.length : lineEnd)) && (
              <span className="muted"> … {moreLines > 0 ? `+${countOf(moreLines, 'line')}` : 'more'}</span>
            )}
          </>
        )}
      </span>
    </article>
  );
}
