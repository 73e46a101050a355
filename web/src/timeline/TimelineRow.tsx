import type { SessionItemWire } from '../../../shared/wire/record.ts';
import { CompactMessageEntry } from './CompactMessageEntry.tsx';
import { MessageEntry } from './MessageEntry.tsx';
import { ChainRow, EvidenceRow, GapRow, StartRow, StrayRow, UnknownKindRow } from './RecordRows.tsx';

// One item of the session's order, placed in its column: sent entries on the left, received on
// the right, everything else across both. One item per row keeps the order exact.

/** `compact`: the compact density's one line, until `onToggleOpen` opens it; absent in the full density. */
type Props = { sessionId: string; item: SessionItemWire | undefined; raw: boolean; onToggleRaw(): void; compact?: boolean; onToggleOpen?(): void };

export function TimelineRow({ sessionId, item, raw, onToggleRaw, compact = false, onToggleOpen }: Props) {
  if (item === undefined) return <div className="cell cell-span loading-row">loading…</div>;
  switch (item.type) {
    case 'gap':
      return (
        <div className="cell cell-span">
          <GapRow gap={item} />
        </div>
      );
    case 'stray':
      return (
        <div className="cell cell-span">
          <StrayRow sessionId={sessionId} stray={item} />
        </div>
      );
    case 'file':
      break;
  }
  const entry = item.entry;
  const readable = (item.evidence === 'parsed' || item.evidence === 'changed') && entry !== null;
  if (!readable) {
    // An entry removed, or whose file no longer holds one, keeps its column: the reader sees
    // which side lost an entry.
    const column = (item.evidence === 'removed' || item.evidence === 'changed') && item.side !== null ? `cell-${item.side}` : 'cell-span';
    return (
      <div className={`cell ${column}`}>
        <EvidenceRow sessionId={sessionId} item={item} />
      </div>
    );
  }
  const rawProps = { raw, onToggleRaw };
  const facts = item.facts;
  switch (facts?.kind) {
    case 'message':
      return (
        <div className={`cell cell-${facts.side}`}>
          {compact && onToggleOpen !== undefined ? (
            <CompactMessageEntry sessionId={sessionId} item={item} entry={entry} facts={facts} onOpen={onToggleOpen} />
          ) : (
            <MessageEntry sessionId={sessionId} item={item} entry={entry} facts={facts} {...rawProps} {...(onToggleOpen !== undefined ? { onClose: onToggleOpen } : {})} />
          )}
        </div>
      );
    case 'start':
      return (
        <div className="cell cell-span">
          <StartRow sessionId={sessionId} item={item} entry={entry} {...rawProps} />
        </div>
      );
    case 'chain':
      return (
        <div className="cell cell-span">
          <ChainRow sessionId={sessionId} item={item} entry={entry} {...rawProps} />
        </div>
      );
    default:
      return (
        <div className="cell cell-span">
          <UnknownKindRow sessionId={sessionId} item={item} entry={entry} />
        </div>
      );
  }
}
