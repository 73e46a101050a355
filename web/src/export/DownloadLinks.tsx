import './export.css';

// Downloads of an export: plain links, so the browser streams the file to disk itself (an export
// can be hundreds of megabytes) and sends the access cookie as for any request. The answer's
// Content-Disposition makes it a download; a `download` attribute is left off, as Chromium then
// fetches the file another way, which a test's bearer token did not reach.

/** What each format holds of a conversation or a room: every item, in its place. */
const CONVERSATION_FORMATS = [
  { format: 'ndjson', label: 'NDJSON', title: 'Each item as on disk: its evidence, its place, and the file\'s text byte for byte' },
  { format: 'json', label: 'JSON', title: 'The API\'s own shape, every item in one answer' },
  { format: 'md', label: 'Markdown', title: 'A readable transcript, with every gap, damaged or pending file in its place' },
] as const;

/** What each format holds of a search's results: the hits as the search answered them, not the files. */
const HITS_FORMATS = [
  { format: 'ndjson', label: 'NDJSON', title: 'Each hit as the search answered it: its store, session and place, and the text around its match' },
  { format: 'json', label: 'JSON', title: 'The search\'s own answer, every hit in it' },
  { format: 'md', label: 'Markdown', title: 'The query, then each hit with the text around its match; a line found from both its sides says so on both' },
] as const;

/** `path` is the export's route; `query` what it needs besides the format; `of` what it exports (a conversation's items by default). */
export function DownloadLinks({ path, query, what, of = 'items' }: { path: string; query: URLSearchParams; what: string; of?: 'items' | 'hits' }) {
  return (
    <span className="download-links" role="group" aria-label={`Download ${what}`}>
      <span className="muted">Download:</span>
      {(of === 'hits' ? HITS_FORMATS : CONVERSATION_FORMATS).map(({ format, label, title }) => {
        const params = new URLSearchParams(query);
        params.set('format', format);
        return (
          <a key={format} className="button small" href={`${path}?${params}`} title={title} aria-label={`Download ${what} as ${label}`}>
            {label}
          </a>
        );
      })}
    </span>
  );
}
