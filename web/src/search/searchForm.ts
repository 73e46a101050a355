import { OUTCOMES, type Outcome } from '../../../shared/record/entry.ts';
import type { TimeZoneSetting } from '../settings/Settings.tsx';

// The search form's state and the URL's query string, both ways. The URL is the truth: a search
// is a view with its own address, like any other, and its query is the API's (`/api/search`): a
// kind's own filters are named `<kind>.<name>` (shared/wire/search.ts).

export type SearchForm = {
  q: string;
  regex: boolean;
  matchCase: boolean;
  side: '' | 'sent' | 'received';
  outcome: '' | Outcome;
  refused: boolean;
  peer: string;
  project: string;
  /**
   * Times as the page writes them (`2026-11-20 09:00:00`), in the zone the reader chose. Not the
   * browser's date input: it writes the browser's locale (11/20/2026, 09:00 AM), not the page's.
   */
  from: string;
  to: string;
  /** spex's own filter: messages from a person (`from: null`); it selects no record or sac entry. */
  person: boolean;
  /** set-agent-comm's own filters: they select no record entry and no spex line. */
  type: '' | SacEntryType;
  room: string;
  writer: string;
};

/** The entry types set-agent-comm writes (an older Hungarian word counts as the type it stands for). */
export const SAC_ENTRY_TYPES = ['QUESTION', 'ANSWER', 'FACT', 'REQUEST'] as const;
type SacEntryType = (typeof SAC_ENTRY_TYPES)[number];


export function formFromQuery(query: string, zone: TimeZoneSetting): SearchForm {
  const params = new URLSearchParams(query);
  const side = params.get('side');
  const outcome = params.get('record.outcome');
  const type = params.get('sac.type');
  return {
    q: params.get('q') ?? '',
    regex: params.get('regex') === '1',
    matchCase: params.get('case') === '1',
    side: side === 'sent' || side === 'received' ? side : '',
    outcome: OUTCOMES.find((known) => known === outcome) ?? '',
    refused: params.get('record.refused') === '1',
    peer: params.get('peer') ?? '',
    project: params.get('project') ?? '',
    from: toLocalInput(params.get('from'), zone),
    to: toLocalInput(params.get('to'), zone),
    person: params.get('spex.person') === '1',
    type: SAC_ENTRY_TYPES.find((known) => known === type) ?? '',
    room: params.get('sac.room') ?? '',
    writer: params.get('sac.writer') ?? '',
  };
}

/** A time field the reader wrote that is not a time: said, never sent as no filter. */
export class TimeFieldError extends Error {}

/** The URL's query for a form; throws TimeFieldError for a time field that is not a time. */
export function queryFromForm(form: SearchForm, zone: TimeZoneSetting): URLSearchParams {
  const params = new URLSearchParams();
  if (form.q !== '') params.set('q', form.q);
  if (form.regex) params.set('regex', '1');
  if (form.matchCase) params.set('case', '1');
  if (form.side !== '') params.set('side', form.side);
  if (form.outcome !== '') params.set('record.outcome', form.outcome);
  if (form.refused) params.set('record.refused', '1');
  if (form.peer !== '') params.set('peer', form.peer);
  if (form.project !== '') params.set('project', form.project);
  if (form.person) params.set('spex.person', '1');
  if (form.type !== '') params.set('sac.type', form.type);
  if (form.room !== '') params.set('sac.room', form.room);
  if (form.writer !== '') params.set('sac.writer', form.writer);
  const from = readTimeField(form.from, zone);
  const to = readTimeField(form.to, zone);
  if (from !== null) params.set('from', from);
  if (to !== null) params.set('to', to);
  return params;
}

const TIME_FIELD = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

/** A time as the page writes it, read in the reader's zone, as UTC ISO 8601; null when empty. */
function readTimeField(value: string, zone: TimeZoneSetting): string | null {
  // A time copied from the page in UTC ends in its zone word.
  const trimmed = zone === 'utc' ? value.trim().replace(/ ?(UTC|Z)$/i, '') : value.trim();
  if (trimmed === '') return null;
  const match = TIME_FIELD.exec(trimmed);
  const parts = match === null ? null : match.slice(1).map((part, i) => (part === undefined ? 0 : i === 6 ? Number(part.padEnd(3, '0')) : Number(part)));
  if (parts !== null) {
    const [year, month, day, hour, minute, second, ms] = parts as [number, number, number, number, number, number, number];
    const date = zone === 'utc' ? new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms)) : new Date(year, month - 1, day, hour, minute, second, ms);
    // 2026-02-30 or 25:00 would roll over into another day: not a time that was written.
    const back = zone === 'utc' ? [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes()] : [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes()];
    if (back.every((n, i) => n === parts[i]) && second < 60) return date.toISOString();
  }
  throw new TimeFieldError(`${value.trim()} is not a time: write it as the page does, e.g. 2026-11-20 09:00:00 (year-month-day, 24-hour clock; seconds may be left out)`);
}

/** A time from the URL, written as the page writes times, in the reader's zone. */
function toLocalInput(iso: string | null, zone: TimeZoneSetting): string {
  if (iso === null) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const utc = zone === 'utc';
  const day = utc ? `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = utc ? `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}` : `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  const ms = utc ? date.getUTCMilliseconds() : date.getMilliseconds();
  return `${day} ${time}${ms === 0 ? '' : `.${pad(ms, 3)}`}`;
}

export function isEmptySearch(params: URLSearchParams): boolean {
  return [...params.keys()].length === 0;
}
