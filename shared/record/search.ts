import { findsPeerWords } from '../peerMatch.ts';
import { timeWindowOf } from '../timeWindow.ts';
import type { EntryFacts } from './entry.ts';
import type { KnownFile } from './knownFile.ts';

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

/** The record's words for what a search does not read (shared/searchNotRead.ts). */
export const RECORD_NOT_READ = {
  damaged: { one: 'damaged file', many: 'damaged files' },
  invalid: { one: 'file that is not a valid entry', many: 'files that are not valid entries' },
  unreadable: { one: 'unreadable file', many: 'unreadable files' },
  folder: { one: 'unreadable session folder', many: 'unreadable session folders' },
} as const;

/** A session as a search of what it could not read knows it: its directory, and every one its entries name. */
type SessionPlace = { cwd: string | null; cwds: readonly string[] };

/**
 * Whether a session the filters may select by its project: one of its directories is the one
 * asked for, or it names none (a session whose entries were never read may be anyone's).
 */
function mayBeInProject(session: SessionPlace, filters: SearchFilters): boolean {
  if (filters.project === undefined || session.cwd === filters.project) return true;
  return session.cwds.length === 0 ? session.cwd === null : session.cwds.includes(filters.project);
}

/**
 * Why a search does not read a file with an entry's name, when it is one the filters may select:
 * null when it is read (or pending: it is read once whole), a stray, removed (its text is gone, and
 * its session says so), or kept out by what is known of it. A file read once is known by its
 * facts (a withheld text never matches a text); one never read, only by its session's directories
 * and the time its name gives: its side, peer and outcome are unknown, so it is counted whatever
 * they ask.
 */
export function whyNotSearched(file: KnownFile, session: SessionPlace, filters: SearchFilters, byText: boolean, inWindow = timeWindowOf(filters)): 'damaged' | 'invalid' | 'unreadable' | null {
  if (file.entryName === null) return null;
  const { evidence } = file;
  if (evidence !== 'damaged' && evidence !== 'invalid' && evidence !== 'unreadable') return null;
  if (file.facts !== null) return file.facts.kind === 'message' && !(byText && file.facts.withheld) && passesFilters(file.facts, session.cwd, filters, inWindow) ? evidence : null;
  if (!mayBeInProject(session, filters)) return null;
  return inWindow === null || inWindow(Date.parse(file.entryName.at)) ? evidence : null;
}

/** Whether a session whose folder could not be read is one the filters may select: by its directories, as they were last read. */
export function isFolderNotSearched(folderUnread: boolean, session: SessionPlace, filters: SearchFilters): boolean {
  return folderUnread && mayBeInProject(session, filters);
}
