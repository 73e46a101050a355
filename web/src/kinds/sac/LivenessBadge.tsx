import type { SacSeatSummary } from '../../../../shared/wire/sac.ts';

// A seat's liveness as one badge wherever a seat is named (the sidebar, a room's roster, the rooms
// list): sac's word, labelled derived, and the core's reason on hover.

export function LivenessBadge({ liveness }: { liveness: SacSeatSummary['liveness'] }) {
  return (
    <span className={`badge sac-live-${liveness.word}`} title={`Derived as set-agent-comm derives it: ${liveness.why}`}>
      {liveness.word === 'unknown' ? '? unknown' : liveness.word} (derived)
    </span>
  );
}
