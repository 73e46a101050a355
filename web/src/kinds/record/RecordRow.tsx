import type { SessionItemWire } from '../../../../shared/wire/record.ts';
import type { Column } from '../../conversation/useConversationList.ts';
import { CompactMessageEntry } from './CompactMessageEntry.tsx';
import { MessageEntry } from './MessageEntry.tsx';
import { ChainRow, EvidenceRow, GapRow, StartRow, StrayRow, UnknownKindRow } from './RecordRows.tsx';

// One item of the session's order in its column: sent entries on the left, received on the right,
// everything else across both. One item per row keeps the order exact.

/** An entry's file that holds (or held) an entry: readable as an entry, or its evidence only. */
function isReadable(item: Extract<SessionItemWire, { type: 'file' }>): boolean {
  return (item.evidence === 'parsed' || item.evidence === 'changed') && item.entry !== null;
}

export function columnOf(item: SessionItemWire): Column {
  if (item.type !== 'file') return 'both';
  if (!isReadable(item)) {
    // An entry removed, or whose file no longer holds one, keeps its column: the reader sees
    // which side lost an entry.
    return (item.evidence === 'removed' || item.evidence === 'changed') && item.side !== null ? item.side : 'both';
  }
  return item.facts?.kind === 'message' ? item.facts.side : 'both';
}

/** `compact`: the compact density's one line, until `onToggleOpen` opens it; absent in the full density. */
type Props = { sessionId: string; item: SessionItemWire; raw: boolean; onToggleRaw(): void; compact?: boolean; onToggleOpen?(): void };

export function RecordRow({ sessionId, item, raw, onToggleRaw, compact = false, onToggleOpen }: Props) {
  if (item.type === 'gap') return <GapRow gap={item} />;
  if (item.type === 'stray') return <StrayRow sessionId={sessionId} stray={item} />;
  const entry = item.entry;
  if (!isReadable(item) || entry === null) return <EvidenceRow sessionId={sessionId} item={item} />;
  const rawProps = { raw, onToggleRaw };
  const facts = item.facts;
  switch (facts?.kind) {
    case 'message':
      return compact && onToggleOpen !== undefined ? (
        <CompactMessageEntry sessionId={sessionId} item={item} entry={entry} facts={facts} onOpen={onToggleOpen} />
      ) : (
        <MessageEntry sessionId={sessionId} item={item} entry={entry} facts={facts} {...rawProps} {...(onToggleOpen !== undefined ? { onClose: onToggleOpen } : {})} />
      );
    case 'start':
      return <StartRow sessionId={sessionId} item={item} entry={entry} {...rawProps} />;
    case 'chain':
      return <ChainRow sessionId={sessionId} item={item} entry={entry} {...rawProps} />;
    default:
      return <UnknownKindRow sessionId={sessionId} item={item} entry={entry} />;
  }
}
