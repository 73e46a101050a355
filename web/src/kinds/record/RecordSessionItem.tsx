import type { SessionItemWire } from '../../../../shared/wire/record.ts';
import type { SessionItemProps } from '../kind.ts';
import { RecordRow } from './RecordRow.tsx';

/** A record item on a session's page across the stores, as the record session's page shows it (raw view included: the page keeps which, for its `r`). */
export function RecordSessionItem({ item, conversation, raw, onToggleRaw }: SessionItemProps<SessionItemWire>) {
  return <RecordRow sessionId={conversation} item={item} raw={raw} onToggleRaw={onToggleRaw} />;
}
