import { useLayoutEffect, useRef } from 'react';

// Single-key shortcuts. They are ignored while the reader types in a field, and when a modifier
// is held, so the browser's own shortcuts keep working.

type KeyBindings = Record<string, (event: KeyboardEvent) => void>;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, [contenteditable]') !== null;
}

export function useKeys(bindings: KeyBindings, enabled = true): void {
  const ref = useRef(bindings);
  ref.current = bindings;
  // Listening from the commit that shows the page, before it is painted: a passive effect runs a
  // moment later (longer on a loaded machine), and a key pressed as soon as the page was seen was
  // lost (the list of keys did not open on `?` in a test run).
  useLayoutEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const handler = ref.current[event.key];
      if (handler === undefined) return;
      event.preventDefault();
      handler(event);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
