import type { EntryFacts } from './entry.ts';
import { mergeSorted, type Merge } from '../mergeSorted.ts';

// Search over the record: which message entries a query selects. Pure: the shell reads texts
// from disk only for entries that pass the filters on what the index already holds.

export type SearchFilters = {
  side?: 'sent' | 'received' | undefined;
  outcome?: string | undefined;
  refused?: boolean | undefined;
  peer?: string | undefined;
  project?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
};

export type MessageFacts = Extract<EntryFacts, { kind: 'message' }>;

/** Whether a message entry passes the filters; `project` is its session's working directory. */
export function passesFilters(facts: MessageFacts, project: string | null, filters: SearchFilters): boolean {
  if (filters.side !== undefined && facts.side !== filters.side) return false;
  if (filters.outcome !== undefined && facts.outcome !== filters.outcome) return false;
  if (filters.refused === true && !(facts.side === 'sent' && facts.isQueued === false)) return false;
  if (filters.project !== undefined && project !== filters.project && facts.cwd !== filters.project) return false;
  if (filters.peer !== undefined && filters.peer !== '') {
    const needle = filters.peer.toLowerCase();
    const as = facts.peerAs?.toLowerCase() ?? '';
    const id = facts.peerSessionId?.toLowerCase() ?? '';
    if (!as.includes(needle) && !id.includes(needle)) return false;
  }
  // Times compare as instants: `at` is ISO 8601 UTC to the millisecond (record-spec: timeFormat).
  if (filters.from !== undefined && Date.parse(facts.at) < Date.parse(filters.from)) return false;
  if (filters.to !== undefined && Date.parse(facts.at) > Date.parse(filters.to)) return false;
  return true;
}

/**
 * A session's candidates, which come in the session's order, newest first, as a stable sort by
 * `at` would give them. They almost always come in time order already: reversed, with each run
 * of equal times put back in its order, they are sorted in linear time.
 */
export function orderNewestFirst<T>(list: readonly T[], atOf: (item: T) => string): T[] {
  for (let i = 1; i < list.length; i++) {
    if (atOf(list[i - 1]!) > atOf(list[i]!)) return [...list].sort((a, b) => compareNewestFirst(atOf(a), atOf(b)));
  }
  const ordered: T[] = [];
  let end = list.length;
  while (end > 0) {
    let start = end - 1;
    const at = atOf(list[start]!);
    while (start > 0 && atOf(list[start - 1]!) === at) start--;
    for (let i = start; i < end; i++) ordered.push(list[i]!);
    end = start;
  }
  return ordered;
}

function compareNewestFirst(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

/**
 * Merges lists that are each newest first into one, newest first, a few items at a time: a
 * search that finds its hits among the newest entries orders no more than it reads. Equal times
 * keep the order of the lists, so the whole is what a stable sort of the lists one after the
 * other would give.
 */
export function mergeNewestFirst<T>(lists: readonly (readonly T[])[], atOf: (item: T) => string): Merge<T> {
  return mergeSorted(lists, (a, b) => compareNewestFirst(atOf(a), atOf(b)) < 0);
}
