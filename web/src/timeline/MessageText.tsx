import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { FileItem } from '../../../shared/wire/record.ts';
import { KEEP_ENTRIES_AS_SENT, fetchFile } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { CopyButton } from '../text/CopyButton.tsx';
import { utf8Length } from '../text/markers.ts';
import { VerbatimText } from '../text/VerbatimText.tsx';
import { countOf } from '../text/count.ts';
import { clipForDisplay } from '../text/clip.ts';

// A message's text. Long texts are clipped for scanning, never shortened: "show all" gives the
// whole text, and copy always copies the whole text as written, fetching it when the page held
// only the first 64 KiB.

export function MessageText({ sessionId, item, text, actions }: { sessionId: string; item: FileItem; text: string; actions: ReactNode }) {
  const [showAll, setShowAll] = useState(false);
  const serverClipped = item.textClipped !== undefined;
  const full = useQuery({
    queryKey: queryKeys.file(sessionId, item.file),
    queryFn: ({ signal }) => fetchFile(sessionId, item.file, signal),
    enabled: showAll && serverClipped,
    ...KEEP_ENTRIES_AS_SENT,
  });
  const fullText = serverClipped ? (typeof full.data?.item.entry?.['text'] === 'string' ? (full.data.item.entry['text'] as string) : null) : text;
  const bytes = item.textClipped?.bytes ?? utf8Length(text);
  // What the page holds of a clipped text is itself 64 KiB: it is clipped for display like any
  // long text (laying out 64 KiB of marked text in a row took some 60 ms while scrolling).
  const clipped = clipForDisplay(text) ?? (serverClipped ? text : null);
  const whole = showAll && fullText !== null;
  const showing = whole ? fullText : (clipped ?? text);

  const getWholeText = async () => {
    if (!serverClipped) return text;
    const response = await fetchFile(sessionId, item.file);
    const whole = response.item.entry?.['text'];
    if (typeof whole !== 'string') throw new Error('the file no longer holds a text');
    return whole;
  };

  return (
    <div className="message-text">
      <VerbatimText text={showing} className="entry-text" />
      <div className="text-actions">
        {!whole && clipped !== null && (
          <button type="button" className="small" onClick={() => setShowAll(true)} disabled={showAll && full.isFetching}>
            {showAll && full.isFetching ? 'loading…' : `show all (${countOf(bytes, 'byte')})`}
          </button>
        )}
        {whole && clipped !== null && (
          <button type="button" className="small" onClick={() => setShowAll(false)}>
            show less
          </button>
        )}
        {full.error !== null && <span className="error">could not load the whole text: {full.error.message}</span>}
        <CopyButton getText={getWholeText} label="Copy the exact text" children="Copy text" />
        <span className="text-size">{countOf(bytes, 'byte')}</span>
        {actions}
      </div>
    </div>
  );
}
