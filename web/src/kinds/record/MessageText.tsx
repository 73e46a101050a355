import type { ReactNode } from 'react';
import type { FileItem } from '../../../../shared/wire/record.ts';
import { TextActions, useClippedText } from '../../text/ClippedText.tsx';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { fetchFile, fileKey } from './recordApi.ts';

/** A message's text, whole from its file when the page held only its first 64 KiB; `actions` after the text's own. */
export function MessageText({ sessionId, item, text, actions }: { sessionId: string; item: FileItem; text: string; actions: ReactNode }) {
  const state = useClippedText({
    text,
    clippedBytes: item.textClipped?.bytes,
    queryKey: fileKey(item.source.id, sessionId, item.file),
    fetchWhole: (signal) => fetchFile(item.source.id, sessionId, item.file, signal),
    textOf: (answer) => (typeof answer.item.entry?.['text'] === 'string' ? (answer.item.entry['text'] as string) : null),
  });
  return (
    <div className="message-text">
      <VerbatimText text={state.showing} className="entry-text" />
      <TextActions state={state} copyLabel="Copy the exact text" after={actions} />
    </div>
  );
}
