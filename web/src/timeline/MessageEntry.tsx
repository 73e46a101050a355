import type { FileItem } from '../../../shared/api.ts';
import { numberText } from '../../../shared/record/entry.ts';
import { EntryLink, EntryNotes, RawPanel, RawToggle, entryTime } from './EntryChrome.tsx';
import { HashChecker } from './HashChecker.tsx';
import { MessageText } from './MessageText.tsx';
import { Peer } from './Peer.tsx';
import { receivedOutcome, sentOutcome } from './outcomeWords.ts';
import { OutcomeLabel } from './OutcomeLabel.tsx';

type Props = { sessionId: string; item: FileItem; entry: Record<string, unknown>; side: 'sent' | 'received'; raw: boolean; onToggleRaw(): void };

export function MessageEntry({ sessionId, item, entry, side, raw, onToggleRaw }: Props) {
  const outcome = side === 'sent' ? sentOutcome(entry) : receivedOutcome(entry);
  const text = typeof entry['text'] === 'string' ? entry['text'] : null;
  return (
    <article className={`entry entry-${side} tone-${outcome.tone}${item.evidence === 'changed' ? ' entry-changed' : ''}`} aria-label={`${side} entry ${item.file}`} data-file={item.file}>
      <header className="entry-head">
        <EntryLink sessionId={sessionId} item={item} at={entryTime(item, entry)} />
        <span className="seq" title="Sequence number in the file name">
          #{item.seq}
        </span>
        <Peer entry={entry} side={side} />
        <OutcomeLabel outcome={outcome} />
      </header>
      <EntryNotes sessionId={sessionId} item={item} entry={entry} />
      {side === 'received' && (
        <p className="correlation" title="Correlation is not claimed: two peers can send identical text, and no stable key joins a name, an address and a session id.">
          Which sent entry this corresponds to: not shown by the record.
        </p>
      )}
      {text !== null ? (
        <MessageText sessionId={sessionId} item={item} text={text} actions={<RawToggle raw={raw} onToggle={onToggleRaw} entry={entry} />} />
      ) : (
        <>
          <Withheld entry={entry} />
          <footer className="entry-foot">
            <RawToggle raw={raw} onToggle={onToggleRaw} entry={entry} />
          </footer>
        </>
      )}
      <RawPanel raw={raw} sessionId={sessionId} item={item} />
    </article>
  );
}

function Withheld({ entry }: { entry: Record<string, unknown> }) {
  const written = numberText(entry['textLength']);
  const length = written === null ? null : Number(written);
  // A length the file writes otherwise than JSON would (1e2 for 100) is shown as written.
  const shown = typeof entry['textLength'] === 'number' ? length?.toLocaleString('en') : written;
  const hash = typeof entry['textHash'] === 'string' ? entry['textHash'] : null;
  return (
    <div className="withheld">
      <p>
        <strong>Text withheld</strong> (recordText set to metadata): {shown != null ? `${shown} bytes` : 'length not recorded'}
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
