import { missingRangeFromWire, type DegradedReasonWire, type SessionSummary } from '../../../../shared/wire/record.ts';
import { describeReason, type DegradedReason } from '../../../../shared/record/degraded.ts';

/**
 * describeReason counts the files and missing ranges it is given, but the wire lists at most
 * REASON_FILES_SHOWN of each. The totals are put back so that the words count them all.
 */
export function describeWireReason(reason: DegradedReasonWire, counts: SessionSummary['counts']): string {
  const files = reason.files.length >= reason.filesTotal ? reason.files : [...reason.files, ...new Array<string>(reason.filesTotal - reason.files.length).fill('')];
  const core: DegradedReason = { code: reason.code, files };
  if (reason.folder !== undefined) core.folder = reason.folder;
  if (reason.missing !== undefined) core.missing = reason.missing.map(missingRangeFromWire);
  return describeReason(core, reason.missing !== undefined ? counts.missing : undefined);
}

/** One line for a tooltip or a screen reader: every reason, in plain words. */
export function describeSessionDegraded(session: SessionSummary): string {
  return session.degraded.map((reason) => describeWireReason(reason, session.counts)).join('\n');
}
