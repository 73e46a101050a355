import { useSettings } from './Settings.tsx';

// Reading preferences beside the top bar's own (time zone, monospace): how times are written and
// how densely a session's entries are laid out. Remembered in this browser, as the others are.

export function SettingsMenu() {
  const { relativeTimes, setRelativeTimes, density, setDensity } = useSettings();
  return (
    <details className="settings-menu">
      <summary>Settings</summary>
      <div className="settings-panel" role="group" aria-label="Settings">
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
