import { useMemo, useState } from 'react';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { formatJsonText } from './formatJson.ts';
import { countOf } from '../../text/count.ts';

/** More than this is not laid out at once: a 20 MB entry would hold the page for seconds. */
const SHOWN_CHARS = 64 * 1024;
/** Formatting walks the whole text: offered for what a reader reads, not for a 20 MB entry. */
const FORMATTED_CHARS = 1024 * 1024;

/**
 * A file's text as written, bytes as they are: not pretty-printed by us, so the raw view shows
 * what the file holds (a key written twice, 1e400, white space). Its line breaks and tabs are its
 * own layout and show as such; control, bidi and zero-width characters are marked as in a
 * message text, seen, not applied. A formatted view is offered beside it, and says it is ours.
 */
export function RawJson({ text, file }: { text: string; file: string }) {
  const [formatted, setFormatted] = useState(false);
  const canFormat = useMemo(() => text.length <= FORMATTED_CHARS && formatJsonText(text) !== null, [text]);
  const pretty = useMemo(() => (formatted && canFormat ? formatJsonText(text) : null), [formatted, canFormat, text]);
  const shown = clip(pretty ?? text);
  return (
    <div className="raw-view">
      {canFormat && (
        <span className="segmented raw-switch" role="group" aria-label={`How ${file} is shown`}>
          <button type="button" className="small" aria-pressed={!formatted} onClick={() => setFormatted(false)}>
            As written
          </button>
          <button type="button" className="small" aria-pressed={formatted} onClick={() => setFormatted(true)}>
            Formatted
          </button>
        </span>
      )}
      {pretty !== null ? (
        <section className="formatted-json" aria-label={`JSON of ${file}, formatted by the dashboard`}>
          <p className="muted">Formatted by the dashboard, not the file as written: the line breaks and indentation are ours; keys, strings and numbers are as written.</p>
          <VerbatimText text={shown.text} plainLayout />
          <ClipNote shown={shown.end} total={pretty.length} />
        </section>
      ) : (
        <section className="raw-json" aria-label={`Raw JSON of ${file}`}>
          <VerbatimText text={shown.text} plainLayout />
          <ClipNote shown={shown.end} total={text.length} />
        </section>
      )}
    </div>
  );
}

function clip(text: string): { text: string; end: number } {
  let end = text.length > SHOWN_CHARS ? SHOWN_CHARS : text.length;
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
  return { text: end < text.length ? text.slice(0, end) : text, end };
}

function ClipNote({ shown, total }: { shown: number; total: number }) {
  if (shown >= total) return null;
  return (
    <p className="muted">
      The first {shown.toLocaleString('en')} of {countOf(total, 'character')} are shown.
    </p>
  );
}
