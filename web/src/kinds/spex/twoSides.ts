import type { SpexSender } from '../../../../shared/wire/spex.ts';

/**
 * Whether a line of `owner`'s log is one event seen from two sides: its sender is another session
 * of the home, whose Sent holds the same line (a line a session sent to itself has no other side).
 * The rule the server's live items follow (spexItems.ts), for a session's page and a search's hit.
 */
export function seenFromTwoSides(from: SpexSender, owner: string): boolean {
  return from.by === 'session' && from.sessionId !== owner;
}
