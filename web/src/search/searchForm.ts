import { OUTCOMES, type Outcome } from '../../../shared/record/entry.ts';
import type { TimeZoneSetting } from '../settings/Settings.tsx';

// The search form's state and the URL's query string, both ways. The URL is the truth: a search
// is a view with its own address, like any other.

export type SearchForm = {
  q: string;
  regex: boolean;
  matchCase: boolean;
  side: '' | 'sent' | 'received';
  outcome: '' | Outcome;
  refused: boolean;
  peer: string;
  project: string;
  /** datetime-local values, in the zone the reader chose. */
  from: string;
  to: string;
};

export const EMPTY_FORM: SearchForm = { q: '', regex: false, matchCase: false, side: '', outcome: '', refused: false, peer: '', project: '', from: '', to: '' };

export function formFromQuery(query: string, zone: TimeZoneSetting): SearchForm {
  const params = new URLSearchParams(query);
  const side = params.get('side');
  const outcome = params.get('outcome');
  return {
    q: params.get('q') ?? '',
    regex: params.get('regex') === '1',
    matchCase: params.get('case') === '1',
    side: side === 'sent' || side === 'received' ? side : '',
    outcome: OUTCOMES.find((known) => known === outcome) ?? '',
    refused: params.get('refused') === '1',
    peer: params.get('peer') ?? '',
    project: params.get('project') ?? '',
    from: toLocalInput(params.get('from'), zone),
    to: toLocalInput(params.get('to'), zone),
  };
}

export function queryFromForm(form: SearchForm, zone: TimeZoneSetting): URLSearchParams {
  const params = new URLSearchParams();
  if (form.q !== '') params.set('q', form.q);
  if (form.regex) params.set('regex', '1');
  if (form.matchCase) params.set('case', '1');
  if (form.side !== '') params.set('side', form.side);
  if (form.outcome !== '') params.set('outcome', form.outcome);
  if (form.refused) params.set('refused', '1');
  if (form.peer !== '') params.set('peer', form.peer);
  if (form.project !== '') params.set('project', form.project);
  const from = fromLocalInput(form.from, zone);
  const to = fromLocalInput(form.to, zone);
  if (from !== null) params.set('from', from);
  if (to !== null) params.set('to', to);
  return params;
}

/** A datetime-local value (no zone) read in the reader's zone, as UTC ISO 8601. */
function fromLocalInput(value: string, zone: TimeZoneSetting): string | null {
  if (value === '') return null;
  const date = new Date(zone === 'utc' ? `${value}Z` : value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function toLocalInput(iso: string | null, zone: TimeZoneSetting): string {
  if (iso === null) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  if (zone === 'utc') return date.toISOString().slice(0, 19);
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 19);
}

export function isEmptySearch(params: URLSearchParams): boolean {
  return [...params.keys()].length === 0;
}
