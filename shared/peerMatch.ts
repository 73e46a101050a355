// What a peer filter finds, in every list narrowed by peer (a search on the server, the live view
// and a session's page across the stores in the browser): a part of the peer as its store names
// it, or of what its store calls it beside (a spex session's title and branch), case aside. What a
// person wrote (spex's `from: null`) has no peer and is found by the words its row says.

/** The words a row says for what a person wrote, and a peer filter finds it by. */
export const PERSON_WORDS = 'a person';

/** Whether a peer filter finds what a person wrote: a part of its words, case aside. */
export function findsPerson(wanted: string): boolean {
  return PERSON_WORDS.includes(wanted.toLowerCase());
}

/** Whether a peer filter finds a peer by any of the words its store names it by, case aside. */
export function findsPeerWords(wanted: string, words: readonly (string | null | undefined)[]): boolean {
  const part = wanted.toLowerCase();
  return words.some((one) => one != null && one.toLowerCase().includes(part));
}
