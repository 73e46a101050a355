import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SacFlowItem } from '../../../shared/wire/sac.ts';
import { Link } from '../router/Router.tsx';
import { sacRoomEntryPath, sacRoomPath, sacSeatPath } from '../router/routes.ts';
import { VerbatimText } from '../text/VerbatimText.tsx';
import { fetchItem, sacKeys } from './sacApi.ts';

// One stretch of a seat file in a flow: an entry (writer, type as written, to or everyone, re),
// stray text before a first header, or a write in progress or cut short. Texts verbatim.

const ADDRESSING: Record<string, string> = {
  'to-seat': 'to this seat',
  'to-agent': 'to its agent',
  'to-everyone': 'to everyone',
  'to-others': 'to others',
};

export function entryAnchor(item: string): string {
  return `e-${item.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;
}

type Props = { item: SacFlowItem; source: string; seat: string; showRoom?: boolean; /** The entry a link opened the flow at. */ target?: boolean };

export function SacEntry({ item, source, seat, showRoom = false, target = false }: Props) {
  const [whole, setWhole] = useState(false);
  const full = useQuery({ queryKey: sacKeys.item(source, seat, item.item), queryFn: ({ signal }) => fetchItem(source, seat, item.item, signal), enabled: whole });
  const text = whole && full.data !== undefined ? full.data.item.text : item.text;
  const kind = item.type === 'entry' ? (item.entryType ?? '') : item.type;
  return (
    <article
      id={entryAnchor(item.item)}
      className={`sac-entry sac-${item.type} ev-${item.evidence}${target ? ' sac-target' : ''}`}
      data-item={item.item}
      aria-label={`${kind} by ${item.seat}`}
      aria-current={target ? 'true' : undefined}
    >
      <header className="sac-entry-head">
        <Link to={sacSeatPath(source, item.seat)} className="sac-writer">
          {item.seat}
        </Link>
        {item.type === 'entry' && (
          <>
            <span className="sac-type" title={item.typeWord !== item.entryType ? `${item.typeWord}: sac's older word for ${item.entryType}` : undefined}>
              {item.typeWord}
              {item.typeWord !== item.entryType && <span className="sac-legacy"> ({item.entryType})</span>}
            </span>
            <span className="sac-to">→ {item.to.length === 0 ? 'everyone' : item.to.join(', ')}</span>
            <time className="sac-time" title={item.at ?? 'names no instant'}>
              {item.time}
            </time>
          </>
        )}
        {item.type === 'stray-text' && <span className="sac-type">stray text before the file’s first header</span>}
        {item.type === 'tail' && <span className="sac-type">{item.evidence === 'pending' ? 'being written' : 'a write cut short (torn)'}</span>}
        {showRoom && (
          <Link to={sacRoomPath(source, item.room)} className="sac-room-link">
            #{item.room}
          </Link>
        )}
        {item.addressing !== null && <span className={`sac-addressing ${item.addressing}`}>{ADDRESSING[item.addressing]}</span>}
        {item.sacCursor !== null && (
          <span className={`sac-cursor ${item.sacCursor}`} title="what sac’s cursor for this seat marks; not what the session read">
            sac’s cursor: {item.sacCursor}
          </span>
        )}
        {item.sharesTime > 1 && <span className="sac-shares">{item.sharesTime} entries share this time</span>}
        {item.timeGoesBack && <span className="sac-shares">written after a later time in its file</span>}
      </header>
      {item.re !== null && (
        <p className="sac-re">
          re {item.re.time}:{' '}
          {item.re.state === 'unresolved'
            ? 'no entry of this room has that time'
            : item.re.entries.map((named) => (
                <Link key={named.item} to={sacRoomEntryPath(source, item.room, named.item)} className="sac-re-link" title={`the entry of #${item.room} written at ${item.re!.time} by ${named.seat}`}>
                  {named.seat}
                </Link>
              ))}
          {item.re.state === 'ambiguous' && <span> ({item.re.entries.length} entries share this time)</span>}
        </p>
      )}
      {item.evidence !== 'parsed' && item.why !== null && <p className={`sac-why ev-${item.evidence}`}>{item.why}</p>}
      {text !== null && <VerbatimText text={text} />}
      {item.textClipped !== undefined && !whole && (
        <button type="button" onClick={() => setWhole(true)}>
          show all ({item.textClipped.bytes.toLocaleString('en-US')} bytes)
        </button>
      )}
    </article>
  );
}
