import { missingRangeFromWire, type DegradedReasonWire, type SessionSummary } from '../../../../shared/wire/record.ts';
import { describeMissing } from '../../../../shared/record/degraded.ts';
import { DegradedBanner } from '../../conversation/DegradedBanner.tsx';
import { Link } from '../../router/Router.tsx';
import { itemPath } from '../../router/routes.ts';
import { describeWireReason } from './reasonWords.ts';
import { countOf } from '../../text/count.ts';

// A session whose record is incomplete says so at the top, every reason in plain words with the
// files it rests on (rule.recordingMayFail, rule.oneWriter, rule.startEntry). Each such file also
// sits in its place in the timeline.

export function RecordDegradedBanner({ session }: { session: SessionSummary }) {
  if (session.degraded.length === 0) return null;
  return (
    <DegradedBanner label="Degraded recording" heading="Recording is degraded: this session's record is incomplete">
      {session.degraded.map((reason) => (
        <li key={reason.code} data-reason={reason.code}>
          <span>{describeWireReason(reason, session.counts)}</span>
          <ReasonFiles source={session.source.id} sessionId={session.sessionId} reason={reason} />
        </li>
      ))}
    </DegradedBanner>
  );
}

function ReasonFiles({ source, sessionId, reason }: { source: string; sessionId: string; reason: DegradedReasonWire }) {
  if (reason.code === 'sequence-gap' && reason.missing !== undefined) {
    return (
      <ul className="reason-files">
        {reason.missing.map((range) => (
          <li key={`${range.from}-${range.to}`}>
            {describeMissing(missingRangeFromWire(range))}, between{' '}
            {range.after !== null ? <FileLink source={source} sessionId={sessionId} file={range.after} /> : 'the start of the run'} and{' '}
            <FileLink source={source} sessionId={sessionId} file={range.before} />
          </li>
        ))}
        {reason.filesTotal > reason.files.length && <li>and more</li>}
      </ul>
    );
  }
  if (reason.files.length === 0) return null;
  return (
    <ul className="reason-files">
      {reason.files.map((file) => (
        <li key={file}>
          <FileLink source={source} sessionId={sessionId} file={file} />
        </li>
      ))}
      {reason.filesTotal > reason.files.length && <li>and {countOf(reason.filesTotal - reason.files.length, 'more file')}</li>}
    </ul>
  );
}

function FileLink({ source, sessionId, file }: { source: string; sessionId: string; file: string }) {
  return (
    <Link to={itemPath(source, sessionId, file)}>
      <code>{file}</code>
    </Link>
  );
}
