import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

// Reader preferences that hold for the whole UI and are remembered in this browser.

export type TimeZoneSetting = 'utc' | 'local';

export type Settings = {
  timeZone: TimeZoneSetting;
  monospace: boolean;
};

type SettingsValue = Settings & {
  setTimeZone(zone: TimeZoneSetting): void;
  setMonospace(on: boolean): void;
};

const STORAGE_KEY = 'rec-dashboard.settings';
const DEFAULTS: Settings = { timeZone: 'utc', monospace: true };

function loadSettings(): Settings {
  try {
    const stored = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Settings>;
    return {
      timeZone: stored.timeZone === 'local' ? 'local' : 'utc',
      monospace: typeof stored.monospace === 'boolean' ? stored.monospace : DEFAULTS.monospace,
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
