import { useCallback, useState } from 'react';

// Rows a reader opened to another form (an entry's raw JSON, a compact row in full), by their
// key: a row keeps its form while the list around it pages, follows or is filtered.

/** The keys toggled on, and a toggle of one. */
export function useToggledKeys(): [ReadonlySet<string>, (key: string) => void] {
  const [keys, setKeys] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback((key: string) => {
    setKeys((old) => {
      const next = new Set(old);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);
  return [keys, toggle];
}
