import type { SacDegradedReason } from '../../../../shared/wire/sac.ts';
import { DegradedBanner } from '../../conversation/DegradedBanner.tsx';
import { Link } from '../../router/Router.tsx';
import { conversationPath, sourceViewPath } from '../../router/routes.ts';
import { ROOMS } from './sacPaths.ts';

// A seat's or a room's degraded reasons, in the banner every kind's are in (DegradedBanner), in
// the core's words, beside the view's header as the record's and spex's are (inside it, the
// header's own scroll cut it off). A reason that rests on stretches of seat files (a torn write,
// stray text) links to each in its place in its room's flow, and to the seat whose file it is: the
// banner says where, and the place shows what.

export function SacReasons({ source, reasons, of }: { source: string; reasons: readonly SacDegradedReason[]; of: 'seat' | 'room' }) {
  if (reasons.length === 0) return null;
  return (
    <DegradedBanner label="Degraded evidence" heading={of === 'seat' ? "This seat's evidence is degraded: what it shows is incomplete" : "This room's evidence is degraded: what its flow shows is incomplete"}>
      {reasons.map((reason) => (
        <li key={reason.code} data-reason={reason.code}>
          {reason.words}
          {(reason.ranges ?? []).map((range) => (
            <span key={range.item} className="sac-reason-place">
              {' '}
              <Link to={sourceViewPath(source, ROOMS, range.room, range.item)}>
                See it in #{range.room}
              </Link>{' '}
              (written by <Link to={conversationPath(source, range.seat)}>{range.seat}</Link>, bytes {range.start}–{range.end})
            </span>
          ))}
        </li>
      ))}
    </DegradedBanner>
  );
}
