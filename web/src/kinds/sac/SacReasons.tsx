import type { SacDegradedReason } from '../../../../shared/wire/sac.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath, sourceViewPath } from '../../router/routes.ts';
import { ROOMS } from './sacPaths.ts';

// A view's degraded reasons, as a banner in the core's words, beside the view's header as the
// record's and spex's are (inside it, the header's own scroll cut it off). A reason that rests on
// stretches of seat files (a torn write, stray text) links to each in its place in its room's
// flow, and to the seat whose file it is: the banner says where, and the place shows what.

export function SacReasons({ source, reasons }: { source: string; reasons: readonly SacDegradedReason[] }) {
  if (reasons.length === 0) return null;
  return (
    <section className="banner banner-degraded sac-reasons" role="region" aria-label="Degraded evidence">
      {reasons.map((reason) => (
        <p key={reason.code} className="notice warn" data-reason={reason.code}>
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
        </p>
      ))}
    </section>
  );
}
