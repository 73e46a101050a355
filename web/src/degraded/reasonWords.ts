import { seqFromWire, type DegradedReasonWire, type SessionSummary } from '../../../shared/api.ts';
import { describeReason, type DegradedReason, type MissingRange } from '../../../shared/record/degraded.ts';
import { addSeq, countRange, type Seq } from '../../../shared/record/entryName.ts';

/**
 * describeReason counts the files and missing ranges it is given, but the wire lists at most
 * REASON_FILES_SHOWN of each. The totals are put back so that the words count them all.
 */
export function describeWireReason(reason: DegradedReasonWire, counts: SessionSummary['counts']): string {
  const files = reason.files.length >= reason.filesTotal ? reason.files : [...reason.files, ...new Array<string>(reason.filesTotal - reason.files.length).fill('')];
  const core: DegradedReason = { code: reason.code, files };
  if (reason.folder !== undefined) core.folder = reason.folder;
  if (reason.missing !== undefined) {
    const ranges: MissingRange[] = reason.missing.map((range) => ({ ...range, from: seqFromWire(range.from), to: seqFromWire(range.to) }));
    const listed = ranges.reduce<Seq>((sum, range) => addSeq(sum, countRange(range)), 0);
    core.missing = listed >= counts.missing || ranges.length === 0
      ? ranges
      : [{ from: 1, to: counts.missing, after: null, before: '' }];
  }
  return describeReason(core);
}

/** One line for a tooltip or a screen reader: every reason, in plain words. */
export function describeSessionDegraded(session: SessionSummary): string {
  return session.degraded.map((reason) => describeWireReason(reason, session.counts)).join('\n');
}
