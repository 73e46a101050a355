import type { SourceRef } from '../../../shared/wire/common.ts';
import { kindNamed } from './registry.ts';

/**
 * The field that narrows a list to one store (the live view's, the search's): each store by its
 * kind's name and its id, `''` for any. A store in the address that is not read (a shared link
 * from another machine) stays chosen, named by its id, rather than being silently dropped, where
 * the page keeps it (the search, whose answer says no such store is read); the live view does not
 * apply it, and says so (liveFilter.ts).
 */
export function StoreSelect({ value, onChange, sources, any }: { value: string; onChange(value: string): void; sources: readonly SourceRef[]; any: string }) {
  return (
    <label>
      store{' '}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{any}</option>
        {value !== '' && !sources.some((source) => source.id === value) && <option value={value}>{value}</option>}
        {sources.map((source) => (
          <option key={source.id} value={source.id}>
            {kindNamed(source.kind)?.name ?? source.kind} ({source.id})
          </option>
        ))}
      </select>
    </label>
  );
}
