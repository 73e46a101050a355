import { useEffect, useRef, useState } from 'react';
import { useSettings } from './Settings.tsx';

// Reading preferences beside the top bar's own (time zone, monospace): how times are written and
// how densely a session's entries are laid out. Remembered in this browser, as the others are. On
// a phone the top bar's own are here too, and not in the bar (app.css): the bar took four rows.
// A menu that opens over the page (it does not push the page down), and closes as menus do: on
// Escape, which gives the focus back to its button, and on a click or a focus outside it.

/** The time zone for all times and the texts' font: in the top bar, and on a phone in Settings instead. */
export function ReadingPrefs({ className }: { className: string }) {
  const { timeZone, setTimeZone, monospace, setMonospace } = useSettings();
  return (
    <span className={`reading-prefs ${className}`}>
      <span className="segmented" role="group" aria-label="Time zone for all times">
        <button type="button" aria-pressed={timeZone === 'utc'} onClick={() => setTimeZone('utc')}>
          UTC
        </button>
        <button type="button" aria-pressed={timeZone === 'local'} onClick={() => setTimeZone('local')}>
          Local
        </button>
      </span>
      <label className="check" title="Show texts in a monospace font">
        <input type="checkbox" checked={monospace} onChange={(event) => setMonospace(event.target.checked)} />
        monospace
      </label>
    </span>
  );
}

export function SettingsMenu() {
  const { relativeTimes, setRelativeTimes, density, setDensity } = useSettings();
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (event: Event) => {
      if (!menu.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('focusin', away);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('focusin', away);
    };
  }, [open]);
  return (
    <details
      className="settings-menu"
      ref={menu}
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        setOpen(false);
        menu.current?.querySelector('summary')?.focus();
      }}
    >
      <summary>Settings</summary>
      <div className="settings-panel" role="group" aria-label="Settings">
        <ReadingPrefs className="phone-only" />
        <label className="check" title="Times as “3 minutes ago”; the exact time, in the zone chosen (UTC or local), on hover">
          <input type="checkbox" checked={relativeTimes} onChange={(event) => setRelativeTimes(event.target.checked)} />
          relative times
        </label>
        <label className="check" title="Each message on one line until it is opened: for long sessions">
          <input type="checkbox" checked={density === 'compact'} onChange={(event) => setDensity(event.target.checked ? 'compact' : 'comfortable')} />
          compact entries
        </label>
      </div>
    </details>
  );
}
