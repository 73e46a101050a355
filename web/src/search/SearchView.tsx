import { SessionLink } from '../session/SessionLink.tsx';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { MOST_SEARCH_HITS } from '../../../shared/wire/common.ts';
import { searchResponseSchema, type SearchResponse, type StoppedEarly } from '../../../shared/wire/search.ts';
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { useKeys } from '../keyboard/useKeys.ts';
import { getJson, isRefusal } from '../api/client.ts';
import { apiUrls } from '../api/urls.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { DownloadLinks } from '../export/DownloadLinks.tsx';
import { useRouter } from '../router/Router.tsx';
import { searchPath } from '../router/routes.ts';
import { useConversations } from '../sessions/useConversations.ts';
import { ProjectSelect } from '../sessions/ProjectSelect.tsx';
import { kindNamed, kindOf, listKinds } from '../kinds/registry.ts';
import { SourceBadge } from '../kinds/SourceBadge.tsx';
import { StoreSelect } from '../kinds/StoreSelect.tsx';
import { OwnFilters } from './OwnFilters.tsx';
import { useSettings, type TimeZoneSetting } from '../settings/Settings.tsx';
import { FoldedFilters } from '../conversation/FoldedFilters.tsx';
import { SideSelect } from '../conversation/SideSelect.tsx';
import { appliedQuery, formFromQuery, isEmptySearch, queryFromForm, searchParamNames, type SearchForm } from './searchForm.ts';
import { ParamsNotApplied } from '../conversation/ParamsNotApplied.tsx';
import { readTimeWindow, TimeFieldError, writeTimeField } from '../time/timeField.ts';
import { countOf, writeCount } from '../text/count.ts';

export default function SearchView({ query }: { query: string }) {
  const { timeZone } = useSettings();
  const { navigate } = useRouter();
  const { data: sessions } = useConversations();
  const [form, setForm] = useState<SearchForm>(() => formFromQuery(query, timeZone));
  const [formError, setFormError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => setForm(formFromQuery(query, timeZone)), [query, timeZone]);
  // The box has the focus on a search to write (opened, or emptied by `/`); on results (a link to
  // a search), the keys are the results' (j, k, Enter).
  const emptyAddress = isEmptySearch(new URLSearchParams(query));
  useEffect(() => {
    if (emptyAddress) inputRef.current?.focus();
  }, [emptyAddress]);

  // An address's time is read as the form reads it, and the server is asked what its field
  // shows (`?from=2026-11-20` is that day's first instant); a time that is not one
  // (`?from=yesterday`) is refused in the page's words, as if typed, and nothing is asked.
  // Only what the page applies is asked: a name or value it does not take is said above the
  // results (SearchNotes), not sent for the server to refuse (`side=both`).
  const applied = appliedQuery(query, formFromQuery(query, timeZone)).toString();
  const asked = readAddressTimes(applied, timeZone);
  const params = 'params' in asked ? asked.params : new URLSearchParams(applied);
  const addressError = 'error' in asked ? asked.error : null;
  const results = useQuery({
    queryKey: queryKeys.search(params.toString()),
    enabled: !isEmptySearch(params) && addressError === null,
    queryFn: ({ signal }) => getJson(apiUrls.search(params), searchResponseSchema, { signal }),
  });

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    try {
      const next = queryFromForm(form, timeZone);
      // The number of hits asked for stays with the next search (Show up to 1,000).
      const limit = params.get('limit');
      if (limit !== null) next.set('limit', limit);
      navigate(searchPath(next));
      setFormError(null);
    } catch (error) {
      if (!(error instanceof TimeFieldError)) throw error;
      setFormError(error.message);
    }
  };
  const set = <K extends keyof SearchForm>(key: K, value: SearchForm[K]) => setForm((old) => ({ ...old, [key]: value }));
  const zoneWord = timeZone === 'utc' ? 'UTC' : 'local time';
  const setOwn = (param: string, value: string) => setForm((old) => ({ ...old, own: { ...old.own, [param]: value } }));

  return (
    <main className="view search-view" aria-label="Search">
      <h1>Search all sessions</h1>
      <form className="search-form" onSubmit={submit} role="search">
        <div className="search-row">
          <input ref={inputRef} type="search" aria-label="Text to find" placeholder={form.regex ? 'regular expression' : 'text'} value={form.q} onChange={(e) => set('q', e.target.value)} />
          <label className="check">
            <input type="checkbox" checked={form.regex} onChange={(e) => set('regex', e.target.checked)} /> regex
          </label>
          <label className="check">
            <input type="checkbox" checked={form.matchCase} onChange={(e) => set('matchCase', e.target.checked)} /> match case
          </label>
          <button type="submit">Search</button>
        </div>
        <FoldedFilters applied={[...new URLSearchParams(applied).keys()].filter((name) => !SEARCH_TEXT_PARAMS.has(name)).length}>
          <div className="search-row">
            <SideSelect value={form.side === '' ? null : form.side} onChange={(side) => set('side', side ?? '')} any="either" />
            <label>
              peer <input type="text" value={form.peer} onChange={(e) => set('peer', e.target.value)} placeholder="a part of a peer’s name, or “a person”" />
            </label>
            <ProjectSelect value={form.project} onChange={(value) => set('project', value)} projects={sessions?.projects.map((project) => project.cwd) ?? []} any="all" />
            {(sessions?.sources.length ?? 0) > 1 || form.source !== '' ? (
              <StoreSelect value={form.source} onChange={(value) => set('source', value)} sources={sessions?.sources ?? []} any="every store" />
            ) : null}
            <label>
              from ({zoneWord}) <input type="text" className="time-field" placeholder="YYYY-MM-DD HH:MM:SS" value={form.from} onChange={(e) => set('from', e.target.value)} />
            </label>
            <label>
              to ({zoneWord}) <input type="text" className="time-field" placeholder="YYYY-MM-DD HH:MM:SS" value={form.to} onChange={(e) => set('to', e.target.value)} />
            </label>
          </div>
          {listKinds().map(([name, kind]) => {
            const own = kind.searchFilters;
            // A kind's filters are offered where a store of it is read, or where the address sets one.
            const shown = own !== undefined && ((sessions?.sources.some((source) => source.kind === name) ?? false) || own.filters.some((filter) => (form.own[filter.param] ?? '') !== ''));
            return shown ? <OwnFilters key={name} words={own.words} filters={own.filters} values={form.own} onChange={setOwn} /> : null;
          })}
        </FoldedFilters>
        {formError !== null && (
          <p className="notice error" role="alert">
            {formError} Not searched{isEmptySearch(params) || addressError !== null ? '.' : ': the results below are those of the search before.'}
          </p>
        )}
        {formError === null && addressError !== null && (
          <p className="notice error" role="alert">
            {addressError} Not searched.
          </p>
        )}
      </form>
      {/* What the address asked that the search does not apply (a name it does not read, a value it
          does not take), as a conversation's page says it. A store the search kept out, and why,
          is said by the server with the results. Said for an address that asks nothing else too
          (`?outcome=rejected`): "give a text" alone would hide that its filter was not read. */}
      {!emptyAddress && addressError === null && <ParamsNotApplied query={query} reads={searchParamNames()} applied={applied} />}
      {/* A search the server refused (a pattern it cannot run) has no results to download. */}
      {!isEmptySearch(params) && addressError === null && !isRefusal(results.error) && <DownloadLinks path={apiUrls.searchExport()} query={params} what="these results" of="hits" />}
      {/* A form refused is not an empty one: "give a text or a filter" would deny what the reader gave. */}
      {(formError === null || !isEmptySearch(params)) && addressError === null && <SearchResults results={results} empty={isEmptySearch(params)} typed={form.q !== ''} params={params} />}
    </main>
  );
}

function withLimit(params: URLSearchParams, limit: number): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set('limit', String(limit));
  return next;
}

/**
 * The address's query with its times as the form reads them (the field's words shown, the
 * instant they name asked); or the page's words for a time that is not one.
 */
function readAddressTimes(query: string, zone: TimeZoneSetting): { params: URLSearchParams } | { error: string } {
  const params = new URLSearchParams(query);
  try {
    const window = readTimeWindow(writeTimeField(params.get('from'), zone), writeTimeField(params.get('to'), zone), zone);
    for (const name of ['from', 'to'] as const) {
      const instant = window[name];
      if (instant === null) params.delete(name);
      else params.set(name, instant);
    }
    return { params };
  } catch (error) {
    if (error instanceof TimeFieldError) return { error: error.message };
    throw error;
  }
}

/** A search out of time is shown as one, never as "no matches": the texts it did not reach may hold more. */
function StoppedEarlyNotice({ stoppedEarly: { searched, candidates, afterMs } }: { stoppedEarly: StoppedEarly }) {
  return (
    <p className="banner-degraded search-stopped-early">
      Searched {searched.toLocaleString('en-US')} of {countOf(candidates, 'text')}; stopped after {(afterMs / 1000).toFixed(1)} s — narrow the search (a project, a time
      range, a store). The texts not searched may hold more matches.
    </p>
  );
}

/** A kind's own filter in the query's name (`record.refused`), as the form calls it: “ (the form's “not queued by the host only”)”. */
function labelOf(filter: string | undefined): string {
  if (filter === undefined) return '';
  const found = listKinds().flatMap(([, kind]) => kind.searchFilters?.filters ?? []).find((one) => one.param === filter);
  return found === undefined ? '' : ` (the form’s “${found.label}”)`;
}

/** What a search is asked besides its filters: the text, how it is read, how many hits. */
const SEARCH_TEXT_PARAMS = new Set(['q', 'regex', 'case', 'limit']);

/** `typed`: the box holds a text not asked for yet (a search is made on Enter, not as one types). */
function SearchResults({ results, empty, typed, params }: { results: UseQueryResult<SearchResponse>; empty: boolean; typed: boolean; params: URLSearchParams }) {
  const { navigate } = useRouter();
  if (empty) return <p className="muted">{typed ? 'Press Enter, or Search, to search for it.' : 'Give a text or a filter.'} Texts withheld in metadata mode are never matched by text.</p>;
  if (results.error !== null) {
    // The server's words: a store not read here is named with those that are; a search it refuses
    // (a text too long, a limit it does not give) was not made, which is not a search that failed.
    return <p className="notice error">{isRefusal(results.error) ? `Not searched: ${results.error.message}.` : `Search failed: ${results.error.message}`}</p>;
  }
  if (results.data === undefined) return <p className="muted">Searching…</p>;
  const { hits, scanned, truncated, stoppedEarly, keptOut, notRead } = results.data;
  return (
    <HitList key={params.toString()} keys={hits.map((hit) => kindOf(hit).hitKey(hit))}>
      {(list) => (
        <section aria-label="Search results">
          {stoppedEarly !== null && <StoppedEarlyNotice stoppedEarly={stoppedEarly} />}
          {/* One notice per reason, naming every store it kept out. */}
          {[...Map.groupBy(keptOut, (one) => one.why)].map(([why, stores]) => (
            <p key={why} className="notice warn search-kept-out">
              Not searched in {stores.map(({ source }) => `${kindNamed(source.kind)?.name ?? source.kind} (${source.id})`).join(', ')}: {why}
              {labelOf(stores[0]!.filter)}.
            </p>
          ))}
          {/* What a store could not read is degraded evidence: its hits are never all there is. */}
          {notRead.map(({ source, why }) => (
            <p key={source.id} className="banner-degraded search-not-read">
              In {kindNamed(source.kind)?.name ?? source.kind} ({source.id}): {why}.
            </p>
          ))}
          <p className="muted" role="status">
            {countOf(hits.length, 'entry', 'entries')}
            {stoppedEarly !== null ? ' in the texts searched' : ''}
            {truncated ? ` shown, the newest; more matched, narrow the search` : ''} ({countOf(scanned, 'text')} read).
            {listKinds().map(([name, kind]) => {
              const note = kind.hitsNote?.(hits.filter((hit) => hit.source.kind === name)) ?? null;
              return note === null ? null : ` ${note}`;
            })}
            {/* Said where there are results to read as pairs, not over none. */}
            {hits.length > 0 && ' Results are entries, not conversations: nothing here pairs a sent entry with a received one.'}
            {/* The search is asked again as entries are written (EventStream.tsx): hits come and counts change under the reader's eyes. */}
            {' Searched again as entries are written.'}
            {truncated && hits.length < MOST_SEARCH_HITS && (
              <>
                {' '}
                <button type="button" className="small" onClick={() => navigate(searchPath(withLimit(params, MOST_SEARCH_HITS)))}>
                  Show up to {writeCount(MOST_SEARCH_HITS)}
                </button>
              </>
            )}
          </p>
          <ol className="search-hits" ref={list}>
            {hits.map((hit) => {
              const { HitRow, hitKey } = kindOf(hit);
              return <HitRow key={hitKey(hit)} hit={hit} store={<SourceBadge source={hit.source} />} across={<SessionLink session={hit.session} />} />;
            })}
          </ol>
        </section>
      )}
    </HitList>
  );
}

/**
 * The keys over a search's hits: j and k (↓ ↑) select the next and the one before, Home and End
 * the first and the last, Enter opens the one selected, as its time's link does. The selection is
 * the list's own (a hit is not an address of its own), and is a hit, by its key: a search asked
 * again as entries are written keeps it on the same hit wherever it has moved.
 */
function HitList({ keys, children }: { keys: readonly string[]; children(list: RefObject<HTMLOListElement | null>): ReactNode }) {
  const list = useRef<HTMLOListElement>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const at = selected === null ? -1 : keys.indexOf(selected);
  const rows = () => [...(list.current?.querySelectorAll<HTMLElement>(':scope > .search-hit') ?? [])];
  const select = (index: number) => setSelected(keys.length === 0 ? null : keys[Math.max(0, Math.min(keys.length - 1, index))]!);
  // Marked at every render (a hit's row may be drawn anew); brought into view only when chosen.
  useLayoutEffect(() => {
    for (const [index, row] of rows().entries()) {
      if (index === at) row.setAttribute('aria-current', 'true');
      else row.removeAttribute('aria-current');
    }
  });
  useLayoutEffect(() => {
    if (at !== -1) rows()[at]?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const next = () => select(at === -1 ? 0 : at + 1);
  const before = () => select(at === -1 ? 0 : at - 1);
  useKeys({
    j: next,
    ArrowDown: next,
    k: before,
    ArrowUp: before,
    Home: () => select(0),
    End: () => select(keys.length - 1),
    Enter: () => {
      if (at !== -1) rows()[at]?.querySelector<HTMLAnchorElement>('.search-hit-head a[href]')?.click();
    },
  });
  return children(list);
}
