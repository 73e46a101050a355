// Seat names (sac-channels-format: Layout): `<agent>#<prefix of the session id>`, a plain
// `<agent>`, or `<agent>@<host>#<id>` for a remote seat. The id in a name is a prefix of the
// session id at most: it names a file and joins nothing (sources: Identity).

export type SeatName = {
  seat: string;
  /**
   * The name before `#<id>`, as the registry keys the agent: `web-app`, or `web-app@macmini` for a
   * remote seat. sac's `seatBase`: the last `#` followed by at least one character ends it.
   */
  base: string;
  /** The agent (the project folder's name unless set otherwise): `base` without `@<host>`. */
  agent: string;
  host: string | null;
  /** The id after `#`: 8, 12 or 16 characters of the session id, or all of it; null for a plain seat. */
  id: string | null;
};

/** Reads a seat name. Every string is some seat name: a plain one at least. */
export function parseSeatName(seat: string): SeatName {
  const hash = /#([^#]+)$/.exec(seat);
  const base = hash === null ? seat : seat.slice(0, hash.index);
  const at = base.indexOf('@');
  return {
    seat,
    base,
    agent: at === -1 ? base : base.slice(0, at),
    host: at === -1 ? null : base.slice(at + 1),
    id: hash === null ? null : hash[1]!,
  };
}

/**
 * Whom an entry is addressed to, seen from one seat (sac's `isForMe` and `addressForms`): the seat
 * itself by its name, its agent (by `base` or by the agent name, so a project is reached on every
 * machine), everyone (no `to`), or someone else. Addressing decides who is woken, never who may read.
 */
export type Addressing = 'to-seat' | 'to-agent' | 'to-everyone' | 'to-others';

export function classifyAddressing(to: readonly string[], seat: string, parsed?: SeatName): Addressing {
  if (to.length === 0) return 'to-everyone';
  if (to.includes(seat)) return 'to-seat';
  const name = parsed ?? parseSeatName(seat);
  if (to.includes(name.base) || to.includes(name.agent)) return 'to-agent';
  return 'to-others';
}
