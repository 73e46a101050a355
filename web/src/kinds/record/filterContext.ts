import { createContext, useContext } from 'react';

// The open session's filter as a query (`side=sent`, or ''), so that a link to one of its entries
// keeps the filter the reader is looking through.
export const FilterQueryContext = createContext('');

export function useFilterQuery(): string {
  return useContext(FilterQueryContext);
}
