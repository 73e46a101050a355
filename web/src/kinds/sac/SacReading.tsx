import type { SacReading as Reading } from '../../../../shared/wire/sac.ts';

// How far sac's cursor has a seat read, as the server words it: on a room's roster and in the
// list of seats alike. A gone seat is not behind: its backlog is said apart, never as unread.

const TITLE = 'what set-agent-comm’s cursor for this seat marks read; not what the session read';

/** `toOthers`: entries its rooms hold for other seats, which sac's cursor counts as any other while the seat's Received leaves them out: where there are any, the count says its rule, as the seat's page does. */
export function SacReading({ reading, brief = false, toOthers = 0 }: { reading: Reading; brief?: boolean; toOthers?: number }) {
  switch (reading.state) {
    case 'caught-up':
      return <span className="sac-cursor" title={TITLE}>caught up by sac’s cursor</span>;
    case 'behind':
      return (
        <span className="sac-cursor unread" title={TITLE}>
          {reading.unread.toLocaleString('en')} unread by sac’s cursor{toOthers > 0 && ', which counts entries to others too'}
        </span>
      );
    case 'gone':
      return (
        <span className="sac-cursor" title="A closed session is not behind, it is gone (sac admin’s rule)">
          {brief
            ? `gone: backlog of ${reading.backlog.toLocaleString('en')} not counted as unread`
            : `its session is gone: its backlog is not counted as unread (${reading.backlog.toLocaleString('en')} past its cursor)`}
        </span>
      );
    case 'unknown':
      return <span className="sac-cursor" title={reading.why}>sac’s cursor: unknown</span>;
  }
}
