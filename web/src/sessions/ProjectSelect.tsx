/**
 * The field that narrows a list to one project (the live view's, the search's): each working
 * directory a store names, `''` for any. A project in the address that no store names (a shared
 * link from another machine, a project whose sessions are gone) stays chosen, named as given,
 * rather than the field showing "any" while the list is narrowed to it. Listed in the order of
 * their names: the list of sessions puts the latest active first, and a field whose choices moved
 * with each write had the reader look for a project afresh each time it opened.
 */
export function ProjectSelect({ value, onChange, projects, any }: { value: string; onChange(value: string): void; projects: readonly (string | null)[]; any: string }) {
  const named = projects.filter((cwd): cwd is string => cwd !== null).sort();
  return (
    <label>
      project{' '}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{any}</option>
        {value !== '' && !named.includes(value) && <option value={value}>{value}</option>}
        {named.map((cwd) => (
          <option key={cwd} value={cwd}>
            {cwd}
          </option>
        ))}
      </select>
    </label>
  );
}
