import { Time } from './Time.tsx';

// A time as a store wrote it (a set-agent-comm header, a registry's lastSeen): shown as every time
// is, in the zone the reader chose, when it names an instant; the text as written stays on hover,
// since the store's own words matter. One that names no instant (no offset, no such day) is shown
// as written, and says so.

/** ISO 8601 with its offset: the only form that names one instant wherever it is read. */
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** The instant a written time names, as an ISO string; null when it names none. */
function instantOf(text: string): string | null {
  if (!WITH_OFFSET.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** `at`: the instant the store's core read in it, where the wire carries one; else it is read here. */
export function WrittenTime({ text, at, className }: { text: string; at?: string | null; className?: string }) {
  const instant = at === undefined ? instantOf(text) : at;
  if (instant === null) {
    return (
      <time className={className} title={`${text}: as written, naming no instant`}>
        {text}
      </time>
    );
  }
  return <Time at={instant} written={text} {...(className === undefined ? {} : { className })} />;
}
