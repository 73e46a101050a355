import { useMemo } from 'react';
import { useSettings } from '../settings/Settings.tsx';
import { segmentText, type Segment } from './markers.ts';

// Record text as written (rule.verbatim): React text nodes only, never HTML or Markdown. The DOM
// text of this element is the original text, character for character: each marker's glyph is
// drawn by CSS from data-mark (not part of the text), and the character it stands for stays in
// the DOM, kept in a zero-width box when it would otherwise act (a bidi override would reorder
// what follows; an atomic inline box confines it to itself).

const HIDDEN_KINDS = new Set<Segment['type'] | string>(['cr', 'control', 'bidi', 'invisible']);

export function VerbatimText({ text, inline = false, className = '', plainLayout = false }: { text: string; inline?: boolean; className?: string; plainLayout?: boolean }) {
  const { monospace } = useSettings();
  const segments = useMemo(() => segmentText(text, plainLayout), [text, plainLayout]);
  const classes = `verbatim ${inline ? 'verbatim-inline' : 'verbatim-block'} ${monospace ? 'mono' : 'proportional'} ${className}`;
  const children = segments.map((segment, index) =>
    segment.type === 'text' ? (
      segment.text
    ) : (
      <span key={index} className={`mk mk-${segment.kind}`} data-mark={segment.glyph} title={segment.label}>
        {HIDDEN_KINDS.has(segment.kind) ? <span className="mk-char">{segment.char}</span> : segment.char}
      </span>
    ),
  );
  return inline ? (
    <span className={classes} dir="ltr">
      {children}
    </span>
  ) : (
    <div className={classes} dir="ltr">
      {children}
    </div>
  );
}
