import type { FileItem, MessageFactsWire } from '../../../../shared/wire/record.ts';
import { numberText } from '../../../../shared/jsonText.ts';
import { EntryLink, EntryNotes, RawPanel, RawToggle, entryTime } from './EntryChrome.tsx';
import { HashChecker } from './HashChecker.tsx';
import { MessageText } from './MessageText.tsx';
import { Peer } from './Peer.tsx';
import { receivedOutcome, sentOutcome } from './outcomeWords.ts';
import { OutcomeLabel } from './OutcomeLabel.tsx';
import { noun } from '../../text/count.ts';

/** `onClose`: in the compact density, puts the opened entry back to its one line. */
export const CORRELATION_TITLE = 'Correlation is not claimed: two peers can send identical text, and no stable key joins a name, an address and a session id.';

type Props = { sessionId: string; item: FileItem; entry: Record<string, unknown>; facts: MessageFactsWire; raw: boolean; onToggleRaw(): void; onClose?(): void };

export function MessageEntry({ sessionId, item, entry, facts, raw, onToggleRaw, onClose }: Props) {
  const side = facts.side;
  const outcome = side === 'sent' ? sentOutcome(facts) : receivedOutcome(facts);
  const text = !facts.withheld && typeof entry['text'] === 'string' ? entry['text'] : null;
  return (
    <article className={`entry entry-${side} tone-${outcome.tone}${item.evidence === 'changed' ? ' entry-changed' : ''}`} aria-label={`${side} entry ${item.file}`} data-file={item.file}>
      <header className="entry-head">
        <EntryLink sessionId={sessionId} item={item} at={entryTime(item, entry)} />
        <span className="seq" title="Sequence number in the file name">
          #{item.seq}
        </span>
        <Peer source={item.source.id} facts={facts} />
        <OutcomeLabel outcome={outcome} />
        {onClose !== undefined && (
          <button type="button" className="small entry-close" aria-expanded={true} onClick={onClose} aria-label={`Show entry ${item.file} on one line`}>
            One line
          </button>
        )}
      </header>
      <EntryNotes sessionId={sessionId} item={item} entry={entry} />
      {side === 'received' && (
        <p className="correlation" title={CORRELATION_TITLE}>
          Which sent entry this corresponds to: not shown by the record.
        </p>
      )}
      {text !== null ? (
        <MessageText sessionId={sessionId} item={item} text={text} actions={<RawToggle raw={raw} onToggle={onToggleRaw} entry={entry} />} />
      ) : (
        <>
          <Withheld entry={entry} facts={facts} />
          <footer className="entry-foot">
            <RawToggle raw={raw} onToggle={onToggleRaw} entry={entry} />
          </footer>
        </>
      )}
      <RawPanel raw={raw} sessionId={sessionId} item={item} />
    </article>
  );
}

function Withheld({ entry, facts }: { entry: Record<string, unknown>; facts: MessageFactsWire }) {
  const length = facts.textLength;
  // A length the file writes otherwise than JSON would (1e2 for 100) is shown as written.
  const shown = length === null ? null : typeof entry['textLength'] === 'number' ? length.toLocaleString('en') : (numberText(entry['textLength']) ?? String(length));
  const hash = facts.textHash;
  return (
    <div className="withheld">
      <p>
        <strong>Text withheld</strong> (recordText set to metadata): {shown != null && length !== null ? `${shown} ${noun(length, 'byte')}` : 'length not recorded'}
        {hash !== null && (
          <>
            , <code className="hash">{hash}</code>
          </>
        )}
      </p>
      {hash !== null && <HashChecker textHash={hash} textLength={length} />}
    </div>
  );
}
