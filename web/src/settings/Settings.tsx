import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

// Reader preferences that hold for the whole UI and are remembered in this browser.

export type TimeZoneSetting = 'utc' | 'local';

/** comfortable: every entry whole; compact: a message on one line until it is opened (long sessions). */
type DensitySetting = 'comfortable' | 'compact';

export type Settings = {
  timeZone: TimeZoneSetting;
  monospace: boolean;
  /** Times as "3 minutes ago", the exact time on hover. */
  relativeTimes: boolean;
  density: DensitySetting;
};

type SettingsValue = Settings & {
  setTimeZone(zone: TimeZoneSetting): void;
  setMonospace(on: boolean): void;
  setRelativeTimes(on: boolean): void;
  setDensity(density: DensitySetting): void;
};

const STORAGE_KEY = 'rec-dashboard.settings';
const DEFAULTS: Settings = { timeZone: 'utc', monospace: true, relativeTimes: false, density: 'comfortable' };

function loadSettings(): Settings {
  try {
    const stored = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Settings>;
    return {
      timeZone: stored.timeZone === 'local' ? 'local' : 'utc',
      monospace: typeof stored.monospace === 'boolean' ? stored.monospace : DEFAULTS.monospace,
      relativeTimes: stored.relativeTimes === true,
      density: stored.density === 'compact' ? 'compact' : 'comfortable',
    };
  } catch {
    // Storage may be disabled or hold something else; the defaults are fine.
    return DEFAULTS;
  }
}

function saveSettings(settings: Settings): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Not remembered, still applied.
  }
}

const SettingsContext = createContext<SettingsValue | null>(null);

export function SettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState(loadSettings);
  const update = useCallback((patch: Partial<Settings>) => {
    setSettings((old) => {
      const next = { ...old, ...patch };
      saveSettings(next);
      return next;
    });
  }, []);
  const value = useMemo<SettingsValue>(
    () => ({
      ...settings,
      setTimeZone: (timeZone) => update({ timeZone }),
      setMonospace: (monospace) => update({ monospace }),
      setRelativeTimes: (relativeTimes) => update({ relativeTimes }),
      setDensity: (density) => update({ density }),
    }),
    [settings, update],
  );
  return <SettingsContext value={value}>{children}</SettingsContext>;
}

export function useSettings(): SettingsValue {
  const value = useContext(SettingsContext);
  if (value === null) throw new Error('useSettings outside SettingsProvider');
  return value;
}
