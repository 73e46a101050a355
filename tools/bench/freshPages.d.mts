/** The minor page faults the process `pid` (this one by default) has taken so far; null where Linux does not say, or once it is gone. */
export function readMinorFaults(pid?: number | 'self'): number | null;

/** What `node freshPages.mjs` prints: a page's first touch here, from a new buffer filled once and again (the difference a fault, in µs), at the median of three. */
export type PageCost = { mb: number; faults: number; firstMs: number; againMs: number; usPerPage: number };
