import { useState } from 'react';
import { missingRangeFromWire, type FileItem, type GapItem, type StrayItem } from '../../../../shared/wire/record.ts';
import { describeMissing, describeMissingNumbers, isSequenceJump } from '../../../../shared/record/degraded.ts';
import { numberText } from '../../../../shared/jsonText.ts';
import { Mark } from '../../conversation/marks.tsx';
import { Link } from '../../router/Router.tsx';
import { conversationPath } from '../../router/routes.ts';
import { shortId } from '../../sessions/names.ts';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { CopyLink, EntryLink, EntryNotes, FileSource, KeptFacts, RawPanel, RawToggle, describeEpisode, entryTime } from './EntryChrome.tsx';
import { countOf } from '../../text/count.ts';
import { capitalize } from '../../../../shared/words.ts';

// Rows that span both columns: what the session was (start, chain), and where the record is
// silent or damaged, each in its place in the session's order.

type RawProps = { raw: boolean; onToggleRaw(): void };

export function StartRow({ sessionId, item, entry, raw, onToggleRaw }: { sessionId: string; item: FileItem; entry: Record<string, unknown> } & RawProps) {
  const run = item.run ?? 0;
  return (
    <article className="record-row start-row" aria-label={`start entry ${item.file}`} data-file={item.file}>
      <header className="entry-head">
        <strong>{run === 0 ? 'Start: coverage begins' : `Start again: run ${run + 1} (the plugin loaded again: a resumed session)`}</strong>
        <EntryLink sessionId={sessionId} item={item} at={entryTime(item, entry)} />
        <span className="seq">#{item.seq}</span>
      </header>
      <p className="start-facts">
        host <Field value={entry['host']} /> · version <Field value={entry['version']} /> · inbound setting <Field value={entry['inbound']} /> · directory{' '}
        <Field value={entry['cwd']} />
      </p>
      <RecordRowEnd sessionId={sessionId} item={item} entry={entry} raw={raw} onToggleRaw={onToggleRaw} />
    </article>
  );
}

/** What start and chain rows end with: notes on the entry, the raw JSON toggle and its panel. */
function RecordRowEnd({ sessionId, item, entry, raw, onToggleRaw }: { sessionId: string; item: FileItem; entry: Record<string, unknown> } & RawProps) {
  return (
    <>
      <EntryNotes sessionId={sessionId} item={item} entry={entry} />
      <footer className="entry-foot">
        <RawToggle raw={raw} onToggle={onToggleRaw} entry={entry} />
      </footer>
      <RawPanel raw={raw} sessionId={sessionId} item={item} />
    </>
  );
}

export function ChainRow({ sessionId, item, entry, raw, onToggleRaw }: { sessionId: string; item: FileItem; entry: Record<string, unknown> } & RawProps) {
  const parent = typeof entry['parent'] === 'string' ? entry['parent'] : '';
  return (
    <article className="record-row chain-row" aria-label={`chain entry ${item.file}`} data-file={item.file}>
      <header className="entry-head">
        <strong>Chain: part {typeof entry['part'] === 'string' ? entry['part'] : (numberText(entry['part']) ?? String(entry['part']))} under parent</strong>
        <Link to={conversationPath(item.source.id, parent)} title={parent}>
          {shortId(parent)}
        </Link>
        <EntryLink sessionId={sessionId} item={item} at={entryTime(item, entry)} />
        <span className="seq">#{item.seq}</span>
      </header>
      <div className="chain-brief">
        <span className="muted">brief:</span>
        <VerbatimText text={typeof entry['brief'] === 'string' ? entry['brief'] : ''} />
      </div>
      <RecordRowEnd sessionId={sessionId} item={item} entry={entry} raw={raw} onToggleRaw={onToggleRaw} />
    </article>
  );
}

/** An entry of a kind this reader does not know: shown raw, never dropped, never guessed at. */
export function UnknownKindRow({ sessionId, item, entry }: { sessionId: string; item: FileItem; entry: Record<string, unknown> }) {
  return (
    <article className="record-row unknown-row" aria-label={`entry of unknown kind ${item.file}`} data-file={item.file}>
      <header className="entry-head">
        <strong>
          Entry of a kind this reader does not know: <VerbatimText text={String(entry['kind'])} inline />
        </strong>
        <EntryLink sessionId={sessionId} item={item} at={entryTime(item, entry)} />
        <span className="seq">#{item.seq}</span>
      </header>
      <FileSource sessionId={sessionId} item={item} />
    </article>
  );
}

export function GapRow({ gap }: { gap: GapItem }) {
  const range = missingRangeFromWire(gap);
  if (isSequenceJump(range)) {
    const words = describeMissing(range);
    return (
      <article className="record-row gap-row" aria-label={`sequence jump after ${gap.after ?? 'the start of the run'}`}>
        <strong>
          {capitalize(words)}: entries may be missing here, or the writer's numbering jumped; how many, the record cannot say.
        </strong>{' '}
        <Mark name="unknown" /> <span className="muted">between {gap.after ?? 'the start of the run'} and {gap.before}.</span>
      </article>
    );
  }
  const numbers = describeMissingNumbers(range);
  return (
    <article className="record-row gap-row" aria-label={`missing ${numbers}`}>
      <strong>
        {numbers} missing: a write may have failed or the file was removed.
      </strong>{' '}
      <Mark name="unknown" /> <span className="muted">between {gap.after ?? 'the start of the run'} and {gap.before}.</span>
    </article>
  );
}

export function StrayRow({ sessionId, stray }: { sessionId: string; stray: StrayItem }) {
  return (
    <article className="record-row stray-row" aria-label={`stray file ${stray.file}`} data-file={stray.file}>
      Stray file <code>{stray.file}</code> ({countOf(stray.size, 'byte')}): its name is not an entry's, so it is listed and never read as evidence.{' '}
      <CopyLink source={stray.source.id} sessionId={sessionId} file={stray.file} />
    </article>
  );
}

/** A file that is not (or no longer) a plain entry: pending, damaged, invalid, unreadable, removed, changed. */
export function EvidenceRow({ sessionId, item }: { sessionId: string; item: FileItem }) {
  const name = <code>{item.file}</code>;
  const size = countOf(item.size, 'byte');
  let words;
  switch (item.evidence) {
    case 'pending':
      words = (
        <>
          <strong>Being written:</strong> file {name} ({size}) does not parse yet; it is read again until it does.
        </>
      );
      break;
    case 'damaged':
      words = (
        <>
          <strong>Unknown evidence:</strong> file {name} ({size}) never parsed, for example a write cut short.
        </>
      );
      break;
    case 'invalid':
      words = (
        <>
          <strong>Not a valid entry:</strong> file {name} ({size}) holds JSON the reader cannot vouch for: unknown evidence.
        </>
      );
      break;
    case 'unreadable':
      words = (
        <>
          <strong>Unreadable:</strong> file {name} ({size}) was not read: unknown evidence.
        </>
      );
      break;
    case 'removed':
      words = (
        <>
          <strong>Removed after it was read:</strong> file {name}
          {item.kind !== null ? ` (a ${item.side ?? ''} ${item.kind} entry)` : ''} disappeared; the writer never deletes, so something else removed it.
        </>
      );
      break;
    case 'changed':
      // Only when what is there now is no entry (a link, a folder, bytes that do not parse); a
      // changed file that still parses is shown as its entry, with a note.
      words = (
        <>
          <strong>Changed after it was read:</strong> file {name}
          {item.kind !== null ? ` (a ${item.side ?? ''} ${item.kind} entry)` : ''} no longer holds an entry; the writer writes each file once, so
          something else touched it.
        </>
      );
      break;
    default:
      words = (
        <>
          File {name} ({size}): {item.evidence}.
        </>
      );
  }
  const side = (item.evidence === 'removed' || item.evidence === 'changed') && item.side !== null ? ` evidence-${item.side}` : '';
  return (
    <article className={`record-row evidence-row evidence-${item.evidence}${side}`} aria-label={`${item.evidence} file ${item.file}`} data-file={item.file}>
      <header className="entry-head">
        <span>{words}</span>
        <EntryLink sessionId={sessionId} item={item} at={item.at} />
        <span className="seq">#{item.seq}</span>
      </header>
      {item.why !== null && <p className="muted why">{item.why}</p>}
      {item.episode !== undefined && <p className="entry-note warn">{describeEpisode(item.episode)}</p>}
      {(item.evidence === 'changed' || item.evidence === 'removed') && item.facts !== null && <KeptFacts facts={item.facts} />}
      {item.evidence === 'invalid' && <InvalidSource sessionId={sessionId} item={item} />}
    </article>
  );
}

/** An invalid file's own text: in place when the page has it, on demand when it was too large. */
function InvalidSource({ sessionId, item }: { sessionId: string; item: FileItem }) {
  const [shown, setShown] = useState(false);
  if (item.fileText !== undefined || shown) return <FileSource sessionId={sessionId} item={item} />;
  if (item.rawClipped === undefined) return null;
  return (
    <button type="button" className="link-button" onClick={() => setShown(true)}>
      show the file's text ({countOf(item.rawClipped.bytes, 'byte')})
    </button>
  );
}

function Field({ value }: { value: unknown }) {
  if (typeof value !== 'string') return <span className="muted">not recorded</span>;
  return (
    <strong>
      <VerbatimText text={value} inline />
    </strong>
  );
}
