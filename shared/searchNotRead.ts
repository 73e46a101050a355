// What a store's search passed over because it could not read it: a damaged file, a torn line, a
// write cut short. A search matches texts read as items; these have none it can trust, so it does
// not search them, and it says so beside its results, never "no matches" over them. One tally and
// one sentence for every kind; each kind says what it counts in its own words (its parts).

/** What a store's search did not read, beside its results: how many, and what, in words. */
export type NotRead = {
  /** How many items (files, lines, entries, segments) it did not read. */
  items: number;
  /** What they are and why that matters, in the store's words: a sentence without its full stop. */
  why: string;
};

/** One kind of thing a store's search did not read, in its store's words, singular and plural. */
type NotReadPart = { one: string; many: string };

/**
 * Counts what a search passes over, by part. Pending items are not counted by any kind: one is read
 * as soon as it is whole, and the search is asked again as entries are written.
 */
export class NotReadTally<Part extends string> {
  readonly #parts: Readonly<Record<Part, NotReadPart>>;
  readonly #counts = new Map<Part, number>();

  constructor(parts: Readonly<Record<Part, NotReadPart>>) {
    this.#parts = parts;
  }

  add(part: Part, count = 1): void {
    if (count > 0) this.#counts.set(part, (this.#counts.get(part) ?? 0) + count);
  }

  /** The tally in words, its parts in the order the kind lists them; null when it read everything. */
  say(): NotRead | null {
    const said: string[] = [];
    let items = 0;
    for (const part of Object.keys(this.#parts) as Part[]) {
      const count = this.#counts.get(part) ?? 0;
      if (count === 0) continue;
      const { one, many } = this.#parts[part];
      said.push(`${count.toLocaleString('en')} ${count === 1 ? one : many}`);
      items += count;
    }
    if (items === 0) return null;
    const listed = said.length === 1 ? said[0]! : `${said.slice(0, -1).join(', ')} and ${said.at(-1)!}`;
    return { items, why: `${listed} ${items === 1 ? 'was' : 'were'} not searched, and may hold ${items === 1 ? 'a match' : 'matches'}` };
  }
}
