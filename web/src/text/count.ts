// Every count the page writes goes through here, so that "1 session" never reads "1 sessions".

/** The noun that agrees with a count: "session" for 1, "sessions" for any other. */
export function noun(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

/** A count and its noun, the count written as the page writes numbers: "1 session", "1,024 bytes". */
export function countOf(count: number, one: string, many?: string): string {
  return `${writeCount(count)} ${noun(count, one, many)}`;
}

/**
 * A count with its thousands marked ("1,024"), where its words do not change with it ("12 sent").
 * A whole number under a thousand is written as is: toLocaleString asks Intl each time, and the
 * map names 4,000 edges with several counts each.
 */
export function writeCount(count: number): string {
  return Number.isInteger(count) && Math.abs(count) < 1000 ? String(count) : count.toLocaleString('en');
}

