import type { SourceKind } from '../../shared/wire/common.ts';
import { createRecordSource } from '../record/recordSource.ts';
import { createSpexSource } from '../spex/spexSource.ts';
import { createSacSource } from '../sac/sacSource.ts';
import type { RecordHeadStart } from '../record/scanStart.ts';
import type { SearchPool } from '../search/searchPool.ts';
import type { Source } from './source.ts';

/**
 * A store the command was given: its kind and its root directory, and for a record the first
 * scan the command began before the rest of it loaded (server/record/scanStart.ts).
 */
export type StoreSpec = { kind: SourceKind; root: string; headStart?: RecordHeadStart | null };

type SourceOptions = {
  root: string;
  headStart?: RecordHeadStart | null;
  reconcileIntervalMs?: number;
  onError?: (message: string) => void;
  /** The search threads every source of the dashboard shares; a source alone makes its own. */
  searchPool?: SearchPool;
};

/**
 * Each kind's source, made from a root. A new kind adds a line here (and its wire, a line in
 * shared/wire/kinds.ts) and touches no other shell.
 */
export const SOURCE_FACTORIES: Record<SourceKind, (options: SourceOptions) => Source> = {
  record: createRecordSource,
  spex: createSpexSource,
  sac: createSacSource,
};
