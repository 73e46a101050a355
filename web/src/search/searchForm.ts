import { OUTCOMES, type Outcome } from '../../../shared/record/entry.ts';
import type { TimeZoneSetting } from '../settings/Settings.tsx';
import { readTimeField, writeTimeField } from '../time/timeField.ts';

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
  const outcome = params.get('outcome');
  const type = params.get('type');
  return {
    q: params.get('q') ?? '',
    regex: params.get('regex') === '1',
    matchCase: params.get('case') === '1',
    side: side === 'sent' || side === 'received' ? side : '',
    outcome: OUTCOMES.find((known) => known === outcome) ?? '',
    refused: params.get('refused') === '1',
    peer: params.get('peer') ?? '',
    project: params.get('project') ?? '',
    from: writeTimeField(params.get('from'), zone),
    to: writeTimeField(params.get('to'), zone),
    person: params.get('person') === '1',
    type: SAC_ENTRY_TYPES.find((known) => known === type) ?? '',
    room: params.get('room') ?? '',
    writer: params.get('writer') ?? '',
  };
}

/** The URL's query for a form; throws TimeFieldError for a time field that is not a time. */
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
  if (form.person) params.set('person', '1');
  if (form.type !== '') params.set('type', form.type);
  if (form.room !== '') params.set('room', form.room);
  if (form.writer !== '') params.set('writer', form.writer);
  const from = readTimeField(form.from, zone);
  const to = readTimeField(form.to, zone);
  if (from !== null) params.set('from', from);
  if (to !== null) params.set('to', to);
  return params;
}

export function isEmptySearch(params: URLSearchParams): boolean {
  return [...params.keys()].length === 0;
}
