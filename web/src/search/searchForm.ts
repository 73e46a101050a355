import { listKinds } from '../kinds/registry.ts';
import type { TimeZoneSetting } from '../settings/Settings.tsx';
import { readTimeWindow, writeTimeField } from '../time/timeField.ts';

// The search form's state and the URL's query string, both ways. The URL is the truth: a search
// is a view with its own address, like any other. Besides the filters every kind has, each kind
// declares its own (kinds/<kind>/<kind>Kind.tsx: `searchFilters`), by the query parameter the
// server reads; they select none of another kind's items.

export type SearchForm = {
  q: string;
  regex: boolean;
  matchCase: boolean;
  side: '' | 'sent' | 'received';
  peer: string;
  project: string;
  /** One store's id: only it is searched; '' for every store. */
  source: string;
  /**
   * Times as the page writes them (`2026-11-20 09:00:00`), in the zone the reader chose. Not the
   * browser's date input: it writes the browser's locale (11/20/2026, 09:00 AM), not the page's.
   */
  from: string;
  to: string;
  /** The kinds' own filters, by query parameter: '1' for a box checked, a choice, or a text; '' for none. */
  own: Readonly<Record<string, string>>;
};

/** Every kind's own filters. */
function listOwnFilters() {
  return listKinds().flatMap(([, kind]) => kind.searchFilters?.filters ?? []);
}

export function formFromQuery(query: string, zone: TimeZoneSetting): SearchForm {
  const params = new URLSearchParams(query);
  const side = params.get('side');
  const own: Record<string, string> = {};
  for (const filter of listOwnFilters()) {
    const value = params.get(filter.param) ?? '';
    // A value the filter does not offer is no filter, as the server would refuse it.
    own[filter.param] = filter.type === 'check' ? (value === '1' ? '1' : '') : filter.type === 'choice' ? (filter.choices.some(([known]) => known === value) ? value : '') : value;
  }
  return {
    q: params.get('q') ?? '',
    regex: params.get('regex') === '1',
    matchCase: params.get('case') === '1',
    side: side === 'sent' || side === 'received' ? side : '',
    peer: params.get('peer') ?? '',
    project: params.get('project') ?? '',
    source: params.get('source') ?? '',
    from: writeTimeField(params.get('from'), zone),
    to: writeTimeField(params.get('to'), zone),
    own,
  };
}

/** The URL's query for a form; throws TimeFieldError for a time field that is not a time, or a from after its to. */
export function queryFromForm(form: SearchForm, zone: TimeZoneSetting): URLSearchParams {
  const params = new URLSearchParams();
  if (form.q !== '') params.set('q', form.q);
  if (form.regex) params.set('regex', '1');
  if (form.matchCase) params.set('case', '1');
  if (form.side !== '') params.set('side', form.side);
  if (form.peer !== '') params.set('peer', form.peer);
  if (form.project !== '') params.set('project', form.project);
  if (form.source !== '') params.set('source', form.source);
  for (const [param, value] of Object.entries(form.own)) if (value !== '') params.set(param, value);
  const { from, to } = readTimeWindow(form.from, form.to, zone);
  if (from !== null) params.set('from', from);
  if (to !== null) params.set('to', to);
  return params;
}

/** The parameters a search reads: every kind's, each kind's own, and how many hits. */
export function searchParamNames(): string[] {
  return ['q', 'regex', 'case', 'side', 'peer', 'project', 'source', 'from', 'to', 'limit', ...listOwnFilters().map((filter) => filter.param)];
}

/**
 * What of an address the search applies: each parameter it reads with a value it takes (the
 * form's reading of it). A time is the address's to judge (a time that is not one is refused
 * as such); every other name or value is not applied, and the page says so.
 */
export function appliedQuery(query: string, form: SearchForm): URLSearchParams {
  const applied = new URLSearchParams();
  const own = new Set(listOwnFilters().map((filter) => filter.param));
  for (const [name, value] of new URLSearchParams(query)) {
    const taken =
      name === 'q' || name === 'peer' || name === 'project' || name === 'source' || name === 'from' || name === 'to' || name === 'limit'
        ? true
        : name === 'regex' || name === 'case'
          ? value === '1'
          : name === 'side'
            ? value === form.side && value !== ''
            : own.has(name) && form.own[name] === value && value !== '';
    if (taken) applied.append(name, value);
  }
  return applied;
}

export function isEmptySearch(params: URLSearchParams): boolean {
  return [...params.keys()].length === 0;
}
