import { VerbatimText } from '../text/VerbatimText.tsx';

/** More than this is not laid out at once: a 20 MB entry would hold the page for seconds. */
const SHOWN_CHARS = 64 * 1024;

/**
 * A file's text as written, bytes as they are: not pretty-printed by us, so the raw view shows
 * what the file holds (a key written twice, 1e400, white space). It goes through the same
 * markers as a message text, so control, bidi and zero-width characters are seen, not applied.
 */
export function RawJson({ text, label }: { text: string; label: string }) {
  let end = text.length > SHOWN_CHARS ? SHOWN_CHARS : text.length;
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
  return (
    <section className="raw-json" aria-label={label}>
      <VerbatimText text={end < text.length ? text.slice(0, end) : text} />
      {end < text.length && (
        <p className="muted">
          The first {end.toLocaleString('en')} of {text.length.toLocaleString('en')} characters are shown.
        </p>
      )}
    </section>
  );
}
