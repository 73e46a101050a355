// Every count the page writes goes through here, so that "1 session" never reads "1 sessions".

/** The noun that agrees with a count: "session" for 1, "sessions" for any other. */
export function noun(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

/** A count and its noun, the count written as the page writes numbers: "1 session", "1,024 bytes". */
export function countOf(count: number, one: string, many?: string): string {
  return `${count.toLocaleString('en')} ${noun(count, one, many)}`;
}
