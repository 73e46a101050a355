/** The bytes read from storage by the process `pid` (this one by default); null where Linux does not count them, or once it is gone. */
export function readStorageBytes(pid?: number | 'self'): number | null;
