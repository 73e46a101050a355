import { findsPeerWords } from '../peerMatch.ts';
import { timeWindowOf } from '../timeWindow.ts';
import type { EntryFacts } from './entry.ts';

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

/**
 * Whether a message entry passes the filters; `project` is its session's working directory.
 * `inWindow`: the filters' window of time, read once by a caller that asks for many entries.
 */
export function passesFilters(facts: MessageFacts, project: string | null, filters: SearchFilters, inWindow = timeWindowOf(filters)): boolean {
  if (filters.side !== undefined && facts.side !== filters.side) return false;
  if (filters.outcome !== undefined && facts.outcome !== filters.outcome) return false;
  if (filters.refused === true && !(facts.side === 'sent' && facts.isQueued === false)) return false;
  if (filters.project !== undefined && project !== filters.project && facts.cwd !== filters.project) return false;
  // The peer as the host gave it, or the session id the writer resolved: the rule every peer filter follows.
  if (filters.peer !== undefined && filters.peer !== '' && !findsPeerWords(filters.peer, [facts.peerAs, facts.peerSessionId])) return false;
  // Times compare as instants, as every kind's search compares them (shared/timeWindow.ts).
  return inWindow === null || inWindow(Date.parse(facts.at));
}
