import { createContext, useContext } from 'react';

// The open session's filter as a query suffix (`?side=sent`, or ''), so that a link to one of its
// entries keeps the filter the reader is looking through.
export const FilterSuffixContext = createContext('');

export function useFilterSuffix(): string {
  return useContext(FilterSuffixContext);
}
