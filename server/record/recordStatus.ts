import type { Indexing, SourceStatus } from '../../shared/wire/common.ts';

/** Whether the record directory can be read, and why not. */
export type RecordState = Pick<SourceStatus, 'state' | 'why'>;

export type RecordStatus = ReturnType<typeof createRecordStatus>;

/**
 * What the record's watcher tells of the record: whether its directory is there, and how far
 * the indexing is. A scan's progress is told at most every 100 ms; any other change at once.
 */
export function createRecordStatus(onStatus: (status: { record: RecordState; indexing: Indexing }) => void) {
  let record: RecordState = { state: 'missing', why: null };
  let indexing: Indexing = { state: 'waiting', files: 0 };
  let lastStatusAt = 0;

  return {
    record: (): RecordState => record,
    indexing: (): Indexing => indexing,
    /** Takes the record directory for present without telling: it was there when watching began. */
    assumePresent(): void {
      record = { state: 'present', why: null };
    },
    /** Sets what changed and tells the whole status; a progress (`force` false) only every 100 ms. */
    set(next: { record?: RecordState; indexing?: Indexing }, force = true): void {
      if (next.record !== undefined) record = next.record;
      if (next.indexing !== undefined) indexing = next.indexing;
      const now = Date.now();
      if (!force && now - lastStatusAt < 100) return;
      lastStatusAt = now;
      onStatus({ record, indexing });
    },
  };
}
