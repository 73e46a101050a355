import type { SessionsResponse } from '../../../shared/wire/conversations.ts';
import { recordSourceOf } from '../sessions/useSessions.ts';
import { useLive } from './Live.tsx';
import { countOf } from '../text/count.ts';

// What the reader must know before trusting the screen: the server is gone, the record is
// missing or unreadable, or it is still being read for the first time.

export function StatusBanners({ sessions }: { sessions: SessionsResponse | undefined }) {
  const live = useLive();
  const listed = sessions === undefined ? null : recordSourceOf(sessions);
  const record = live.source ?? listed;
  const indexing = record?.indexing ?? null;
  const root = listed?.root ?? live.source?.root ?? '';
  return (
    <>
      {live.connection === 'lost' && (
        <div className="banner banner-lost" role="alert">
          Lost the connection to the rec-dashboard server. Reconnecting…; what is shown may be out of date, and everything is fetched again when it is back.
        </div>
      )}
      {record?.state === 'missing' && (
        <div className="banner banner-warn" role="status">
          The record directory {root} does not exist (yet). Waiting for it{record.why !== null ? `: ${record.why}` : ''}.
        </div>
      )}
      {record?.state === 'unreadable' && (
        <div className="banner banner-lost" role="alert">
          The record directory {root} cannot be read{record.why !== null ? `: ${record.why}` : ''}. Nothing below can be trusted as complete.
        </div>
      )}
      {indexing !== null && indexing.state === 'scanning' && (
        <div className="banner banner-info" role="status">
          Reading the record for the first time: {countOf(indexing.files, 'file')} so far. Sessions appear as they are read.
          <progress aria-label="Indexing progress" />
        </div>
      )}
    </>
  );
}
