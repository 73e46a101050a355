import './export.css';

// Downloads of an export: plain links, so the browser streams the file to disk itself (an export
// can be hundreds of megabytes) and sends the access cookie as for any request. The answer's
// Content-Disposition makes it a download; a `download` attribute is left off, as Chromium then
// fetches the file another way, which a test's bearer token did not reach.

const FORMATS = [
  { format: 'ndjson', label: 'NDJSON', title: 'Each item as on disk: its evidence, its place, and the file\'s text byte for byte' },
  { format: 'json', label: 'JSON', title: 'The API\'s own shape, every item in one answer' },
  { format: 'md', label: 'Markdown', title: 'A readable transcript, with every gap, damaged or pending file in its place' },
] as const;

/** `path` is the export's route; `query` what it needs besides the format. */
export function DownloadLinks({ path, query, what }: { path: string; query: URLSearchParams; what: string }) {
  return (
    <span className="download-links" role="group" aria-label={`Download ${what}`}>
      <span className="muted">Download:</span>
      {FORMATS.map(({ format, label, title }) => {
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
