import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { EntryFactsWire, FileItem } from '../../../../shared/wire/record.ts';
import { numberText } from '../../../../shared/jsonText.ts';
import { KEEP_ENTRIES_AS_SENT } from '../../api/client.ts';
import { Link } from '../../router/Router.tsx';
import { itemPath } from '../../router/routes.ts';
import { CopyButton } from '../../text/CopyButton.tsx';
import { Time } from '../../time/Time.tsx';
import { RawJson } from './RawJson.tsx';
import { shortId } from '../../sessions/names.ts';
import { receivedOutcome, unknownFields } from './outcomeWords.ts';
import { countOf } from '../../text/count.ts';
import { useFilterQuery } from './filterContext.ts';
import { fetchFile, fileKey } from './recordApi.ts';

// What every parsed entry carries besides its content: a link to itself (its URL), notes on
// evidence that is not plain, and its raw JSON on demand.

export function EntryLink({ sessionId, item, at }: { sessionId: string; item: FileItem; at: string }) {
  const filter = useFilterQuery();
  return (
    <>
      <Link to={itemPath(item.source.id, sessionId, item.file, filter)} className="entry-time" title={item.file} aria-label={`Link to entry ${item.file}`}>
        <Time at={at} />
      </Link>{' '}
      <CopyLink source={item.source.id} sessionId={sessionId} file={item.file} />
    </>
  );
}

/** Copies the entry's address to share: the page's origin and path, never the access token. */
export function CopyLink({ source, sessionId, file }: { source: string; sessionId: string; file: string }) {
  return <CopyButton getText={() => new URL(itemPath(source, sessionId, file), window.location.origin).href} label={`Copy a link to entry ${file}`} children="Copy link" />;
}

export function entryTime(item: FileItem, entry: Record<string, unknown> | null): string {
  return typeof entry?.['at'] === 'string' ? entry['at'] : item.at;
}

/** Notes that must sit on the entry itself: it changed on disk (or did and was put back), or it names another session. */
export function EntryNotes({ sessionId, item, entry }: { sessionId: string; item: FileItem; entry: Record<string, unknown> }) {
  const notes: ReactNode[] = [];
  if (item.evidence === 'changed') {
    notes.push(
      <p key="changed" className="entry-note warn">
        This file changed after it was read. The writer writes each file once, so something else touched it; shown as it is on disk now.
      </p>,
    );
    if (item.factsWhenRead !== undefined) notes.push(<KeptFacts key="kept" facts={item.factsWhenRead} />);
  }
  if (item.episode !== undefined) {
    notes.push(
      <p key="episode" className="entry-note warn">
        {describeEpisode(item.episode)}
      </p>,
    );
  }
  if (typeof entry['sessionId'] === 'string' && entry['sessionId'] !== sessionId) {
    notes.push(
      <p key="mismatch" className="entry-note warn">
        This entry names session {entry['sessionId']}, not this folder's.
      </p>,
    );
  }
  if (item.run === null) {
    notes.push(
      <p key="before" className="entry-note muted">
        No start entry before it: coverage unknown.
      </p>,
    );
  }
  return <>{notes}</>;
}

/**
 * What the reader kept of an entry whose file changed or went after it was read: the facts its
 * counts, its column and search filters rest on. Its text then was never held, so it is not here.
 */
export function KeptFacts({ facts }: { facts: EntryFactsWire }) {
  return (
    <p className="entry-note kept-facts" role="note" aria-label="What the reader kept from its first read">
      When first read: {describeFacts(facts)}. The session's counts, this entry's column and search filters rest on that. Its text then is not
      kept: the reader never holds texts, it reads them from the file for a page.
    </p>
  );
}

function describeFacts(facts: EntryFactsWire): string {
  switch (facts.kind) {
    case 'message': {
      const peer = facts.peer?.as ?? (facts.peer?.sessionId != null ? `session ${shortId(facts.peer.sessionId)}` : 'a peer the host did not name');
      const result =
        facts.side === 'sent'
          ? facts.isQueued === true
            ? 'queued by the host'
            : facts.isQueued === false
              ? 'not queued'
              : 'host result not recorded'
          : receivedOutcome(facts).words;
      return `a ${facts.side} message ${facts.side === 'sent' ? 'to' : 'from'} ${peer}, ${result}${facts.withheld ? ', its text withheld (metadata mode)' : ''}`;
    }
    case 'start':
      return `a start entry (host ${facts.host}, version ${facts.version}, inbound setting ${facts.inbound})`;
    case 'chain':
      return `a chain entry, part ${typeof facts.part === 'string' ? facts.part : (numberText(facts.part) ?? String(facts.part))} under ${shortId(facts.parent)}`;
    case 'unknown':
      return `an entry of a kind this reader does not know (${facts.kindName})`;
  }
}

/** A file back as it was read, after something touched it: the episode, in words. */
export function describeEpisode(episode: NonNullable<FileItem['episode']>): string {
  switch (episode) {
    case 'changed-then-restored':
      return 'This file changed after it was read, then put back as it was read. The writer writes each file once, so something else touched it.';
    case 'removed-then-restored':
      return 'This file was removed after it was read, then put back as it was read. The writer never deletes, so something else removed it.';
  }
}

export function RawToggle({ raw, onToggle, entry }: { raw: boolean; onToggle(): void; entry: Record<string, unknown> }) {
  const extra = unknownFields(entry);
  return (
    <>
      <button type="button" className="small" aria-pressed={raw} onClick={onToggle} aria-label="Show the raw JSON of this entry">
        {raw ? 'Hide raw' : entry['envelope'] !== undefined ? 'Raw JSON (envelope)' : 'Raw JSON'}
      </button>
      {extra.length > 0 && (
        <span className="unknown-fields" title="Fields this reader does not know: kept, shown raw, not interpreted">
          +{countOf(extra.length, 'unknown field')}: {extra.join(', ')}
        </span>
      )}
    </>
  );
}

export function RawPanel({ raw, sessionId, item }: { raw: boolean; sessionId: string; item: FileItem }) {
  if (!raw) return null;
  return (
    <div className="raw-panel">
      <p className="muted">
        {item.file} · {countOf(item.size, 'byte')}
      </p>
      <FileSource sessionId={sessionId} item={item} />
    </div>
  );
}

/** The file's own text: from the page where it has it, else from the file endpoint. */
export function FileSource({ sessionId, item }: { sessionId: string; item: FileItem }) {
  const file = useQuery({
    queryKey: fileKey(item.source.id, sessionId, item.file),
    queryFn: ({ signal }) => fetchFile(item.source.id, sessionId, item.file, signal),
    enabled: item.fileText === undefined,
    ...KEEP_ENTRIES_AS_SENT,
  });
  const source = item.fileText ?? file.data?.item.fileText;
  if (source !== undefined) return <RawJson text={source} file={item.file} />;
  if (file.error !== null) return <p className="error">could not load the file: {file.error.message}</p>;
  return <p className="muted">loading…</p>;
}
