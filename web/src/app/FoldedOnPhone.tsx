import { useEffect, useState, type ReactNode } from 'react';

// What a view puts above what it shows and a phone's screen cannot spare (its filters, what its
// drawing means), under a summary: folded on a phone, so that what it shows has the screen; open
// from 640 px, or whenever `openWhen` turns true (a filter applied by the address). A wider window
// opens it; folding it again is the reader's.

const OPEN_FROM = '(min-width: 640px)';

export function FoldedOnPhone({ summary, openWhen = false, className, children }: { summary: ReactNode; openWhen?: boolean; className: string; children: ReactNode }) {
  const [open, setOpen] = useState(() => window.matchMedia(OPEN_FROM).matches || openWhen);
  useEffect(() => {
    if (openWhen) setOpen(true);
  }, [openWhen]);
  useEffect(() => {
    const wide = window.matchMedia(OPEN_FROM);
    const widened = () => {
      if (wide.matches) setOpen(true);
    };
    wide.addEventListener('change', widened);
    return () => wide.removeEventListener('change', widened);
  }, []);
  return (
    <details className={`folded ${className}`} open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{summary}</summary>
      {children}
    </details>
  );
}
