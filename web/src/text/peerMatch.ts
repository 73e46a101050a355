// What a peer filter finds, wherever a list is narrowed by peer in the browser (the live view, a
// session's page across the stores): a part of the peer as its store names it, or of what its store
// calls it beside (a spex session's title and branch, given by the server as `peerNamed`), case
// aside; what a person wrote has no peer and is found by the words its row says, "a person".

type Peered = { peer: string | null; fromPerson?: true | undefined; peerNamed?: string | undefined };

export function matchesPeer(item: Peered, wanted: string): boolean {
  if (wanted === '') return true;
  const part = wanted.toLowerCase();
  if (item.fromPerson === true) return 'a person'.includes(part);
  return [item.peer, item.peerNamed].some((words) => words != null && words.toLowerCase().includes(part));
}
