import { VerbatimText } from '../text/VerbatimText.tsx';

/**
 * A JSON value as text. JSON.stringify escapes control characters but not bidi or zero-width
 * ones, so the result goes through the same markers as a message text.
 */
export function RawJson({ value, label }: { value: unknown; label: string }) {
  return (
    <section className="raw-json" aria-label={label}>
      <VerbatimText text={JSON.stringify(value, null, 2) ?? String(value)} />
    </section>
  );
}
