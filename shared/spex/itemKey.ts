// An item's name in a spex session's conversation: the key a page, a link, the live view, a
// search hit, the map and an export give it, made here only. A line of the session's own log is
// `line-<n>`; a message it sent, which stands in its receiver's log (sentBy.ts), is
// `sent-<n>-<receiver>`: the receiver's line, named from the sender's side.

/** A line of the session's own log. */
export function ownLineKey(line: number): string {
  return `line-${line}`;
}

/** A message the session sent: line `line` of `receiver`'s log. */
export function sentLineKey(line: number, receiver: string): string {
  return `sent-${line}-${receiver}`;
}

/** Where a line is in the home: its log's session and its key there (`<session>/line-<n>`). */
export function lineAddress(owner: string, line: number): string {
  return `${owner}/${ownLineKey(line)}`;
}
