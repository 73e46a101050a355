import { useEffect, useState, type ReactNode } from 'react';

// What a view puts above what it shows and a small screen cannot spare (its filters, what its
// drawing means, a session's activity), under a summary: folded where the window does not match
// `openFrom`, so that what the view shows has the screen; open where it does (from 640 px wide,
// unless told otherwise), or whenever `openWhen` turns true (a filter applied by the address). A
// window grown to match opens it; folding it again is the reader's. Where it is given a name to
// be kept by (`keptAs`), the reader's last choice holds on the next page that has it, in this tab
// (through a reload too).

/** A phone's screen is narrower. */
const WIDER_THAN_A_PHONE = '(min-width: 640px)';

/**
 * A window that can spare the height for what a conversation's page says above its rows (a record
 * session's activity, a spex session's or a seat's facts, what the marks mean): a laptop's 800 px
 * left the rows some 300 with all of it open, so each is folded under its summary below this.
 */
export const TALL_ENOUGH = `${WIDER_THAN_A_PHONE} and (min-height: 900px)`;

type Props = { summary: ReactNode; openFrom?: string; openWhen?: boolean; keptAs?: string; className: string; children: ReactNode };

export function Folded({ summary, openFrom = WIDER_THAN_A_PHONE, openWhen = false, keptAs, className, children }: Props) {
  const [open, setOpen] = useState(() => readKept(keptAs) ?? (window.matchMedia(openFrom).matches || openWhen));
  useEffect(() => {
    if (openWhen) setOpen(true);
  }, [openWhen]);
  useEffect(() => {
    const wide = window.matchMedia(openFrom);
    const widened = () => {
      if (wide.matches) setOpen(true);
    };
    wide.addEventListener('change', widened);
    return () => wide.removeEventListener('change', widened);
  }, [openFrom]);
  return (
    <details
      className={`folded ${className}`}
      open={open}
      onToggle={(event) => {
        const now = event.currentTarget.open;
        // The reader's (a click, the browser's find in the page): not this component's own.
        if (now !== open) keep(keptAs, now);
        setOpen(now);
      }}
    >
      {/* A click is kept at once: the toggle is told a moment later, and a page left in between (a
          click, then a link or a key at once) lost the reader's choice. Find in the page opens it
          with no click, and is kept by the toggle; a click on a link or a control in the summary
          toggles nothing. */}
      <summary
        onClick={(event) => {
          if ((event.target as Element).closest('a, button, input, select, textarea') === null) keep(keptAs, !(event.currentTarget.parentElement as HTMLDetailsElement).open);
        }}
      >
        {summary}
      </summary>
      {children}
    </details>
  );
}

const KEPT_PREFIX = 'rec-dashboard.fold.';

function readKept(name: string | undefined): boolean | null {
  if (name === undefined) return null;
  try {
    const kept = window.sessionStorage.getItem(KEPT_PREFIX + name);
    return kept === 'open' ? true : kept === 'folded' ? false : null;
  } catch {
    // Storage may be disabled: the window decides.
    return null;
  }
}

function keep(name: string | undefined, open: boolean): void {
  if (name === undefined) return;
  try {
    window.sessionStorage.setItem(KEPT_PREFIX + name, open ? 'open' : 'folded');
  } catch {
    // Not kept, still applied.
  }
}
