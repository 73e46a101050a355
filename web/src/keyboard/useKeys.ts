import { useLayoutEffect, useRef } from 'react';

// Single-key shortcuts. They are ignored while the reader types in a field (Escape leaves it),
// when a modifier is held, so the browser's own shortcuts keep working, and while a dialog is
// open (the list of keys): the page behind it is not moved, and Escape is the dialog's, which it
// closes.

type KeyBindings = Record<string, (event: KeyboardEvent) => void>;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, [contenteditable]') !== null;
}

/** Enter on a link, a button or an arrow of the map is theirs: it follows, presses or opens them. */
function isControl(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('a[href], button, summary, [role="button"], [role="link"]') !== null;
}

export function useKeys(bindings: KeyBindings): void {
  const ref = useRef(bindings);
  ref.current = bindings;
  // Listening from the commit that shows the page, before it is painted: a passive effect runs a
  // moment later (longer on a loaded machine), and a key pressed as soon as the page was seen was
  // lost (the list of keys did not open on `?` in a test run).
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || document.querySelector('dialog[open]') !== null) return;
      if (isTyping(event.target)) {
        // Escape leaves the field, what was typed kept (a search box would clear it), so that
        // the page's keys are the reader's again; not while it ends a composition (an IME's).
        if (event.key === 'Escape' && !event.isComposing && event.target instanceof HTMLElement) {
          event.preventDefault();
          event.target.blur();
        }
        return;
      }
      if (event.key === 'Enter' && isControl(event.target)) return;
      const handler = ref.current[event.key];
      if (handler === undefined) return;
      event.preventDefault();
      handler(event);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
