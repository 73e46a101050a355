import { useState } from 'react';
import type { SessionItemWire } from '../../../../shared/wire/record.ts';
import type { SessionItemProps } from '../kind.ts';
import { RecordRow } from './RecordRow.tsx';

/** A record item on a session's page across the stores, as the record session's page shows it (raw view included). */
export function RecordSessionItem({ item, conversation }: SessionItemProps<SessionItemWire>) {
  const [raw, setRaw] = useState(false);
  return <RecordRow sessionId={conversation} item={item} raw={raw} onToggleRaw={() => setRaw((old) => !old)} />;
}
