import type { SearchFilter } from '../kinds/kind.ts';

/** One kind's own search filters, in a row of their own that says they find no other kind's items. */
export function OwnFilters({ words, filters, values, onChange }: { words: string; filters: readonly SearchFilter[]; values: Readonly<Record<string, string>>; onChange(param: string, value: string): void }) {
  return (
    <div className="search-row" role="group" aria-label={`Filters of ${words.replace(/ only$/, '')}`}>
      <span className="muted" title="Set one, and only this kind's items are found">
        {words}:
      </span>
      {filters.map((filter) => {
        const value = values[filter.param] ?? '';
        switch (filter.type) {
          case 'check':
            return (
              <label key={filter.param} className="check" title={filter.title}>
                <input type="checkbox" checked={value === '1'} onChange={(event) => onChange(filter.param, event.target.checked ? '1' : '')} /> {filter.label}
              </label>
            );
          case 'choice':
            return (
              <label key={filter.param} title={filter.title}>
                {filter.label}{' '}
                <select aria-label={filter.label} value={value} onChange={(event) => onChange(filter.param, event.target.value)}>
                  <option value="">any</option>
                  {filter.choices.map(([choice, choiceWords]) => (
                    <option key={choice} value={choice}>
                      {choiceWords}
                    </option>
                  ))}
                </select>
              </label>
            );
          case 'text':
            return (
              <label key={filter.param} title={filter.title}>
                {filter.label} <input type="text" aria-label={filter.label} value={value} onChange={(event) => onChange(filter.param, event.target.value)} placeholder={filter.placeholder} size={Math.max(20, filter.placeholder.length)} />
              </label>
            );
        }
      })}
    </div>
  );
}
