// The side field of every filter form (the live view, a session's page, the search): sent,
// received, or either, in the words the page uses for "either" and for its own fields' names.

export type Side = 'sent' | 'received' | null;

export function SideSelect({ value, onChange, label = 'side', any }: { value: Side; onChange(side: Side): void; label?: string; any: string }) {
  return (
    <label>
      {label}{' '}
      <select value={value ?? ''} onChange={(event) => onChange(event.target.value === 'sent' || event.target.value === 'received' ? event.target.value : null)}>
        <option value="">{any}</option>
        <option value="sent">sent</option>
        <option value="received">received</option>
      </select>
    </label>
  );
}
